/**
 * Writing change sets: the prepared upserts of every table, and one batch of change sets applied as one
 * transaction by the group commit.
 */
import type Database from 'better-sqlite3';
import type { ApiKeyRow, BalanceRow, OrderRow, TradeRow, UserRow } from './rows';

/** Everything one step of the venue changed. Every row is an upsert by primary key, except trades (insert). */
export interface ChangeSet {
  users?: UserRow[];
  apiKeys?: ApiKeyRow[];
  balances?: BalanceRow[];
  orders?: OrderRow[];
  trades?: TradeRow[];
  meta?: Record<string, string>;
}

type Params = Record<string, string | number | bigint | Buffer | null>;

const bit = (b: boolean): number => (b ? 1 : 0);

/** `INSERT ... ON CONFLICT (key) DO UPDATE` of every column but the key: an update in place, never a delete. */
function upsertSql(table: string, columns: readonly string[], key: readonly string[]): string {
  const updated = columns.filter((c) => !key.includes(c));
  return (
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')}) ` +
    `ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${updated.map((c) => `${c} = excluded.${c}`).join(', ')}`
  );
}

function insertSql(table: string, columns: readonly string[]): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;
}

const USER_COLUMNS = [
  'id', 'number', 'is_admin', 'maker_fee_rate', 'taker_fee_rate', 'created_at',
  'total_orders', 'total_done_orders', 'total_accepted_orders', 'trading_volume',
] as const;

const API_KEY_COLUMNS = [
  'api_key', 'user_id', 'secret_hash', 'secret_nonce', 'name', 'created_at', 'expired_at', 'is_read_only', 'revoked',
] as const;

const BALANCE_COLUMNS = ['user_id', 'asset', 'free', 'locked'] as const;

const ORDER_COLUMNS = [
  'seq', 'order_id', 'user_id', 'client_order_id', 'product_id', 'side', 'type', 'time_in_force', 'post_only',
  'stp', 'stop_type', 'limit_price', 'base_size', 'quote_size', 'exact_quote_size', 'stop_trigger_price',
  'status', 'done_reason', 'reject_reason', 'filled_base_size', 'filled_quote_size', 'fee_total',
  'maker_fee_rate', 'taker_fee_rate', 'resting_lots', 'hold_asset', 'hold_remaining', 'created_at', 'updated_at',
  'cancel_requested_at', 'expired_at', 'scheduled_at', 'twap_state',
] as const;

const TRADE_COLUMNS = [
  'seq', 'id', 'product_id', 'price', 'size', 'taker_side', 'maker_order_id', 'taker_order_id',
  'maker_user_id', 'taker_user_id', 'maker_fee', 'taker_fee', 'time',
] as const;

type ColumnParams<C extends readonly string[]> = Record<C[number], string | number | bigint | Buffer | null>;

function userParams(u: UserRow) {
  return {
    id: u.id,
    number: u.number,
    is_admin: bit(u.isAdmin),
    maker_fee_rate: u.makerFeeRate,
    taker_fee_rate: u.takerFeeRate,
    created_at: u.createdAt,
    total_orders: u.totalOrders,
    total_done_orders: u.totalDoneOrders,
    total_accepted_orders: u.totalAcceptedOrders,
    trading_volume: u.tradingVolume.toString(),
  } satisfies ColumnParams<typeof USER_COLUMNS>;
}

function apiKeyParams(k: ApiKeyRow) {
  return {
    api_key: k.apiKey,
    user_id: k.userId,
    // Copies, so that what is written is what was committed even if the caller reuses its buffers.
    secret_hash: Buffer.from(k.secretHash),
    secret_nonce: Buffer.from(k.secretNonce),
    name: k.name,
    created_at: k.createdAt,
    expired_at: k.expiredAt,
    is_read_only: bit(k.isReadOnly),
    revoked: bit(k.revoked),
  } satisfies ColumnParams<typeof API_KEY_COLUMNS>;
}

function balanceParams(b: BalanceRow) {
  return { user_id: b.userId, asset: b.asset, free: b.free, locked: b.locked } satisfies ColumnParams<typeof BALANCE_COLUMNS>;
}

export function orderParams(o: OrderRow) {
  return {
    seq: o.seq,
    order_id: o.orderId,
    user_id: o.userId,
    client_order_id: o.clientOrderId,
    product_id: o.productId,
    side: o.side,
    type: o.type,
    time_in_force: o.timeInForce,
    post_only: bit(o.postOnly),
    stp: o.stp,
    stop_type: o.stopType,
    limit_price: o.limitPrice,
    base_size: o.baseSize,
    quote_size: o.quoteSize,
    exact_quote_size: o.exactQuoteSize,
    stop_trigger_price: o.stopTriggerPrice,
    status: o.status,
    done_reason: o.doneReason,
    reject_reason: o.rejectReason,
    filled_base_size: o.filledBaseSize,
    filled_quote_size: o.filledQuoteSize,
    fee_total: o.feeTotal,
    maker_fee_rate: o.makerFeeRate,
    taker_fee_rate: o.takerFeeRate,
    resting_lots: o.restingLots,
    hold_asset: o.holdAsset,
    hold_remaining: o.holdRemaining,
    created_at: o.createdAt,
    updated_at: o.updatedAt,
    cancel_requested_at: o.cancelRequestedAt,
    expired_at: o.expiredAt,
    scheduled_at: o.scheduledAt,
    twap_state: o.twapState,
  } satisfies ColumnParams<typeof ORDER_COLUMNS>;
}

