/**
 * What the venue keeps in SQLite, one interface per table, and the one function per table that turns a row
 * read from SQLite (of unknown shape) into it. A malformed row is a thrown Error naming the table and column,
 * never a silent default (ARCHITECTURE rule 4).
 *
 * SQL names are snake_case, TS names camelCase. The connection reads every INTEGER as a bigint
 * (`defaultSafeIntegers`), so int64 values (balances in atoms, nanosecond timestamps) arrive exactly; columns
 * that are typed `number` here are checked to be safe integers.
 */

export type Side = 'BUY' | 'SELL';
export type OrderType = 'LIMIT' | 'MARKET' | 'STOP' | 'TWAP';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK' | 'GTT';
export type OrderStatus = 'SUBMITTED' | 'ACTIVE' | 'DONE' | 'SCHEDULED';
export type DoneReason = '' | 'FILLED' | 'CANCELED' | 'EXPIRED' | 'REJECTED';

export interface UserRow {
  id: string;
  /** The engine's account number, compared for self-trade prevention. */
  number: number;
  isAdmin: boolean;
  makerFeeRate: string;
  takerFeeRate: string;
  createdAt: bigint;
  totalOrders: bigint;
  totalDoneOrders: bigint;
  totalAcceptedOrders: bigint;
  /**
   * Traded notional in quote atoms. Stored as a decimal integer in a TEXT column, not an int64, because it
   * only ever grows and a busy simulated user could pass 2^63 VND atoms; an overflow would fail a whole batch.
   */
  tradingVolume: bigint;
}

export interface ApiKeyRow {
  apiKey: string;
  userId: string;
  /** Hash of the API secret; the secret itself is never stored (ARCHITECTURE rule 5). 32 bytes. */
  secretHash: Buffer;
  secretNonce: Buffer;
  name: string;
  createdAt: bigint;
  expiredAt: bigint | null;
  isReadOnly: boolean;
  revoked: boolean;
}

export interface BalanceRow {
  userId: string;
  asset: string;
  free: bigint;
  locked: bigint;
}

export interface OrderRow {
  orderId: string;
  /** The engine's priority number: unique and increasing in arrival order. */
  seq: number;
  userId: string;
  /** '' when the client gave none. */
  clientOrderId: string;
  productId: string;
  side: Side;
  type: OrderType;
  timeInForce: TimeInForce;
  postOnly: boolean;
  stp: string;
  stopType: string;
  /** Decimal strings; '0' when unused. */
  limitPrice: string;
  baseSize: string;
  quoteSize: string;
  exactQuoteSize: string;
  stopTriggerPrice: string;
  status: OrderStatus;
  doneReason: DoneReason;
  /** Error reference of a rejection (e.g. 'E0201_InsufficientBalance'), or ''. */
  rejectReason: string;
  filledBaseSize: string;
  filledQuoteSize: string;
  feeTotal: string;
  makerFeeRate: string;
  takerFeeRate: string;
  /** Lots still resting on the book. */
  restingLots: number;
  holdAsset: string;
  holdRemaining: bigint;
  createdAt: bigint;
  updatedAt: bigint;
  cancelRequestedAt: bigint | null;
  expiredAt: bigint | null;
  scheduledAt: bigint | null;
  /** JSON bookkeeping of a TWAP order, or ''. */
  twapState: string;
}

export interface TradeRow {
  id: string;
  /** Venue-wide trade number, increasing with time. */
  seq: number;
  productId: string;
  price: string;
  size: string;
  takerSide: Side;
  makerOrderId: string;
  takerOrderId: string;
  makerUserId: string;
  takerUserId: string;
  makerFee: string;
  takerFee: string;
  time: bigint;
}

/**
 * What an order's `details` array holds, in order. int64 values are decimal text (JSON numbers stop being
 * exact at 2^53) or null; post_only and resting_lots are numbers. Migration 5 builds the same array from the
 * columns it replaced, and captureOrder (change-set.ts) writes it.
 */
export const ORDER_DETAIL_COLUMNS = [
  'side', 'type', 'time_in_force', 'post_only', 'stp', 'stop_type', 'limit_price', 'base_size', 'quote_size',
  'exact_quote_size', 'stop_trigger_price', 'done_reason', 'reject_reason', 'filled_base_size', 'filled_quote_size',
  'fee_total', 'maker_fee_rate', 'taker_fee_rate', 'resting_lots', 'hold_asset', 'hold_remaining',
  'cancel_requested_at', 'expired_at', 'scheduled_at', 'twap_state',
] as const;

const SIDES: readonly Side[] = ['BUY', 'SELL'];
const ORDER_TYPES: readonly OrderType[] = ['LIMIT', 'MARKET', 'STOP', 'TWAP'];
const TIMES_IN_FORCE: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK', 'GTT'];
const ORDER_STATUSES: readonly OrderStatus[] = ['SUBMITTED', 'ACTIVE', 'DONE', 'SCHEDULED'];
const DONE_REASONS: readonly DoneReason[] = ['', 'FILLED', 'CANCELED', 'EXPIRED', 'REJECTED'];

