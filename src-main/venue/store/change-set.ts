/**
 * Change sets, and the form they are kept in between commit() and the tables: one tuple of column values per
 * row, in the column order of the table's INSERT. An int64 column (balances in atoms, nanosecond timestamps)
 * holds the caller's bigint when captured (bigints are immutable, so keeping the reference keeps the value) and
 * its decimal text once in the journal (JSON has no bigint); SQLite writes either as the same INTEGER (STRICT
 * tables convert integer text losslessly). Blobs are hex.
 *
 * Capturing a row checks everything SQLite would check of it alone (types, int64 range, NOT NULL, CHECKs): once
 * a batch is in the journal it has been acknowledged, so a row the tables would refuse must be refused here.
 */
import type { ApiKeyRow, BalanceRow, CandleRow, OrderRow, TradeRow, UserRow } from './rows';
import { SECRET_HASH_BYTES } from './rows';

/** Everything one step of the venue changed. Every row is an upsert by primary key, except trades (insert). */
export interface ChangeSet {
  users?: UserRow[];
  apiKeys?: ApiKeyRow[];
  balances?: BalanceRow[];
  orders?: OrderRow[];
  trades?: TradeRow[];
  /** Candles the trades changed, so a restart has the day's chart and ticker figures. */
  candles?: CandleRow[];
  meta?: Record<string, string>;
}

/** An int64: a bigint when captured, its decimal text once written to the journal. */
export type Int64 = bigint | string;

export type UserTuple = [
  id: string,
  number: number,
  isAdmin: number,
  makerFeeRate: string,
  takerFeeRate: string,
  createdAt: Int64,
  totalOrders: Int64,
  totalDoneOrders: Int64,
  totalAcceptedOrders: Int64,
  tradingVolume: string,
];

export type ApiKeyTuple = [
  apiKey: string,
  userId: string,
  secretHashHex: string,
  secretNonceHex: string,
  name: string,
  createdAt: Int64,
  expiredAt: Int64 | null,
  isReadOnly: number,
  revoked: number,
];

export type BalanceTuple = [userId: string, asset: string, free: Int64, locked: Int64];

/**
 * An order row: the columns the venue's reads filter, sort or look up by, and `details`, every other field as
 * one JSON array (ORDER_DETAIL_COLUMNS). Binding 33 values made each order row cost SQLite about 9 µs on
 * this machine; nine cost about 5.5 (bench/store.ts measures it).
 */
export type OrderTuple = [
  seq: number,
  orderId: string,
  userId: string,
  clientOrderId: string,
  productId: string,
  status: string,
  createdAt: Int64,
  updatedAt: Int64,
  details: string,
];

export type TradeTuple = [
  seq: number,
  id: string,
  productId: string,
  price: string,
  size: string,
  takerSide: string,
  makerOrderId: string,
  takerOrderId: string,
  makerUserId: string,
  takerUserId: string,
  makerFee: string,
  takerFee: string,
  time: Int64,
];

export type CandleTuple = [productId: string, start: Int64, open: string, high: string, low: string, close: string, volume: string];

export type MetaTuple = [key: string, value: string];

/** A change set as captured at commit(): later changes to the caller's rows do not reach it. */
export interface CapturedChangeSet {
  users: readonly UserTuple[];
  apiKeys: readonly ApiKeyTuple[];
  balances: readonly BalanceTuple[];
  orders: readonly OrderTuple[];
  trades: readonly TradeTuple[];
  candles: readonly CandleTuple[];
  meta: readonly MetaTuple[];
}

export const USER_COLUMNS = [
  'id', 'number', 'is_admin', 'maker_fee_rate', 'taker_fee_rate', 'created_at',
  'total_orders', 'total_done_orders', 'total_accepted_orders', 'trading_volume',
] as const;

export const API_KEY_COLUMNS = [
  'api_key', 'user_id', 'secret_hash', 'secret_nonce', 'name', 'created_at', 'expired_at', 'is_read_only', 'revoked',
] as const;

export const BALANCE_COLUMNS = ['user_id', 'asset', 'free', 'locked'] as const;

export const ORDER_COLUMNS = [
  'seq', 'order_id', 'user_id', 'client_order_id', 'product_id', 'status', 'created_at', 'updated_at', 'details',
] as const;

export const TRADE_COLUMNS = [
  'seq', 'id', 'product_id', 'price', 'size', 'taker_side', 'maker_order_id', 'taker_order_id',
  'maker_user_id', 'taker_user_id', 'maker_fee', 'taker_fee', 'time',
] as const;

export const CANDLE_COLUMNS = ['product_id', 'start', 'open', 'high', 'low', 'close', 'volume'] as const;