function tradeParams(t: TradeRow) {
  return {
    seq: t.seq,
    id: t.id,
    product_id: t.productId,
    price: t.price,
    size: t.size,
    taker_side: t.takerSide,
    maker_order_id: t.makerOrderId,
    taker_order_id: t.takerOrderId,
    maker_user_id: t.makerUserId,
    taker_user_id: t.takerUserId,
    maker_fee: t.makerFee,
    taker_fee: t.takerFee,
    time: t.time,
  } satisfies ColumnParams<typeof TRADE_COLUMNS>;
}

const ORDER_UPSERT_SQL = upsertSql('orders', ORDER_COLUMNS, ['order_id']);
export const ORDER_INSERT_SQL = insertSql('orders', ORDER_COLUMNS);

/**
 * A change set as the values to bind, taken when commit() is called: the core may go on mutating its own row
 * objects while the set waits for its batch, and what is written must be what it committed.
 */
export interface CapturedChangeSet {
  users: readonly ReturnType<typeof userParams>[];
  apiKeys: readonly ReturnType<typeof apiKeyParams>[];
  balances: readonly ReturnType<typeof balanceParams>[];
  orders: readonly ReturnType<typeof orderParams>[];
  trades: readonly ReturnType<typeof tradeParams>[];
  meta: readonly (readonly [string, string])[];
}

const NONE: readonly never[] = [];

export function captureChangeSet(changes: ChangeSet): CapturedChangeSet {
  return {
    users: changes.users?.map(userParams) ?? NONE,
    apiKeys: changes.apiKeys?.map(apiKeyParams) ?? NONE,
    balances: changes.balances?.map(balanceParams) ?? NONE,
    orders: changes.orders?.map(orderParams) ?? NONE,
    trades: changes.trades?.map(tradeParams) ?? NONE,
    meta: changes.meta === undefined ? NONE : Object.entries(changes.meta),
  };
}

/**
 * Applies batches of change sets. Within a batch, repeated upserts of one key collapse to the last one: the sets
 * are applied in the order they were committed and every upsert replaces the whole row, so the last write is
 * the row the database would hold after applying them one by one. Tables are written parents first (users,
 * then what refers to users, then orders, then trades) so the foreign keys hold whatever set a row came from.
 */
export class ChangeSetWriter {
  private readonly upsertUser: Database.Statement<[Params]>;
  private readonly upsertApiKey: Database.Statement<[Params]>;
  private readonly upsertBalance: Database.Statement<[Params]>;
  private readonly upsertOrder: Database.Statement<[Params]>;
  private readonly insertTrade: Database.Statement<[Params]>;
  private readonly upsertMeta: Database.Statement<[string, string]>;
  private readonly applyInTransaction: (sets: readonly CapturedChangeSet[]) => void;

  constructor(db: Database.Database) {
    this.upsertUser = db.prepare(upsertSql('users', USER_COLUMNS, ['id']));
    this.upsertApiKey = db.prepare(upsertSql('api_keys', API_KEY_COLUMNS, ['api_key']));
    this.upsertBalance = db.prepare(upsertSql('balances', BALANCE_COLUMNS, ['user_id', 'asset']));
    this.upsertOrder = db.prepare(ORDER_UPSERT_SQL);
    this.insertTrade = db.prepare(insertSql('trades', TRADE_COLUMNS));
    this.upsertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads first could fail with BUSY
    // on upgrade if another connection (a backup, an inspector) wrote in between.
    const tx = db.transaction((sets: readonly CapturedChangeSet[]) => this.apply(sets));
    this.applyInTransaction = (sets) => tx.immediate(sets);
  }

  /** Writes all the sets in one transaction; on any error nothing of them is written and the error is thrown. */
  write(sets: readonly CapturedChangeSet[]): void {
    this.applyInTransaction(sets);
  }

  private apply(sets: readonly CapturedChangeSet[]): void {
    const users = new Map<string, Params>();
    const apiKeys = new Map<string, Params>();
    const balances = new Map<string, Params>();
    const orders = new Map<string, Params>();
    const meta = new Map<string, string>();
    for (const set of sets) {
      for (const u of set.users) users.set(u.id, u);
      // An API key is a credential's name: it is left out of error messages, which name the owner instead.
      for (const k of set.apiKeys) apiKeys.set(k.api_key, k);
      // User ids are UUIDs and never hold a NUL, so the pair is an unambiguous key.
      for (const b of set.balances) balances.set(`${b.user_id}\0${b.asset}`, b);
      for (const o of set.orders) orders.set(o.order_id, o);
      for (const [key, value] of set.meta) meta.set(key, value);
    }
    for (const [id, u] of users) writing('users', id, () => this.upsertUser.run(u));
    for (const k of apiKeys.values()) writing('api_keys', `of user ${String(k.user_id)}`, () => this.upsertApiKey.run(k));
    for (const [key, b] of balances) writing('balances', key.replace('\0', ' '), () => this.upsertBalance.run(b));
    for (const [id, o] of orders) writing('orders', id, () => this.upsertOrder.run(o));
    for (const set of sets) {
      for (const t of set.trades) writing('trades', t.id, () => this.insertTrade.run(t));
    }
    for (const [key, value] of meta) writing('meta', key, () => this.upsertMeta.run(key, value));
  }
}

/** Runs one row's write; a failure names the table and row, keeping SQLite's error (and its code) as the cause. */
function writing(table: string, row: string, write: () => unknown): void {
  try {
    write();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`could not write ${table} row ${row}: ${reason}`, { cause: err });
  }
}