const DECIMAL = /^-?\d+(\.\d+)?$/;
const UNSIGNED_INTEGER = /^\d+$/;
const INTEGER = /^-?\d+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Interned texts of shared(): as many as there are users, products, fee rates and such, never per order. */
const SHARED_TEXT = new Map<string, string>();

const NO_DETAILS: ReadonlyMap<string, number> = new Map();
/** Where each of an order's details sits in its array. */
const ORDER_DETAIL_INDEX: ReadonlyMap<string, number> = new Map(ORDER_DETAIL_COLUMNS.map((name, i) => [name, i]));

/** Reads the columns of one row of one table; every failure names both. Values are never echoed (they may be hashes). */
class Columns {
  private readonly row: Record<string, unknown>;
  /** Values of a details column (see withDetails), by name. */
  private details: unknown[] = [];
  private detailIndex: ReadonlyMap<string, number> = NO_DETAILS;

  constructor(
    private readonly table: string,
    raw: unknown,
  ) {
    if (typeof raw !== 'object' || raw === null) throw new Error(`malformed row in ${table}: not a row object`);
    this.row = raw as Record<string, unknown>;
  }

  /**
   * Reads the named values of a column that holds a JSON array of them (an order's details) as if each were a
   * column of its own: int64 values arrive as decimal text and small integers as numbers, and are checked the same.
   */
  withDetails(column: string, index: ReadonlyMap<string, number>): this {
    const text = this.row[column];
    if (typeof text !== 'string') return this.fail(column, 'text');
    let values: unknown;
    try {
      values = JSON.parse(text);
    } catch {
      return this.fail(column, 'JSON', false);
    }
    if (!Array.isArray(values) || values.length !== index.size) return this.fail(column, `a JSON array of ${index.size} values`, false);
    this.details = values;
    this.detailIndex = index;
    return this;
  }

  private value(column: string): unknown {
    if (this.detailIndex === NO_DETAILS) return this.row[column];
    const i = this.detailIndex.get(column);
    return i === undefined ? this.row[column] : this.details[i];
  }

  private fail(column: string, expected: string, saying = true): never {
    const value = this.value(column);
    const got = value === null ? 'null' : value === undefined ? 'nothing' : typeof value;
    throw new Error(`malformed row in ${this.table}: column ${column} should be ${expected}${saying ? `, got ${got}` : ''}`);
  }

  text(column: string): string {
    const value = this.value(column);
    return typeof value === 'string' ? value : this.fail(column, 'text');
  }

  decimal(column: string): string {
    const value = this.value(column);
    return typeof value === 'string' && DECIMAL.test(value) ? value : this.fail(column, 'a decimal string');
  }

  /**
   * Text that many rows repeat (a user id, a product, a fee rate): every row read gets the one shared copy
   * instead of its own, which is most of a restored order's strings when 100,000 of them rest.
   */
  shared(column: string, read: (column: string) => string = (c) => this.text(c)): string {
    const value = read(column);
    const known = SHARED_TEXT.get(value);
    if (known !== undefined) return known;
    SHARED_TEXT.set(value, value);
    return value;
  }

