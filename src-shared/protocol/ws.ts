/**
 * WebSocket messages, both directions (interface 4.12 and 6, plus this venue's market-data channels).
 *
 * Client → venue: `{ op, request_id?, ... }` frames. parseClientMessage checks the envelope and the small
 * operations completely; create_order data goes through parseWsCreateOrder (it needs the clock) and
 * cancel_order data through parseWsCancelOrder, so that the venue can answer their failures on the orders
 * channel with the request's data echoed. errorEventFor builds the answer to any failed frame.
 *
 * Venue → client: VenueMessageSchema parses every event a client can receive.
 *
 * Market data (the venue contract's extension; docs/api.md describes the flow):
 * - level2: a `snapshot` of the best 50 levels of each side on subscribe, then `l2update` events with the
 *   absolute new size of each changed level in that window (size "0": the level is gone or left the window).
 *   `sequence` counts per product and the REST order book carries the same counter; a client that sees a gap
 *   subscribes again.
 * - trades: `update` events with the product's new trades, oldest first.
 * - ticker: one `update` on subscribe and one whenever the last price or the best bid or ask changes.
 * - candles: a `snapshot` of up to the last 60 one-minute candles on subscribe, then an `update` whenever the
 *   current candle changes; a candle with a later `start` means the previous one closed.
 */

import { z } from 'zod';
import { apiError, wsCode, type ApiError, type WsErrorCode } from '../errors/api-error';
import { selectOrder, type OrderSelector } from './queries';
import { findProduct } from './products';
import { BookLevelSchema, PublicTradeSchema, WsOrderSchema } from './records';
import { shapeError } from './shape';
import { unknownProduct } from './orders';

export const MARKET_DATA_CHANNELS = ['level2', 'trades', 'ticker', 'candles'] as const;
export type MarketDataChannel = (typeof MARKET_DATA_CHANNELS)[number];
export const CHANNELS = ['orders', ...MARKET_DATA_CHANNELS] as const;
export type Channel = (typeof CHANNELS)[number];

export const CLIENT_OPS = ['auth', 'sub', 'unsub', 'create_order', 'cancel_order', 'ping'] as const;
export type ClientOp = (typeof CLIENT_OPS)[number];

const MAX_REQUEST_ID = 64;

/** The text an `auth` signature signs: lowercase hex HMAC-SHA256 of this, keyed with the API secret. */
export function authSignaturePayload(key: string, timestamp: number): string {
  return `${key},${timestamp}`;
}

// ---- Client → venue

export type ClientMessage =
  | {
      readonly op: 'auth';
      readonly requestId?: string;
      readonly key: string;
      /** UNIX seconds. */
      readonly timestamp: number;
      readonly signature: string;
    }
  | {
      readonly op: 'sub' | 'unsub';
      readonly requestId?: string;
      readonly channel: Channel;
      /** Market-data channels only: which products; empty for orders. */
      readonly productIds: readonly string[];
    }
  /** `data` is parsed by parseWsCreateOrder / parseWsCancelOrder. */
  | { readonly op: 'create_order' | 'cancel_order'; readonly requestId?: string; readonly data: unknown }
  | { readonly op: 'ping'; readonly requestId?: string };

const EnvelopeShape = z.object({ op: z.string(), request_id: z.string().max(MAX_REQUEST_ID).nullish() });

const AuthDataShape = z.object({
  key: z.string().min(1).max(128),
  timestamp: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  signature: z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits'),
});
const AuthShape = z.object({ data: AuthDataShape });

const SubShape = z.object({
  channel: z.enum(CHANNELS, { error: `expected one of ${CHANNELS.join(', ')}` }),
  product_ids: z.array(z.string()).nullish(),
});

