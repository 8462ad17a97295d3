/** The enumerated words of the wire, in one place for the validators, the record schemas and the desk. */

export const ORDER_TYPES = ['LIMIT', 'MARKET', 'STOP', 'TWAP'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const ORDER_SIDES = ['BUY', 'SELL'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];

export const TIMES_IN_FORCE = ['GTC', 'IOC', 'FOK', 'GTT'] as const;
export type TimeInForce = (typeof TIMES_IN_FORCE)[number];

/** What REST accepts and order records show (interface 2.1 and 4.2). */
export const REST_STP_MODES = ['CANCEL_TAKER', 'CANCEL_MAKER', 'CANCEL_BOTH'] as const;
/** The engine's self-trade prevention: REST's three plus the WebSocket's DC. */
export const STP_MODES = [...REST_STP_MODES, 'DECREASE_AND_CANCEL'] as const;
export type SelfTradePrevention = (typeof STP_MODES)[number];

export const STOP_TYPES = ['STOP_NONE', 'STOP_LOSS', 'TAKE_PROFIT'] as const;
export type StopType = (typeof STOP_TYPES)[number];

export const ORDER_STATUSES = ['SUBMITTED', 'ACTIVE', 'DONE', 'SCHEDULED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Why a DONE order is done (venue contract); '' while it is not. */
export const DONE_REASONS = ['FILLED', 'CANCELED', 'EXPIRED', 'REJECTED'] as const;
export type DoneReason = (typeof DONE_REASONS)[number];

/** Statuses of WebSocket order updates (venue contract), lowercase as the interface shows them. */
export const WS_ORDER_STATUSES = [
  'pending',
  'open',
  'partially_filled',
  'filled',
  'cancelled',
  'rejected',
  'expired',
  'scheduled',
] as const;
export type WsOrderStatus = (typeof WS_ORDER_STATUSES)[number];

export const ARCHIVED_SORTS = ['created_at', '-created_at', 'updated_at', '-updated_at'] as const;
export type ArchivedSort = (typeof ARCHIVED_SORTS)[number];

export function isOneOf<T extends string>(value: string, allowed: readonly T[]): value is T {
  return (allowed as readonly string[]).includes(value);
}