/** Positional placeholders; `wrap` rewrites one column's placeholder (e.g. `unhex(?)`). */
function placeholders(columns: readonly string[], wrap: Partial<Record<string, string>> = {}): string {
  return columns.map((c) => wrap[c] ?? '?').join(', ');
}

export function insertSql(table: string, columns: readonly string[], wrap?: Partial<Record<string, string>>): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders(columns, wrap)})`;
}

/** `INSERT ... ON CONFLICT (key) DO UPDATE` of every column but the key: an update in place, never a delete. */
export function upsertSql(table: string, columns: readonly string[], key: readonly string[], wrap?: Partial<Record<string, string>>): string {
  const updated = columns.filter((c) => !key.includes(c));
  return (
    `${insertSql(table, columns, wrap)} ` +
    `ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${updated.map((c) => `${c} = excluded.${c}`).join(', ')}`
  );
}

/** A plain insert of one order tuple: the floor that bench/store.ts measures the store against. */
export const ORDER_INSERT_SQL = insertSql('orders', ORDER_COLUMNS);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A row the tables would refuse. The message names the table, the row and the column, never the value. */
function refuse(table: string, row: string, column: string, expected: string): never {
  throw new Error(`could not write ${table} row ${row}: column ${column} should be ${expected}`);
}

function text(value: string, table: string, row: string, column: string): string {
  return typeof value === 'string' ? value : refuse(table, row, column, 'text');
}

function safeInt(value: number, table: string, row: string, column: string): number {
  return Number.isSafeInteger(value) ? value : refuse(table, row, column, 'a safe integer');
}

function int64(value: bigint, table: string, row: string, column: string): bigint {
  return typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX
    ? value
    : refuse(table, row, column, 'an integer that fits in 64 bits');
}

function int64OrNull(value: bigint | null, table: string, row: string, column: string): bigint | null {
  return value === null ? null : int64(value, table, row, column);
}

/** A bigint kept as decimal text because it may outgrow int64. */
function bigText(value: bigint, table: string, row: string, column: string): string {
  return typeof value === 'bigint' ? value.toString() : refuse(table, row, column, 'an integer');
}

function bit(value: boolean, table: string, row: string, column: string): number {
  return value === true ? 1 : value === false ? 0 : refuse(table, row, column, 'a boolean');
}

function hex(value: Buffer, table: string, row: string, column: string, length?: number): string {
  return Buffer.isBuffer(value) && (length === undefined || value.length === length)
    ? value.toString('hex')
    : refuse(table, row, column, length === undefined ? 'a blob' : `a blob of ${length} bytes`);
}

/** The key a row is named by in errors, checked first so that every later message can name it. */
function key(value: string, table: string, column: string): string {
  return typeof value === 'string' ? value : refuse(table, '(unnamed)', column, 'text');
}

function captureUser(u: UserRow): UserTuple {
  const t = 'users';
  const id = key(u.id, t, 'id');
  return [
    id,
    safeInt(u.number, t, id, 'number'),
    bit(u.isAdmin, t, id, 'is_admin'),
    text(u.makerFeeRate, t, id, 'maker_fee_rate'),
    text(u.takerFeeRate, t, id, 'taker_fee_rate'),
    int64(u.createdAt, t, id, 'created_at'),
    int64(u.totalOrders, t, id, 'total_orders'),
    int64(u.totalDoneOrders, t, id, 'total_done_orders'),
    int64(u.totalAcceptedOrders, t, id, 'total_accepted_orders'),
    bigText(u.tradingVolume, t, id, 'trading_volume'),
  ];
}

function captureApiKey(k: ApiKeyRow): ApiKeyTuple {
  const t = 'api_keys';
  // An API key is a credential's name: it is left out of error messages, which name the owner instead.
  const row = `of user ${String(k.userId)}`;
  return [
    text(k.apiKey, t, row, 'api_key'),
    text(k.userId, t, row, 'user_id'),
    hex(k.secretHash, t, row, 'secret_hash', SECRET_HASH_BYTES),
    hex(k.secretNonce, t, row, 'secret_nonce'),
    text(k.name, t, row, 'name'),
    int64(k.createdAt, t, row, 'created_at'),
    int64OrNull(k.expiredAt, t, row, 'expired_at'),
    bit(k.isReadOnly, t, row, 'is_read_only'),
    bit(k.revoked, t, row, 'revoked'),
  ];
}

function captureBalance(b: BalanceRow): BalanceTuple {
  const t = 'balances';
  const row = `${key(b.userId, t, 'user_id')} ${key(b.asset, t, 'asset')}`;
  return [b.userId, b.asset, int64(b.free, t, row, 'free'), int64(b.locked, t, row, 'locked')];
}

export function captureOrder(o: OrderRow): OrderTuple {
  const t = 'orders';
  const id = key(o.orderId, t, 'order_id');
  const details = [
    text(o.side, t, id, 'side'),
    text(o.type, t, id, 'type'),
    text(o.timeInForce, t, id, 'time_in_force'),
    bit(o.postOnly, t, id, 'post_only'),
    text(o.stp, t, id, 'stp'),
    text(o.stopType, t, id, 'stop_type'),
    text(o.limitPrice, t, id, 'limit_price'),
    text(o.baseSize, t, id, 'base_size'),
    text(o.quoteSize, t, id, 'quote_size'),
    text(o.exactQuoteSize, t, id, 'exact_quote_size'),
    text(o.stopTriggerPrice, t, id, 'stop_trigger_price'),
    text(o.doneReason, t, id, 'done_reason'),
    text(o.rejectReason, t, id, 'reject_reason'),
    text(o.filledBaseSize, t, id, 'filled_base_size'),
    text(o.filledQuoteSize, t, id, 'filled_quote_size'),
    text(o.feeTotal, t, id, 'fee_total'),
    text(o.makerFeeRate, t, id, 'maker_fee_rate'),
    text(o.takerFeeRate, t, id, 'taker_fee_rate'),
    safeInt(o.restingLots, t, id, 'resting_lots'),
    text(o.holdAsset, t, id, 'hold_asset'),
    int64(o.holdRemaining, t, id, 'hold_remaining').toString(),
    int64OrNull(o.cancelRequestedAt, t, id, 'cancel_requested_at')?.toString() ?? null,
    int64OrNull(o.expiredAt, t, id, 'expired_at')?.toString() ?? null,
    int64OrNull(o.scheduledAt, t, id, 'scheduled_at')?.toString() ?? null,
    text(o.twapState, t, id, 'twap_state'),
  ];
  return [
    safeInt(o.seq, t, id, 'seq'),
    id,
    text(o.userId, t, id, 'user_id'),
    text(o.clientOrderId, t, id, 'client_order_id'),
    text(o.productId, t, id, 'product_id'),
    text(o.status, t, id, 'status'),
    int64(o.createdAt, t, id, 'created_at'),
    int64(o.updatedAt, t, id, 'updated_at'),
    JSON.stringify(details),
  ];
}

function captureTrade(tr: TradeRow): TradeTuple {
  const t = 'trades';
  const id = key(tr.id, t, 'id');
  return [
    safeInt(tr.seq, t, id, 'seq'),
    id,
    text(tr.productId, t, id, 'product_id'),
    text(tr.price, t, id, 'price'),
    text(tr.size, t, id, 'size'),
    text(tr.takerSide, t, id, 'taker_side'),
    text(tr.makerOrderId, t, id, 'maker_order_id'),
    text(tr.takerOrderId, t, id, 'taker_order_id'),
    text(tr.makerUserId, t, id, 'maker_user_id'),
    text(tr.takerUserId, t, id, 'taker_user_id'),
    text(tr.makerFee, t, id, 'maker_fee'),
    text(tr.takerFee, t, id, 'taker_fee'),
    int64(tr.time, t, id, 'time'),
  ];
}

function captureCandle(c: CandleRow): CandleTuple {
  const t = 'candles';
  const row = `${key(c.productId, t, 'product_id')} ${String(c.start)}`;
  return [
    c.productId,
    int64(c.start, t, row, 'start'),
    text(c.open, t, row, 'open'),
    text(c.high, t, row, 'high'),
    text(c.low, t, row, 'low'),
    text(c.close, t, row, 'close'),
    text(c.volume, t, row, 'volume'),
  ];
}

const NONE: readonly never[] = [];

/** Copies the change set's values as they are now; throws, naming the row, if the tables would refuse one. */
export function captureChangeSet(changes: ChangeSet): CapturedChangeSet {
  return {
    users: changes.users?.map(captureUser) ?? NONE,
    apiKeys: changes.apiKeys?.map(captureApiKey) ?? NONE,
    balances: changes.balances?.map(captureBalance) ?? NONE,
    orders: changes.orders?.map(captureOrder) ?? NONE,
    trades: changes.trades?.map(captureTrade) ?? NONE,
    candles: changes.candles?.map(captureCandle) ?? NONE,
    meta:
      changes.meta === undefined
        ? NONE
        : Object.entries(changes.meta).map(([k, v]): MetaTuple => [k, text(v, 'meta', k, 'value')]),
  };
}