/** Never throws: any JSON value gives a message or an ApiError (answer it with errorEventFor). */
export function parseClientMessage(frame: unknown): ClientMessage | ApiError {
  const envelope = EnvelopeShape.safeParse(frame);
  if (!envelope.success) return shapeError(envelope.error, frame, 'message');
  const { op } = envelope.data;
  const requestId = envelope.data.request_id ?? undefined;
  const withId = requestId === undefined ? {} : { requestId };
  switch (op) {
    case 'auth': {
      const auth = AuthShape.safeParse(frame);
      if (!auth.success) return shapeError(auth.error, frame, 'message');
      return { op, ...withId, ...auth.data.data };
    }
    case 'sub':
    case 'unsub': {
      const sub = SubShape.safeParse(frame);
      if (!sub.success) return shapeError(sub.error, frame, 'message');
      const { channel } = sub.data;
      const productIds = [...new Set(sub.data.product_ids ?? [])];
      if (channel === 'orders') {
        if (productIds.length > 0) return apiError('E0101_InvalidArgument', 'product_ids: not used by the orders channel');
      } else {
        if (productIds.length === 0) return apiError('E0101_InvalidArgument', `product_ids: required for the ${channel} channel`);
        for (const id of productIds) if (findProduct(id) === undefined) return unknownProduct('product_ids', id);
      }
      return { op, ...withId, channel, productIds };
    }
    case 'create_order':
    case 'cancel_order':
      return { op, ...withId, data: (frame as { data?: unknown }).data };
    case 'ping':
      return { op, ...withId };
    default:
      return apiError('E0101_InvalidArgument', `op: must be one of ${CLIENT_OPS.join(', ')}`);
  }
}

const CancelDataShape = z.object({ order_id: z.string().nullish(), client_order_id: z.string().nullish() });

/** cancel_order data: exactly one of order_id and client_order_id. */
export function parseWsCancelOrder(data: unknown): OrderSelector | ApiError {
  const shape = CancelDataShape.safeParse(data);
  if (!shape.success) return shapeError(shape.error, data, 'data');
  return selectOrder(shape.data.order_id ?? undefined, shape.data.client_order_id ?? undefined);
}

// ---- Venue → client

const text = z.string();
const requestIdField = z.string().optional();

export const AuthenticatedEventSchema = z.object({
  channel: z.literal('auth'),
  type: z.literal('authenticated'),
  request_id: requestIdField,
});

/** Sent after every successful sub or unsub: the connection's subscriptions as they now stand. */
export const SubscriptionsEventSchema = z.object({
  channel: z.literal('subscriptions'),
  type: z.literal('update'),
  request_id: requestIdField,
  subscriptions: z.array(z.object({ channel: text, product_ids: z.array(text) })),
});

export const PongEventSchema = z.object({ channel: z.literal('heartbeat'), type: z.literal('pong'), request_id: requestIdField });

export const OrderUpdateEventSchema = z.object({
  channel: z.literal('orders'),
  type: z.literal('update'),
  data: z.array(WsOrderSchema),
});

/**
 * Any failed frame. On the orders channel (create_order, cancel_order) `data` echoes the request's data, as
 * the interface shows; `message` is "E0201_InsufficientBalance: ..." so the client can recover the reference.
 * `channel` is the operation's channel: auth, orders, the channel of a sub or unsub, or "system" for a frame
 * that named no operation.
 */
export const ErrorEventSchema = z.object({
  channel: text,
  type: z.literal('error'),
  request_id: requestIdField,
  message: text,
  code: z.number().int(),
  data: z.unknown().optional(),
});

export const Level2SnapshotEventSchema = z.object({
  channel: z.literal('level2'),
  type: z.literal('snapshot'),
  product_id: text,
  sequence: z.number().int().nonnegative(),
  time: text,
  bids: z.array(BookLevelSchema),
  asks: z.array(BookLevelSchema),
});

export const Level2ChangeSchema = z.object({
  side: z.enum(['bid', 'ask']),
  price: text,
  /** The level's new total size; "0" removes it. */
  size: text,
  order_count: z.number().int().nonnegative(),
});

