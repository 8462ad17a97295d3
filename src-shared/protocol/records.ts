/**
 * The records the venue answers with, as zod schemas a client parses responses with and as the types the
 * venue builds them from. Every amount, price, size, fee and timestamp is a string (timestamps are UNIX
 * nanoseconds); post_only is a string holding a boolean (interface 2.1).
 *
 * The schemas are written for a client that also talks to the development and production environments:
 * unknown fields are dropped rather than refused, and enumerated words the interface says may grow (statuses,
 * sides, types) parse as any string while their type still lists the known words.
 */

import { z } from 'zod';
import {
  DONE_REASONS,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  REST_STP_MODES,
  STOP_TYPES,
  TIMES_IN_FORCE,
  WS_ORDER_STATUSES,
} from './vocabulary';
import { ERROR_CATEGORIES } from '../errors/catalogue';

/** A string whose known values are T; others still parse, so a newer venue does not break the client. */
function openEnum<const T extends readonly string[]>(known: T): z.ZodType<T[number] | (string & {})> {
  return z.string().describe(`known values: ${known.join(', ')}`);
}

const text = z.string();

// ---- Order (2.1) and its trades (2.2)

export const OrderTradeSchema = z.object({
  id: text,
  price: text,
  size: text,
  /** MAKER when this order was the resting side, TAKER otherwise. */
  liquidity_indicator: openEnum(['MAKER', 'TAKER'] as const),
  time: text,
  fee_asset: text,
  fee_amount: text,
});
export type OrderTrade = z.infer<typeof OrderTradeSchema>;

export const OrderSchema = z.object({
  order_id: text,
  client_order_id: text,
  user_id: text,
  status: openEnum(ORDER_STATUSES),
  /** '' until the order is DONE. */
  done_reason: openEnum(['', ...DONE_REASONS] as const),
  product_id: text,
  side: openEnum(ORDER_SIDES),
  type: openEnum(ORDER_TYPES),
  time_in_force: openEnum(TIMES_IN_FORCE),
  post_only: z.enum(['true', 'false']),
  stp: openEnum(REST_STP_MODES),
  limit_price: text,
  base_size: text,
  quote_size: text,
  exact_quote_size: text,
  average_fill_price: text,
  filled_base_size: text,
  filled_quote_size: text,
  maker_fee_rate: text,
  taker_fee_rate: text,
  fee_asset_id: text,
  created_at: text,
  updated_at: text,
  /** '0' until a cancel is requested. */
  cancel_requested_at: text,
  /** '0' when the order does not expire. */
  expired_at: text,
  /** '0' when the order was not scheduled. */
  scheduled_at: text,
  trades: z.array(OrderTradeSchema),
  // This venue's additions, optional so that records of venues without them still parse.
  /** The reference that ended the order early (e.g. E0201_InsufficientBalance on a REJECTED order), else ''. */
  reject_reason: text.optional(),
  order_stop_type: openEnum(STOP_TYPES).optional(),
  /** '0' unless a STOP order. */
  stop_trigger_price: text.optional(),
  /** Fees charged so far, in fee_asset_id. */
  fee_total: text.optional(),
});
export type Order = z.infer<typeof OrderSchema>;

/**
 * An order in a WebSocket `update`. The interface shows only id, client_order_id, status and
 * cancel_requested_at; this venue sends the REST record's other fields too, with the id named `id` and the
 * status in the WebSocket's lowercase words.
 */
export const WsOrderSchema = OrderSchema.omit({ order_id: true, status: true })
  .partial()
  .extend({
    id: text,
    client_order_id: text,
    status: openEnum(WS_ORDER_STATUSES),
    /** On the connection that sent the create_order or cancel_order this update answers: its request_id. */
    request_id: text.optional(),
  });
export type WsOrder = z.infer<typeof WsOrderSchema>;

// ---- Account (2.3)

export const AssetBalanceSchema = z.object({ asset: text, balance: text, free: text, locked: text });
export type AssetBalance = z.infer<typeof AssetBalanceSchema>;

export const AccountSchema = z.object({
  id: text,
  maker_fee_rate: text,
  taker_fee_rate: text,
  asset_balances: z.array(AssetBalanceSchema),
  stats: z.object({
    order_stats: z.object({
      total_orders: text,
      total_done_orders: text,
      total_open_orders: text,
      total_pending_orders: text,
      total_accepted_orders: text,
    }),
    trading_stats: z.object({ total_trading_volume: text }),
  }),
});
export type Account = z.infer<typeof AccountSchema>;

// ---- API key (2.4)

