/**
 * The venue's durable state. The core keeps the live state in memory; every change it makes reaches SQLite
 * through `commit()` (group commit into a write-ahead journal, applied to the tables later: see journal.ts), and
 * `load()` rebuilds the live state after a restart. Reads are synchronous and see everything committed (they
 * first apply the journal to the tables), never what is still queued.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { captureChangeSet, type CapturedChangeSet, type ChangeSet } from './change-set';
import { GroupCommit, type GroupCommitStats } from './group-commit';
import { Journal, type JournalStats } from './journal';
import { migrate } from './migrations';
import { Query } from './query';
import {
  apiKeyFromRow,
  balanceFromRow,
  metaFromRow,
  orderFromRow,
  tradeFromRow,
  userFromRow,
  type ApiKeyRow,
  type BalanceRow,
  type OrderRow,
  type OrderStatus,
  type TradeRow,
  type UserRow,
} from './rows';

export interface MarketSnapshot {
  productId: string;
  lastTradePrice: string;
  /** Newest first. */
  recentTrades: TradeRow[];
}

/** Everything needed to rebuild the live state. */
export interface Snapshot {
  meta: Record<string, string>;
  users: UserRow[];
  apiKeys: ApiKeyRow[];
  balances: BalanceRow[];
  /** Orders not DONE (SUBMITTED, ACTIVE, SCHEDULED), in seq (priority) order. */
  openOrders: OrderRow[];
  /** 0 when there is none. */
  lastTradeSeq: number;
  /** 0 when there is none. */
  maxOrderSeq: number;
  /** Products that have traded. */
  markets: MarketSnapshot[];
}

export type ArchivedOrderSort = 'created_at' | '-created_at' | 'updated_at' | '-updated_at';

export interface ArchivedOrderQuery {
  /** Absent or empty: every product. */
  productIds?: string[];
  /** Inclusive bounds on created_at, UNIX nanoseconds. */
  startTime?: bigint;
  endTime?: bigint;
  limit: number;
  status?: OrderStatus;
  sort: ArchivedOrderSort;
  /** Compared case-insensitively; absent or '': no filter. */
  clientOrderId?: string;
}

export interface StoreOptions {
  /** better-sqlite3's native module built for this runtime (Electron has its own ABI). */
  nativeBinding?: string;
  /** A batch this large is written at once rather than on the next turn of the event loop. */
  maxBatch?: number;
  /**
   * Back-pressure: once the journal holds this many table rows not yet applied, the next batch first applies
   * them. Bounds the memory they take (about 0.5 KB a row) and the pause that applying them is (on a 2-core
   * machine, roughly a second per 80,000 rows); a smaller bound trades acknowledgement speed in long bursts
   * for shorter pauses.
   */
  maxPendingRows?: number;
  /** How long after a commit the journal is applied to the tables if no other commit is waiting by then. */
  materializeDelayMs?: number;
}

/** Group commit counts, and the journal's. */
export type StoreStats = GroupCommitStats & JournalStats;

export const DEFAULT_MAX_BATCH = 5_000;
export const DEFAULT_MAX_PENDING_ROWS = 20_000;
export const DEFAULT_MATERIALIZE_DELAY_MS = 20;
export const DEFAULT_RECENT_TRADES = 100;

// Ties on a timestamp are broken by seq, so pages are stable.
const ORDER_BY: Record<ArchivedOrderSort, string> = {
  created_at: 'created_at ASC, seq ASC',
  '-created_at': 'created_at DESC, seq DESC',
  updated_at: 'updated_at ASC, seq ASC',
  '-updated_at': 'updated_at DESC, seq DESC',
};

type Bind = Record<string, string | number | bigint>;

export class VenueStore {
  private readonly journal: Journal;
  private readonly queue: GroupCommit<CapturedChangeSet>;
  private readonly maxPendingRows: number;
  private readonly materializeDelayMs: number;
  private materializeTimer: NodeJS.Timeout | undefined;
  private readonly archivedQueries = new Map<string, Query<[Bind], OrderRow>>();

