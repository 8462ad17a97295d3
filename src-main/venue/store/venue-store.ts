/**
 * The venue's durable state. The core keeps the live state in memory; every change it makes reaches disk
 * through `commit()` (group commit into a write-ahead journal file written by the store's journal thread, then
 * applied to the SQLite tables by its writer thread: see journal.ts), and `load()` rebuilds the live state after
 * a restart. Reads are synchronous and see everything committed (they first wait for the tables to hold the
 * journal), never what is still queued.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { captureChangeSet, type CapturedChangeSet, type ChangeSet } from './change-set';
import { openDatabase } from './database';
import { GroupCommit, type GroupCommitStats } from './group-commit';
import { Journal, type JournalStats } from './journal';
import { checkWritable, deleteJournal, journalFolder, readJournal } from './journal-file';
import { JournalWriter } from './journal-writer';
import { StoreWriter } from './store-writer';
import type { ForgetRequest, Forgotten } from './forgetting';
import { TableWriter } from './table-writer';
import { migrate } from './migrations';
import { Query, TRADED_PRODUCTS_SQL } from './query';
import {
  apiKeyFromRow,
  balanceFromRow,
  candleFromRow,
  metaFromRow,
  orderFromRow,
  tradeFromRow,
  userFromRow,
  type ApiKeyRow,
  type BalanceRow,
  type CandleRow,
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
  /** The candles of the day before the newest, oldest first. */
  candles: CandleRow[];
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
  /** The newest time any row holds (an order's last change, a user's or key's creation), UNIX ns; 0 when none. */
  newestTime: bigint;
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
   * Back-pressure: once the journal holds this many table rows not yet applied, the next batch first waits
   * until the writer thread has applied half of them. Bounds the memory they take (about 0.5 KB a row) and the
   * pause that applying them is (on a 2-core machine, roughly a second per 80,000 rows). The writer thread
   * starts applying on its own at half the bound.
   */
  maxPendingRows?: number;
  /** How long after the last commit the writer thread applies the journal to the tables. */
  materializeDelayMs?: number;
  /** Bytes after which the journal starts a new segment file (tests make it tiny). */
  journalSegmentBytes?: number;
}

/** Group commit counts, the journal's, and the writer thread's work. */
export type StoreStats = GroupCommitStats &
  JournalStats & {
    /** Milliseconds the writer thread has spent applying the journal to the tables (on the machine's other core). */
    writerBusyMs: number;
  };