export const ApiKeySchema = z.object({
  api_key: text,
  /** Present only in the answer that created the key. */
  api_secret: text.optional(),
  name: text,
  created_at: text,
  /** '0' when the key does not expire. */
  expired_at: text,
  is_read_only: z.boolean(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

// ---- Error-code record (2.5)

export const ErrorCodeSchema = z.object({
  ref: text,
  code: text,
  category: openEnum(ERROR_CATEGORIES),
  grpc_code: text,
  title: text,
  message: text,
  action: openEnum(['retry', 'redirect_login', 'contact_support', 'none'] as const),
  severity: openEnum(['error', 'warning', 'info'] as const),
  retry_allowed: z.boolean(),
  http_status: z.number().int(),
});
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

// ---- Public records (venue contract)

export const ProductSchema = z.object({
  id: text,
  base_asset_id: text,
  quote_asset_id: text,
  price_increment: text,
  size_increment: text,
  min_size: text,
  max_size: text,
  min_notional: text,
  /** "online" while the product trades. */
  status: openEnum(['online', 'offline'] as const),
  /** This venue's addition: the largest price it accepts. */
  max_price: text.optional(),
});
export type Product = z.infer<typeof ProductSchema>;

export const AssetSchema = z.object({ id: text, name: text, decimals: z.number().int().nonnegative() });
export type Asset = z.infer<typeof AssetSchema>;

export const BookLevelSchema = z.object({ price: text, size: text, order_count: z.number().int().nonnegative() });
export type BookLevel = z.infer<typeof BookLevelSchema>;

export const OrderBookSchema = z.object({
  product_id: text,
  /**
   * The product's book sequence: the same counter the WebSocket level2 channel carries. A JSON integer; a
   * digit string is read too, so a venue that quotes it still parses.
   */
  sequence: z.union([z.number().int().nonnegative(), z.string().regex(/^[0-9]{1,15}$/).transform(Number)]),
  time: text,
  /** Best (highest) first. */
  bids: z.array(BookLevelSchema),
  /** Best (lowest) first. */
  asks: z.array(BookLevelSchema),
});
export type OrderBook = z.infer<typeof OrderBookSchema>;

export const PublicTradeSchema = z.object({
  id: text,
  product_id: text,
  price: text,
  size: text,
  /** The taker's side. */
  side: openEnum(ORDER_SIDES),
  time: text,
});
export type PublicTrade = z.infer<typeof PublicTradeSchema>;

// ---- Response bodies

export const OrderResponseSchema = z.object({ order: OrderSchema });
export const OrdersResponseSchema = z.object({ orders: z.array(OrderSchema) });

const OrderRefSchema = z.object({ id: text, client_order_id: text });
export const BulkCancelResponseSchema = z.object({
  cancel_requested_orders: z.array(OrderRefSchema),
  not_opened_orders: z.array(OrderRefSchema),
  already_cancel_requested_orders: z.array(OrderRefSchema),
});
export type BulkCancelResponse = z.infer<typeof BulkCancelResponseSchema>;

/** Interface 4.6 names the id `order_id` here, unlike the bulk cancel's `id`. */
export const CancelAllResponseSchema = z.object({
  cancel_requested_orders: z.array(z.object({ order_id: text, client_order_id: text })),
});
export type CancelAllResponse = z.infer<typeof CancelAllResponseSchema>;

export const AccountResponseSchema = z.object({ account: AccountSchema });
export const ApiKeyResponseSchema = z.object({ api_key: ApiKeySchema });
export const ErrorCodesResponseSchema = z.object({ data: z.object({ errors: z.array(ErrorCodeSchema) }) });
export const ProductsResponseSchema = z.object({ products: z.array(ProductSchema) });
export const OrderBookResponseSchema = z.object({ orderbook: OrderBookSchema });
export const TradesResponseSchema = z.object({ trades: z.array(PublicTradeSchema) });
export const AssetsResponseSchema = z.object({ assets: z.array(AssetSchema) });

/** POST /sim/users. */
export const SimUserResponseSchema = z.object({ user_id: text, api_key: ApiKeySchema });
/** POST /sim/deposit. */
export const SimDepositResponseSchema = AccountResponseSchema;

/** The interface's error object (7.1, first shape): what this venue sends. */
export const ErrorResponseSchema = z.object({ error: z.object({ code: text, message: text }) });
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** The interface's generic error response (7.1, second shape), which other environments may send. */
export const GenericErrorResponseSchema = z.object({
  code: z.number().int(),
  message: text,
  details: z.array(z.looseObject({ '@type': text })).optional(),
});
export type GenericErrorResponse = z.infer<typeof GenericErrorResponseSchema>;