  private readonly selectMeta: Query<[], { key: string; value: string }>;
  private readonly selectMetaValue: Database.Statement<[string], unknown>;
  private readonly selectUsers: Query<[], UserRow>;
  private readonly selectApiKeys: Query<[], ApiKeyRow>;
  private readonly selectBalances: Query<[], BalanceRow>;
  private readonly selectOpenOrders: Query<[], OrderRow>;
  private readonly selectMaxOrderSeq: Database.Statement<[], unknown>;
  private readonly selectMaxTradeSeq: Database.Statement<[], unknown>;
  private readonly selectTradedProducts: Database.Statement<[], unknown>;
  private readonly selectRecentTrades: Query<[string, number], TradeRow>;
  private readonly selectOrder: Query<[string, string], OrderRow>;
  private readonly selectNewestByClientId: Query<[string, string], OrderRow>;
  private readonly selectTradesOfOrders: Query<[{ ids: string }], TradeRow>;
  private readonly readSnapshot: Database.Transaction<(recent: number) => Snapshot>;

  constructor(
    private readonly db: Database.Database,
    options: Required<Pick<StoreOptions, 'maxBatch' | 'maxPendingRows' | 'materializeDelayMs'>>,
  ) {
    this.journal = new Journal(db);
    this.maxPendingRows = options.maxPendingRows;
    this.materializeDelayMs = options.materializeDelayMs;
    this.queue = new GroupCommit<CapturedChangeSet>((sets) => this.writeBatch(sets), options.maxBatch);

    this.selectMeta = new Query(db, 'SELECT key, value FROM meta', metaFromRow);
    this.selectMetaValue = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
    this.selectUsers = new Query(db, 'SELECT * FROM users', userFromRow);
    this.selectApiKeys = new Query(db, 'SELECT * FROM api_keys', apiKeyFromRow);
    this.selectBalances = new Query(db, 'SELECT * FROM balances', balanceFromRow);
    // The condition matches the partial index orders_open word for word, which is what lets SQLite use it.
    this.selectOpenOrders = new Query(db, "SELECT * FROM orders WHERE status != 'DONE' ORDER BY seq", orderFromRow);
    this.selectMaxOrderSeq = db.prepare('SELECT max(seq) FROM orders').pluck();
    this.selectMaxTradeSeq = db.prepare('SELECT max(seq) FROM trades').pluck();
    // Distinct products by hopping through the index: one seek per product, not a scan of every trade.
    this.selectTradedProducts = db
      .prepare(
        `WITH RECURSIVE traded (id) AS (
           SELECT min(product_id) FROM trades
           UNION ALL
           SELECT (SELECT min(product_id) FROM trades WHERE product_id > traded.id) FROM traded WHERE traded.id IS NOT NULL
         )
         SELECT id FROM traded WHERE id IS NOT NULL`,
      )
      .pluck();
    this.selectRecentTrades = new Query(db, 'SELECT * FROM trades WHERE product_id = ? ORDER BY seq DESC LIMIT ?', tradeFromRow);
    this.selectOrder = new Query(db, 'SELECT * FROM orders WHERE order_id = ? AND user_id = ?', orderFromRow);
    this.selectNewestByClientId = new Query(
      db,
      'SELECT * FROM orders WHERE user_id = ? AND client_order_id = ? COLLATE NOCASE ORDER BY created_at DESC, seq DESC LIMIT 1',
      orderFromRow,
    );
    // The ids travel as one JSON array so a single prepared statement serves any number of them.
    this.selectTradesOfOrders = new Query(
      db,
      `SELECT * FROM trades
       WHERE maker_order_id IN (SELECT value FROM json_each(@ids)) OR taker_order_id IN (SELECT value FROM json_each(@ids))
       ORDER BY seq`,
      tradeFromRow,
    );
    // One read transaction, so the snapshot is consistent even if another connection writes meanwhile.
    this.readSnapshot = db.transaction((recent: number) => this.snapshot(recent));
  }