export const DEFAULT_MAX_BATCH = 5_000;
export const DEFAULT_MAX_PENDING_ROWS = 20_000;
export const DEFAULT_MATERIALIZE_DELAY_MS = 20;
export const DEFAULT_RECENT_TRADES = 100;
const READ_CACHE_KIB = 8 * 1024;

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
  private readonly journalWriter: JournalWriter;
  private readonly writer: StoreWriter;
  private readonly queue: GroupCommit<CapturedChangeSet>;
  private readonly maxPendingRows: number;
  private readonly archivedQueries = new Map<string, Query<[Bind], OrderRow>>();
  private writerBusyMs = 0;
  /** See onDiskFault. */
  private diskFault: Error | undefined;
  private readonly diskFaultListeners: ((fault: Error) => void)[] = [];

  private readonly selectMeta: Query<[], { key: string; value: string }>;
  private readonly selectMetaValue: Database.Statement<[string], unknown>;
  private readonly selectUsers: Query<[], UserRow>;
  private readonly selectApiKeys: Query<[], ApiKeyRow>;
  private readonly selectBalances: Query<[], BalanceRow>;
  private readonly selectOpenOrders: Query<[], OrderRow>;
  private readonly selectMaxOrderSeq: Database.Statement<[], unknown>;
  private readonly selectMaxTradeSeq: Database.Statement<[], unknown>;
  private readonly selectNewestTime: Database.Statement<[], unknown>;
  private readonly selectTradedProducts: Database.Statement<[], unknown>;
  private readonly selectRecentTrades: Query<[string, number], TradeRow>;
  private readonly selectDayOfCandles: Query<[{ product: string }], CandleRow>;
  private readonly selectOrder: Query<[string, string], OrderRow>;
  private readonly selectNewestByClientId: Query<[string, string], OrderRow>;
  private readonly selectDoneByClientId: Query<[string, string, number], OrderRow>;
  private readonly selectTradesOfOrders: Query<[{ ids: string }], TradeRow>;
  private readonly readSnapshot: Database.Transaction<(recent: number) => Snapshot>;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    options: Required<Pick<StoreOptions, 'maxBatch' | 'maxPendingRows' | 'materializeDelayMs'>> &
      Pick<StoreOptions, 'nativeBinding' | 'journalSegmentBytes'> & { position: number },
  ) {
    this.journal = new Journal(db, options.position);
    this.maxPendingRows = options.maxPendingRows;
    // Durable records go from the journal thread to the writer thread directly, never through the core.
    const { port1, port2 } = new MessageChannel();
    this.journalWriter = new JournalWriter(journalFolder(file), port1, options.position, options.journalSegmentBytes);
    this.writer = new StoreWriter({
      file,
      nativeBinding: options.nativeBinding,
      journal: port2,
      eagerRows: Math.max(1, Math.floor(options.maxPendingRows / 2)),
      // 1,000 rows a transaction. 5,000 cost the writer thread 10-15% less an order (bench/probes/writer-replay.ts)
      // yet the venue committed fewer orders a second (four interleaved runs of bench/committed-orders.ts on
      // 2026-11-27: 27.0 k/s mean against 28.9 k/s), since the thread then left off further below eagerRows and
      // idled while the core refilled it; with eagerRows at 5,000 too, 28.4 k/s. Tried again once the core was
      // leaner and the writer set the rate, 4,000 rows: 37.0 k/s mean against 39.7 k/s (docs/performance.md).
      chunkRows: Math.max(1, Math.min(1_000, Math.floor(options.maxPendingRows / 4))),
      idleDelayMs: options.materializeDelayMs,
      position: options.position,
      onApplied: ({ through, rows, durable, busyMs }) => {
        this.journal.applied(through, rows);
        this.journalWriter.retire(durable);
        this.writerBusyMs += busyMs;
      },
      onDiskFault: (fault) => {
        this.diskFault = fault;
        for (const listener of this.diskFaultListeners.splice(0)) listener(fault);
      },
    });
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
    // A trade changes both its orders, so their updated_at covers trades and candles. Per user, each max is one
    // step down orders_by_user_updated: a scan of every order row would cost seconds on a long history.
    this.selectNewestTime = db
      .prepare(
        `SELECT max(
           coalesce((SELECT max(created_at) FROM api_keys), 0),
           coalesce((SELECT max(max(u.created_at, coalesce((SELECT max(o.updated_at) FROM orders o WHERE o.user_id = u.id), 0))) FROM users u), 0))`,
      )
      .pluck()
      .safeIntegers(true);
    this.selectTradedProducts = db.prepare(TRADED_PRODUCTS_SQL).pluck();
    this.selectRecentTrades = new Query(db, 'SELECT * FROM trades WHERE product_id = ? ORDER BY seq DESC LIMIT ?', tradeFromRow);
    this.selectDayOfCandles = new Query(
      db,
      `SELECT * FROM candles WHERE product_id = @product
         AND start >= (SELECT max(start) FROM candles WHERE product_id = @product) - 86400000000000
       ORDER BY start`,
      candleFromRow,
    );
    this.selectOrder = new Query(db, 'SELECT * FROM orders WHERE order_id = ? AND user_id = ?', orderFromRow);
    this.selectNewestByClientId = new Query(
      db,
      'SELECT * FROM orders WHERE user_id = ? AND client_order_id = ? COLLATE NOCASE ORDER BY created_at DESC, seq DESC LIMIT 1',
      orderFromRow,
    );
    this.selectDoneByClientId = new Query(
      db,
      "SELECT * FROM orders WHERE user_id = ? AND client_order_id = ? COLLATE NOCASE AND status = 'DONE' AND seq <= ? ORDER BY created_at DESC, seq DESC LIMIT 1",
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
   * values are taken now: changing the rows afterwards does not change what is written. `now`: hand the batch to
   * the writer thread at once, with whatever is queued, instead of at the end of the turn.
   */
  commit(changes: ChangeSet, now = false): Promise<void> {
    let captured: CapturedChangeSet;
    try {
      captured = captureChangeSet(changes);
    } catch (err) {
      // A row the tables would refuse fails its own commit only: it never joins a batch.
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return this.queue.commit(captured, now);
  }

  /**
   * Calls `listener` once the writer thread fails to apply the journal for the disk's sake (full, or an I/O error):
   * from then on every commit is refused too. The journal (often on the same disk) may still take records, but
   * every read of the tables fails, and applying is retried only when asked: acknowledging on would heap up
   * orders no one can read back until back-pressure stops them seconds later. Its host restarts it (see
   * Venue.halt), and a start on a disk still full says so.
   */
  onDiskFault(listener: (fault: Error) => void): void {
    if (this.diskFault === undefined) this.diskFaultListeners.push(listener);
    else listener(this.diskFault);
  }

  /** Settles once everything committed before it is durable (in the journal). */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /**
   * Resolves once the tables hold everything committed so far, without blocking this thread meanwhile: a read
   * awaits this first, so the wait for a large change's rows does not stall every other client; its own
   * materialize() then waits only for what was committed since.
   */
  caughtUp(): Promise<void> {
    const failure = this.journalWriter.writeFailure;
    if (failure !== undefined) return Promise.reject(failure);
    return this.writer.whenApplied(this.journalWriter.durableThrough);
  }

  /**
   * Deletes, on the writer thread, what `request.users` did before `request.before` that is over: their done orders
   * and the trades among them, but never a product's newest `keepTrades` trades (forgetting.ts). Resolves with what
   * went once all of it has; the thread takes records and reads between its transactions meanwhile. It starts once
   * the tables hold everything acknowledged when it was asked, so it sees the orders done by then as done.
   */
  async forgetHistory(request: ForgetRequest): Promise<Forgotten> {
    await this.caughtUp();
    return this.writer.forget(request);
  }

  materialize(): void {
    // Only what is durable is acknowledged, and only that reaches the writer thread: a read waits for it alone.
    const failure = this.journalWriter.writeFailure;
    if (failure !== undefined) throw failure;
    this.writer.applyThrough(this.journalWriter.durableThrough);
  }

  /**
   * Writes what is queued, applies the journal to the tables and closes the database, waiting for the writer
   * thread. Throws if that last work failed; what was acknowledged is never lost (a journal left behind is
   * applied on open).
   */
  close(): void {
    if (!this.db.open) return;
    const failed = this.queue.close();
    // The journal thread first: it hands the writer thread its last records before it says it has closed.
    const unwritten = this.journalWriter.close();
    const unapplied = this.writer.close();
    // The tables durably hold the whole journal now: the next open has nothing to read.
    if (unwritten === undefined && unapplied === undefined) deleteJournal(journalFolder(this.file));
    this.db.close();
    if (failed !== undefined) throw failed;
    if (unwritten !== undefined) throw unwritten;
    if (unapplied !== undefined) throw unapplied;
  }

  stats(): StoreStats {
    return { ...this.queue.stats(), ...this.journal.stats(), writerBusyMs: this.writerBusyMs };
  }

  load(recentTradesPerProduct: number = DEFAULT_RECENT_TRADES): Snapshot {
    const recent = positiveInteger('recentTradesPerProduct', recentTradesPerProduct);
    this.materialize();
    return this.readSnapshot.deferred(recent);
  }

  getMeta(key: string): string | undefined {
    this.materialize();
    const value = this.selectMetaValue.get(key);
    if (value === undefined || typeof value === 'string') return value;
    throw new Error('malformed row in meta: column value should be text');
  }

  orderById(userId: string, orderId: string): OrderRow | undefined {
    this.materialize();
    return this.selectOrder.get(orderId, userId);
  }

  /** The newest of the user's orders with this client order id (case-insensitive); '' never matches. */
  newestOrderByClientId(userId: string, clientOrderId: string): OrderRow | undefined {
    if (clientOrderId === '') return undefined;
    this.materialize();
    return this.selectNewestByClientId.get(userId, clientOrderId);
  }

  /** The newest DONE order with this client order id (case-insensitive) whose seq is at most `seenThrough`. */
  doneOrderByClientId(userId: string, clientOrderId: string, seenThrough: number): OrderRow | undefined {
    if (clientOrderId === '') return undefined;
    this.materialize();
    return this.selectDoneByClientId.get(userId, clientOrderId, seenThrough);
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
    this.materialize();
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
    this.materialize();
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
    this.materialize();
    return this.selectRecentTrades.all(productId, bounded);
  }

  /** `PRAGMA integrity_check`: 'ok' when the file is sound, otherwise the problems it found, one a line. */
  integrityCheck(): string {
    this.materialize();
    const lines: unknown[] = this.db.prepare('PRAGMA integrity_check').pluck().all();
    return lines.map((line) => (typeof line === 'string' ? line : String(line))).join('\n');
  }

  /**
   * One group commit, into the journal. Once the pending rows reach their bound, the batch first waits for half
   * of them to be applied, so that a failure to apply refuses new batches rather than letting memory grow
   * without end.
   */
  private writeBatch(sets: readonly CapturedChangeSet[]): Promise<void> | undefined {
    if (this.diskFault !== undefined) throw this.diskFault;
    if (this.journal.unapplied >= this.maxPendingRows) {
      // Records still being written cannot be applied yet: wait for the writes first.
      const through = this.journal.seqLeaving(this.maxPendingRows / 2);
      const failure = this.journalWriter.waitUntilDurable(through);
      if (failure !== undefined) throw failure;
      this.writer.applyThrough(through);
    }
    const batch = this.journal.append(sets);
    return batch === undefined ? undefined : this.journalWriter.append(batch.seq, batch.text, batch.rows);
  }

  private snapshot(recent: number): Snapshot {
    const meta: Record<string, string> = {};
    for (const { key, value } of this.selectMeta.all()) meta[key] = value;
    const markets: MarketSnapshot[] = [];
    for (const productId of this.selectTradedProducts.all()) {
      if (typeof productId !== 'string') throw new Error('malformed row in trades: column product_id should be text');
      const recentTrades = this.selectRecentTrades.all(productId, recent);
      const last = recentTrades[0];
      if (last !== undefined) markets.push({ productId, lastTradePrice: last.price, recentTrades, candles: this.selectDayOfCandles.all({ product: productId }) });
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
      newestTime: newestTime(this.selectNewestTime.get()),
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

function newestTime(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  throw new Error('malformed rows: created_at and updated_at should be integers');
}

function maxSeq(table: string, value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'bigint' && value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  throw new Error(`malformed row in ${table}: column seq should be a safe integer`);
}

/**
 * Opens (creating the folder and file if needed) and migrates the venue database, applies to its tables whatever
 * journal a previous run left, and starts the store's writer thread.
 */
export function openStore(file: string, options: StoreOptions = {}): VenueStore {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = openDatabase(file, options.nativeBinding);
  try {
    try {
      migrate(db);
    } catch (err) {
      // SQLite's own words ("database or disk is full", from a fresh folder's first tables) name no file.
      throw new Error(`could not open ${file}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const tables = new TableWriter(db);
    const legacy = tables.leftBehind();
    if (legacy.length > 0) {
      tables.apply(legacy);
      tables.dropLeftBehind();
    }
    // What the last run acknowledged and the tables do not yet hold; a record torn by a crash mid-write was
    // never acknowledged and is cut off. Once applied (durably), every segment can go.
    const folder = journalFolder(file);
    // First: repairing a torn tail writes in the folder too, and must not fail with a bare EACCES.
    checkWritable(folder);
    tables.apply(readJournal(folder, { repair: true, after: tables.position() }));
    deleteJournal(folder);
    // From here this connection only reads (the writer thread writes, with its own cache): a small cache is
    // enough, and the pages the restore scans once would otherwise stay resident, ~55 MB at 100,000 resting.
    db.pragma(`cache_size = -${READ_CACHE_KIB}`);
    return new VenueStore(db, file, {
      nativeBinding: options.nativeBinding,
      maxBatch: options.maxBatch ?? DEFAULT_MAX_BATCH,
      maxPendingRows: positiveInteger('maxPendingRows', options.maxPendingRows ?? DEFAULT_MAX_PENDING_ROWS),
      materializeDelayMs: nonNegativeInteger('materializeDelayMs', options.materializeDelayMs ?? DEFAULT_MATERIALIZE_DELAY_MS),
      journalSegmentBytes: options.journalSegmentBytes === undefined ? undefined : positiveInteger('journalSegmentBytes', options.journalSegmentBytes),
      position: tables.position(),
    });
  } catch (err) {
    db.close();
    throw err;
  }
}
