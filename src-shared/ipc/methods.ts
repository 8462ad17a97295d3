/**
 * The bridge's method and event names and IPC channels, apart from their schemas: a sandboxed preload can load
 * nothing but its own bundle and electron, so it must not pull in the schema library. contract.ts holds the
 * schemas and a test checks that both list the same names.
 */
export const IPC_CHANNEL = 'nova:call';
/** Main → window: `(event name, payload)`, already coalesced to at most one of each kind a frame. */
export const EVENT_CHANNEL = 'nova:event';

export const METHOD_NAMES = [
  'venue.status',
  'environments.list',
  'environments.configure',
  'environments.switch',
  'connection.status',
  'orders.place',
  'orders.cancel',
  'orders.cancelBulk',
  'orders.cancelAll',
  'orders.active',
  'orders.history',
  'orders.fills',
  'market.products',
  'market.watch',
  'market.unwatch',
  'market.book',
  'market.trades',
  'market.candles',
  'account.get',
  'keys.list',
  'keys.create',
  'keys.import',
  'keys.use',
  'keys.forget',
  'keys.revoke',
  'errors.catalogue',
  'settings.get',
  'settings.update',
  'layouts.list',
  'layouts.save',
  'layouts.load',
  'layouts.delete',
] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

export const EVENT_NAMES = [
  'connection.changed',
  'environments.changed',
  'orders.changed',
  'book.changed',
  'trades.received',
  'ticker.changed',
  'candles.changed',
  'account.changed',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];
