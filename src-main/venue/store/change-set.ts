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

export const ORDER_COLUMNS = [
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

function userParams(u: UserRow): ColumnParams<typeof USER_COLUMNS> {
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
  };
}

function apiKeyParams(k: ApiKeyRow): ColumnParams<typeof API_KEY_COLUMNS> {
  return {
    api_key: k.apiKey,
    user_id: k.userId,
    secret_hash: k.secretHash,
    secret_nonce: k.secretNonce,
    name: k.name,
    created_at: k.createdAt,
    expired_at: k.expiredAt,
    is_read_only: bit(k.isReadOnly),
    revoked: bit(k.revoked),
  };
}

function balanceParams(b: BalanceRow): ColumnParams<typeof BALANCE_COLUMNS> {
  return { user_id: b.userId, asset: b.asset, free: b.free, locked: b.locked };
}

export function orderParams(o: OrderRow): ColumnParams<typeof ORDER_COLUMNS> {
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
  };
}

function tradeParams(t: TradeRow): ColumnParams<typeof TRADE_COLUMNS> {
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
  };
}

export const ORDER_UPSERT_SQL = upsertSql('orders', ORDER_COLUMNS, ['order_id']);
export const ORDER_INSERT_SQL = insertSql('orders', ORDER_COLUMNS);

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
  private readonly applyInTransaction: (sets: readonly ChangeSet[]) => void;

  constructor(db: Database.Database) {
    this.upsertUser = db.prepare(upsertSql('users', USER_COLUMNS, ['id']));
    this.upsertApiKey = db.prepare(upsertSql('api_keys', API_KEY_COLUMNS, ['api_key']));
    this.upsertBalance = db.prepare(upsertSql('balances', BALANCE_COLUMNS, ['user_id', 'asset']));
    this.upsertOrder = db.prepare(ORDER_UPSERT_SQL);
    this.insertTrade = db.prepare(insertSql('trades', TRADE_COLUMNS));
    this.upsertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads first could fail with BUSY
    // on upgrade if another connection (a backup, an inspector) wrote in between.
    const tx = db.transaction((sets: readonly ChangeSet[]) => this.apply(sets));
    this.applyInTransaction = (sets) => tx.immediate(sets);
  }

  /** Writes all the sets in one transaction; on any error nothing of them is written and the error is thrown. */
  write(sets: readonly ChangeSet[]): void {
    this.applyInTransaction(sets);
  }

  private apply(sets: readonly ChangeSet[]): void {
    const users = new Map<string, UserRow>();
    const apiKeys = new Map<string, ApiKeyRow>();
    const balances = new Map<string, BalanceRow>();
    const orders = new Map<string, OrderRow>();
    const meta = new Map<string, string>();
    for (const set of sets) {
      for (const u of set.users ?? []) users.set(u.id, u);
      for (const k of set.apiKeys ?? []) apiKeys.set(k.apiKey, k);
      // User ids are UUIDs and never hold a NUL, so the pair is an unambiguous key.
      for (const b of set.balances ?? []) balances.set(`${b.userId}\0${b.asset}`, b);
      for (const o of set.orders ?? []) orders.set(o.orderId, o);
      if (set.meta !== undefined) for (const [key, value] of Object.entries(set.meta)) meta.set(key, value);
    }
    for (const u of users.values()) this.upsertUser.run(userParams(u));
    for (const k of apiKeys.values()) this.upsertApiKey.run(apiKeyParams(k));
    for (const b of balances.values()) this.upsertBalance.run(balanceParams(b));
    for (const o of orders.values()) this.upsertOrder.run(orderParams(o));
    for (const set of sets) for (const t of set.trades ?? []) this.insertTrade.run(tradeParams(t));
    for (const [key, value] of meta) this.upsertMeta.run(key, value);
  }
}