  /**
   * Queues the change set; settles once it is committed (together with whatever else arrived this turn). The
   * values are taken now: changing the rows afterwards does not change what is written.
   */
  commit(changes: ChangeSet): Promise<void> {
    let captured: CapturedChangeSet;
    try {
      captured = captureChangeSet(changes);
    } catch (err) {
      // A row the tables would refuse fails its own commit only: it never joins a batch.
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return this.queue.commit(captured);
  }

  /** Settles once everything committed before it is durable (in the journal). */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /**
   * Applies everything committed so far to the tables now. Reads and close() do this themselves; it is here
   * for whoever wants the work done at a moment of their choosing.
   */
  materialize(): void {
    this.journal.materialize();
  }

  /**
   * Writes what is queued (synchronously), applies the journal to the tables and closes the database. Throws
   * if that last write failed; what was acknowledged is never lost (a journal left behind is applied on open).
   */
  close(): void {
    if (!this.db.open) return;
    clearTimeout(this.materializeTimer);
    const failed = this.queue.close();
    let unapplied: Error | undefined;
    try {
      this.journal.materialize();
    } catch (err) {
      unapplied = err instanceof Error ? err : new Error(String(err));
    }
    this.db.close();
    if (failed !== undefined) throw failed;
    if (unapplied !== undefined) throw unapplied;
  }

  stats(): StoreStats {
    return { ...this.queue.stats(), ...this.journal.stats() };
  }

  load(recentTradesPerProduct: number = DEFAULT_RECENT_TRADES): Snapshot {
    const recent = positiveInteger('recentTradesPerProduct', recentTradesPerProduct);
    this.journal.materialize();
    return this.readSnapshot.deferred(recent);
  }

  getMeta(key: string): string | undefined {
    this.journal.materialize();
    const value = this.selectMetaValue.get(key);
    if (value === undefined || typeof value === 'string') return value;
    throw new Error('malformed row in meta: column value should be text');
  }

  orderById(userId: string, orderId: string): OrderRow | undefined {
    this.journal.materialize();
    return this.selectOrder.get(orderId, userId);
  }

  /** The newest of the user's orders with this client order id (case-insensitive); '' never matches. */
  newestOrderByClientId(userId: string, clientOrderId: string): OrderRow | undefined {
    if (clientOrderId === '') return undefined;
    this.journal.materialize();
    return this.selectNewestByClientId.get(userId, clientOrderId);
  }

  archivedOrders(userId: string, query: ArchivedOrderQuery): OrderRow[] {
    const where = ['user_id = @userId'];
    const bind: Bind = { userId, limit: positiveInteger('limit', query.limit) };
    if (query.productIds !== undefined && query.productIds.length > 0) {
      where.push('product_id IN (SELECT value FROM json_each(@productIds))');
      bind.productIds = JSON.stringify(query.productIds);
    }
    if (query.startTime !== undefined) {
      where.push('created_at >= @startTime');
      bind.startTime = query.startTime;
    }
    if (query.endTime !== undefined) {
      where.push('created_at <= @endTime');
      bind.endTime = query.endTime;
    }
    if (query.status !== undefined) {
      where.push('status = @status');
      bind.status = query.status;
    }
    if (query.clientOrderId !== undefined && query.clientOrderId !== '') {
      where.push('client_order_id = @clientOrderId COLLATE NOCASE');
      bind.clientOrderId = query.clientOrderId;
    }
    const sql = `SELECT * FROM orders WHERE ${where.join(' AND ')} ORDER BY ${ORDER_BY[query.sort]} LIMIT @limit`;
    this.journal.materialize();
    // At most 2^5 filter shapes times 4 sorts: each is prepared once and reused.
    let statement = this.archivedQueries.get(sql);
    if (statement === undefined) {
      statement = new Query<[Bind], OrderRow>(this.db, sql, orderFromRow);
      this.archivedQueries.set(sql, statement);
    }
    return statement.all(bind);
  }

  /** Fills of these orders on either side, in time order. */
  tradesOfOrders(orderIds: readonly string[]): TradeRow[] {
    if (orderIds.length === 0) return [];
    this.journal.materialize();
    return this.selectTradesOfOrders.all({ ids: JSON.stringify(orderIds) });
  }

  /** The same trades, listed under each order they belong to (a trade belongs to its maker and its taker). */
  tradesByOrder(orderIds: readonly string[]): Map<string, TradeRow[]> {
    const byOrder = new Map<string, TradeRow[]>();
    for (const trade of this.tradesOfOrders(orderIds)) {
      for (const id of [trade.makerOrderId, trade.takerOrderId]) {
        const list = byOrder.get(id) ?? [];
        list.push(trade);
        byOrder.set(id, list);
      }
    }
    return byOrder;
  }

  /** Newest first. */
  recentTrades(productId: string, limit: number): TradeRow[] {
    const bounded = positiveInteger('limit', limit);
    this.journal.materialize();
    return this.selectRecentTrades.all(productId, bounded);
  }

  /** `PRAGMA integrity_check`: 'ok' when the file is sound, otherwise the problems it found, one a line. */
  integrityCheck(): string {
    this.journal.materialize();
    const lines: unknown[] = this.db.prepare('PRAGMA integrity_check').pluck().all();
    return lines.map((line) => (typeof line === 'string' ? line : String(line))).join('\n');
  }

  /**
   * One group commit, into the journal. What is pending is applied first if it has reached its bound, so that a
   * failure to apply it refuses new batches rather than letting memory grow without end.
   */
  private writeBatch(sets: readonly CapturedChangeSet[]): void {
    if (this.journal.unapplied >= this.maxPendingRows) this.journal.materialize();
    this.journal.append(sets);
    this.scheduleMaterialize();
  }

  private scheduleMaterialize(): void {
    if (this.materializeTimer !== undefined || this.journal.unapplied === 0) return;
    this.materializeTimer = setTimeout(() => {
      this.materializeTimer = undefined;
      if (!this.db.open) return;
      // Commits are waiting for their batch: theirs goes first, and this runs after it.
      if (this.queue.queued) {
        this.scheduleMaterialize();
        return;
      }
      try {
        this.journal.materialize();
      } catch {
        // Nothing is lost (the journal keeps it); the next read, back-pressure or close retries and reports it.
      }
    }, this.materializeDelayMs);
    // The journal is safe on disk: a pending application never keeps the process alive.
    this.materializeTimer.unref();
  }

  private snapshot(recent: number): Snapshot {
    const meta: Record<string, string> = {};
    for (const { key, value } of this.selectMeta.all()) meta[key] = value;
    const markets: MarketSnapshot[] = [];
    for (const productId of this.selectTradedProducts.all()) {
      if (typeof productId !== 'string') throw new Error('malformed row in trades: column product_id should be text');
      const recentTrades = this.selectRecentTrades.all(productId, recent);
      const last = recentTrades[0];
      if (last !== undefined) markets.push({ productId, lastTradePrice: last.price, recentTrades });
    }
    return {
      meta,
      users: this.selectUsers.all(),
      apiKeys: this.selectApiKeys.all(),
      balances: this.selectBalances.all(),
      openOrders: this.selectOpenOrders.all(),
      lastTradeSeq: maxSeq('trades', this.selectMaxTradeSeq.get()),
      maxOrderSeq: maxSeq('orders', this.selectMaxOrderSeq.get()),
      markets,
    };
  }
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  return value;
}

function maxSeq(table: string, value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'bigint' && value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  throw new Error(`malformed row in ${table}: column seq should be a safe integer`);
}

/**
 * Opens (creating the folder and file if needed) and migrates the venue database, and applies to its tables
 * whatever journal a previous run left. WAL with synchronous FULL: a commit that returned survives a power cut,
 * and readers never block the writer.
 */
export function openStore(file: string, options: StoreOptions = {}): VenueStore {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file, options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding });
  try {
    const journalMode: unknown = db.pragma('journal_mode = WAL', { simple: true });
    if (journalMode !== 'wal') throw new Error(`the venue database could not use WAL journaling (got ${String(journalMode)})`);
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // 64 MiB of page cache (SQLite's default is 2 MiB): applying the journal writes into five order indexes at
    // once, and keeping their working pages cached saves reading them back from the OS row after row.
    db.pragma('cache_size = -65536');
    // Balances in atoms and nanosecond timestamps exceed 2^53: every INTEGER is read as a bigint.
    db.defaultSafeIntegers(true);
    migrate(db);
    return new VenueStore(db, {
      maxBatch: options.maxBatch ?? DEFAULT_MAX_BATCH,
      maxPendingRows: positiveInteger('maxPendingRows', options.maxPendingRows ?? DEFAULT_MAX_PENDING_ROWS),
      materializeDelayMs: nonNegativeInteger('materializeDelayMs', options.materializeDelayMs ?? DEFAULT_MATERIALIZE_DELAY_MS),
    });
  } catch (err) {
    db.close();
    throw err;
  }
}