export const Level2UpdateEventSchema = z.object({
  channel: z.literal('level2'),
  type: z.literal('l2update'),
  product_id: text,
  sequence: z.number().int().nonnegative(),
  time: text,
  changes: z.array(Level2ChangeSchema),
});

export const TradesEventSchema = z.object({
  channel: z.literal('trades'),
  type: z.literal('update'),
  product_id: text,
  data: z.array(PublicTradeSchema),
});

/** Prices are '' while the product has no trade or that side of the book is empty. */
export const TickerEventSchema = z.object({
  channel: z.literal('ticker'),
  type: z.literal('update'),
  product_id: text,
  price: text,
  best_bid: text,
  best_bid_size: text,
  best_ask: text,
  best_ask_size: text,
  open_24h: text,
  high_24h: text,
  low_24h: text,
  volume_24h: text,
  time: text,
});

export const CandleSchema = z.object({
  /** UNIX nanoseconds of the minute's start. */
  start: text,
  open: text,
  high: text,
  low: text,
  close: text,
  volume: text,
});

export const CandlesEventSchema = z.object({
  channel: z.literal('candles'),
  type: z.enum(['snapshot', 'update']),
  product_id: text,
  /** Oldest first. */
  candles: z.array(CandleSchema),
});

export const VenueMessageSchema = z.union([
  AuthenticatedEventSchema,
  SubscriptionsEventSchema,
  PongEventSchema,
  OrderUpdateEventSchema,
  ErrorEventSchema,
  Level2SnapshotEventSchema,
  Level2UpdateEventSchema,
  TradesEventSchema,
  TickerEventSchema,
  CandlesEventSchema,
]);

export type AuthenticatedEvent = z.infer<typeof AuthenticatedEventSchema>;
export type SubscriptionsEvent = z.infer<typeof SubscriptionsEventSchema>;
export type PongEvent = z.infer<typeof PongEventSchema>;
export type OrderUpdateEvent = z.infer<typeof OrderUpdateEventSchema>;
export type ErrorEvent = z.infer<typeof ErrorEventSchema> & { readonly code: WsErrorCode };
export type Level2SnapshotEvent = z.infer<typeof Level2SnapshotEventSchema>;
export type Level2Change = z.infer<typeof Level2ChangeSchema>;
export type Level2UpdateEvent = z.infer<typeof Level2UpdateEventSchema>;
export type TradesEvent = z.infer<typeof TradesEventSchema>;
export type TickerEvent = z.infer<typeof TickerEventSchema>;
export type Candle = z.infer<typeof CandleSchema>;
export type CandlesEvent = z.infer<typeof CandlesEventSchema>;
export type VenueMessage = z.infer<typeof VenueMessageSchema>;

function field(frame: unknown, name: string): unknown {
  return typeof frame === 'object' && frame !== null && Object.hasOwn(frame, name)
    ? (frame as Record<string, unknown>)[name]
    : undefined;
}

/**
 * The error event answering `frame` (any JSON value the client sent) with `err`, whichever stage refused it:
 * the envelope, the operation's data, authentication, or the engine.
 */
export function errorEventFor(frame: unknown, err: ApiError): ErrorEvent {
  const op = field(frame, 'op');
  const rawId = field(frame, 'request_id');
  const requestId = typeof rawId === 'string' && rawId.length <= MAX_REQUEST_ID ? rawId : undefined;
  const base = {
    type: 'error' as const,
    ...(requestId !== undefined && { request_id: requestId }),
    message: err.message,
    code: wsCode(err.ref),
  };
  if (op === 'create_order' || op === 'cancel_order') return { channel: 'orders', ...base, data: field(frame, 'data') };
  if (op === 'auth') return { channel: 'auth', ...base };
  if (op === 'sub' || op === 'unsub') {
    const channel = field(frame, 'channel');
    const known = typeof channel === 'string' && (CHANNELS as readonly string[]).includes(channel);
    return { channel: known ? channel : 'subscriptions', ...base };
  }
  return { channel: 'system', ...base };
}