  /** One of the allowed values: the constant itself, so no row keeps a copy of its own. */
  oneOf<T extends string>(column: string, allowed: readonly T[]): T {
    const value = this.value(column);
    const known = typeof value === 'string' ? allowed.find((a) => a === value) : undefined;
    return known ?? this.fail(column, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`);
  }

  int64(column: string): bigint {
    const value = this.value(column);
    if (typeof value === 'bigint') return value;
    if (typeof value !== 'string' || !this.detailIndex.has(column) || !INTEGER.test(value)) return this.fail(column, 'an integer');
    // As an INTEGER column would: a value past int64 could never be written back.
    const parsed = BigInt(value);
    return parsed >= INT64_MIN && parsed <= INT64_MAX ? parsed : this.fail(column, 'an integer that fits in 64 bits');
  }

  int64OrNull(column: string): bigint | null {
    return this.value(column) === null ? null : this.int64(column);
  }

  /** A non-negative integer kept as decimal text because it may outgrow int64. */
  bigText(column: string): bigint {
    const value = this.value(column);
    return typeof value === 'string' && UNSIGNED_INTEGER.test(value) ? BigInt(value) : this.fail(column, 'a non-negative integer in text');
  }

  safeInt(column: string): number {
    const value = this.value(column);
    if (typeof value === 'bigint' && value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)) {
      return Number(value);
    }
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    return this.fail(column, 'a safe integer');
  }

  bool(column: string): boolean {
    const value = this.value(column);
    if (value === 0n || value === 0) return false;
    if (value === 1n || value === 1) return true;
    return this.fail(column, '0 or 1');
  }

  blob(column: string, length?: number): Buffer {
    const value = this.value(column);
    return Buffer.isBuffer(value) && (length === undefined || value.length === length)
      ? value
      : this.fail(column, length === undefined ? 'a blob' : `a blob of ${length} bytes`);
  }
}

export const SECRET_HASH_BYTES = 32;

export function userFromRow(raw: unknown): UserRow {
  const c = new Columns('users', raw);
  return {
    id: c.text('id'),
    number: c.safeInt('number'),
    isAdmin: c.bool('is_admin'),
    makerFeeRate: c.decimal('maker_fee_rate'),
    takerFeeRate: c.decimal('taker_fee_rate'),
    createdAt: c.int64('created_at'),
    totalOrders: c.int64('total_orders'),
    totalDoneOrders: c.int64('total_done_orders'),
    totalAcceptedOrders: c.int64('total_accepted_orders'),
    tradingVolume: c.bigText('trading_volume'),
  };
}

export function apiKeyFromRow(raw: unknown): ApiKeyRow {
  const c = new Columns('api_keys', raw);
  return {
    apiKey: c.text('api_key'),
    userId: c.text('user_id'),
    secretHash: c.blob('secret_hash', SECRET_HASH_BYTES),
    secretNonce: c.blob('secret_nonce'),
    name: c.text('name'),
    createdAt: c.int64('created_at'),
    expiredAt: c.int64OrNull('expired_at'),
    isReadOnly: c.bool('is_read_only'),
    revoked: c.bool('revoked'),
  };
}

export function balanceFromRow(raw: unknown): BalanceRow {
  const c = new Columns('balances', raw);
  return {
    userId: c.text('user_id'),
    asset: c.text('asset'),
    free: c.int64('free'),
    locked: c.int64('locked'),
  };
}

export function orderFromRow(raw: unknown): OrderRow {
  const c = new Columns('orders', raw).withDetails('details', ORDER_DETAIL_INDEX);
  return {
    orderId: c.text('order_id'),
    seq: c.safeInt('seq'),
    userId: c.shared('user_id'),
    clientOrderId: c.text('client_order_id'),
    productId: c.shared('product_id'),
    side: c.oneOf('side', SIDES),
    type: c.oneOf('type', ORDER_TYPES),
    timeInForce: c.oneOf('time_in_force', TIMES_IN_FORCE),
    postOnly: c.bool('post_only'),
    stp: c.shared('stp'),
    stopType: c.shared('stop_type'),
    limitPrice: c.decimal('limit_price'),
    baseSize: c.decimal('base_size'),
    quoteSize: c.decimal('quote_size'),
    exactQuoteSize: c.decimal('exact_quote_size'),
    stopTriggerPrice: c.decimal('stop_trigger_price'),
    status: c.oneOf('status', ORDER_STATUSES),
    doneReason: c.oneOf('done_reason', DONE_REASONS),
    rejectReason: c.shared('reject_reason'),
    filledBaseSize: c.decimal('filled_base_size'),
    filledQuoteSize: c.decimal('filled_quote_size'),
    feeTotal: c.decimal('fee_total'),
    makerFeeRate: c.shared('maker_fee_rate', (col) => c.decimal(col)),
    takerFeeRate: c.shared('taker_fee_rate', (col) => c.decimal(col)),
    restingLots: c.safeInt('resting_lots'),
    holdAsset: c.shared('hold_asset'),
    holdRemaining: c.int64('hold_remaining'),
    createdAt: c.int64('created_at'),
    updatedAt: c.int64('updated_at'),
    cancelRequestedAt: c.int64OrNull('cancel_requested_at'),
    expiredAt: c.int64OrNull('expired_at'),
    scheduledAt: c.int64OrNull('scheduled_at'),
    twapState: c.text('twap_state'),
  };
}

export function tradeFromRow(raw: unknown): TradeRow {
  const c = new Columns('trades', raw);
  return {
    id: c.text('id'),
    seq: c.safeInt('seq'),
    productId: c.shared('product_id'),
    price: c.decimal('price'),
    size: c.decimal('size'),
    takerSide: c.oneOf('taker_side', SIDES),
    makerOrderId: c.text('maker_order_id'),
    takerOrderId: c.text('taker_order_id'),
    makerUserId: c.shared('maker_user_id'),
    takerUserId: c.shared('taker_user_id'),
    makerFee: c.decimal('maker_fee'),
    takerFee: c.decimal('taker_fee'),
    time: c.int64('time'),
  };
}

/** One product's one-minute candle, as the candles channel shows it (see market-data/candles.ts). */
export interface CandleRow {
  productId: string;
  /** UNIX nanoseconds of the minute's start. */
  start: bigint;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

export function candleFromRow(raw: unknown): CandleRow {
  const c = new Columns('candles', raw);
  return {
    productId: c.shared('product_id'),
    start: c.int64('start'),
    open: c.decimal('open'),
    high: c.decimal('high'),
    low: c.decimal('low'),
    close: c.decimal('close'),
    volume: c.decimal('volume'),
  };
}

export function metaFromRow(raw: unknown): { key: string; value: string } {
  const c = new Columns('meta', raw);
  return { key: c.text('key'), value: c.text('value') };
}
