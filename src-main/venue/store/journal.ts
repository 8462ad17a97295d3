/**
 * The store's write-ahead journal, as LMAX and exchange-core make a matching engine durable: acknowledge once the
 * change is in a sequential log, update the queryable state later.
 *
 * Acknowledging. A group commit (every change set queued in one turn of the event loop) is merged by key (last
 * write wins), checked against every constraint the tables have, and written as ONE row of the `journal` table:
 * JSON of column tuples, bigints as decimal text (see change-set.ts), about 400 bytes per order. That single-row
 * insert commits with synchronous FULL, so once it returns the batch survives a power cut, and every commit() of
 * the batch resolves.
 *
 * Materializing. `materialize()` reads the pending journal rows back (their text is kept in memory: parsing it
 * again costs less than keeping every tuple alive through garbage collections, and recovery after a crash is
 * then the very same code as every other run), merges them across batches (an order that went SUBMITTED, ACTIVE,
 * DONE over three batches is written once), writes them to the tables, parents first so the foreign keys hold,
 * and deletes the journal rows it covered IN THE SAME TRANSACTION: at any instant, tables plus journal hold
 * exactly what was acknowledged, and a crash anywhere loses nothing. That transaction runs with synchronous
 * NORMAL: it adds nothing that is not already durable in the journal, and WAL replay keeps it whole or drops it
 * whole (the journal rows then come back with it); the next FULL commit syncs it along with itself. New orders
 * are inserted without the upsert's long DO UPDATE clause, which SQLite pays for even when nothing conflicts.
 * The store runs this when the queue has been idle for a moment, before every read (so reads see every
 * acknowledged change), on close, and before a batch once the pending journal has reached its bound
 * (back-pressure: memory, journal size and the pause that applying it is all stay bounded). Opening a database
 * first applies what a previous run left.
 *
 * Checking before acknowledging. A batch in the journal has been acknowledged, so the tables must never refuse
 * it later. Capturing a row checks what SQLite checks of a row alone (types, int64 range, CHECKs); `check()`
 * below checks what depends on other rows, against the tables, the pending journal and the batch itself: the
 * foreign keys (users of api keys, balances and orders; orders of trades) and the unique keys that an upsert does
 * not resolve (users.number, orders.seq, trades.seq, trades.id). A batch that fails is refused whole and
 * nothing of it is written. One case is judged more strictly than SQLite would (whose verdict would depend on the
 * order it applies rows in): a new order may not take a seq that a stored order holds even if a pending change
 * moves that order away; the engine only ever hands out fresh seqs. Should the tables refuse the journal all the
 * same (another connection wrote to them), nothing is lost: the error is reported by reads, back-pressure and
 * close, and each retries.
 *
 * What it buys. The acknowledgement no longer waits for 33-column rows to go into five indexes; applying the
 * journal does that later, merged across batches and with plain inserts for new orders. A burst up to the bound
 * is acknowledged at the journal's rate; a flood that never pauses is still held to the rate at which this one
 * thread can write the tables. bench/store.ts measures both.
 *
 * Changing the schema. A journal row holds tuples in the column order of this build (JOURNAL_FORMAT). A
 * migration that changes a table's columns must also make this code read the previous format.
 */
import type Database from 'better-sqlite3';
import {
  API_KEY_COLUMNS,
  BALANCE_COLUMNS,
  ORDER_COLUMNS,
  TRADE_COLUMNS,
  USER_COLUMNS,
  insertSql,
  upsertSql,
  type CapturedChangeSet,
} from './change-set';
import { MergedChanges, parseJournalEntry } from './merged-changes';

export interface JournalStats {
  /** Journal rows (one per group commit) not yet applied to the tables. */
  journalRows: number;
  /** Table rows those journal rows hold (merged within each batch, not yet across them). */
  pendingRows: number;
  /** Transactions that applied the journal to the tables. */
  materializations: number;
  /** Table rows they wrote. */
  rowsMaterialized: number;
}

type Statement = Database.Statement<unknown[]>;

function refuse(table: string, row: string, reason: string): never {
  throw new Error(`could not write ${table} row ${row}: ${reason}`);
}

export class Journal {
  /** The journal rows not yet in the tables: seq and text, oldest first. */
  private entries: [seq: number, text: string][] = [];
  /** Table rows those entries hold (merged within each batch, not across them). */
  private pendingRows = 0;
  /** What the checks need to know of the pending entries: their orders (id → seq, seq → id) and trades. */
  private readonly pendingOrders = new Map<string, number>();
  private readonly pendingOrderSeqs = new Map<number, string>();
  private readonly pendingTrades = new Set<string>();
  private readonly pendingTradeSeqs = new Set<number>();
  private materializations = 0;
  private rowsMaterialized = 0;

  /** Every user, stored or pending (users are few): id → number, and number → id. */
  private readonly userNumbers = new Map<string, number>();
  private readonly numberHolders = new Map<number, string>();
  /** The highest seqs stored or pending: a higher one is free without asking the tables. */
  private maxOrderSeq = 0;
  private maxTradeSeq = 0;

  private readonly insertEntry: Statement;
  private readonly deleteEntries: Statement;
  private readonly orderAtSeq: Statement;
  private readonly orderExists: Statement;
  private readonly tradeAtSeq: Statement;
  private readonly tradeExists: Statement;
  private readonly upsertUser: Statement;
  private readonly upsertApiKey: Statement;
  private readonly upsertBalance: Statement;
  private readonly insertOrder: Statement;
  private readonly upsertOrder: Statement;
  private readonly insertTrade: Statement;
  private readonly upsertMeta: Statement;
  private readonly syncNormal: Statement;
  private readonly syncFull: Statement;
  private readonly applyInTransaction: (merged: MergedChanges, lastEntry: number) => void;

  /** Attaches to a migrated database and applies whatever journal rows a previous run left. */
  constructor(private readonly db: Database.Database) {
    this.insertEntry = db.prepare('INSERT INTO journal (batch) VALUES (?)');
    this.deleteEntries = db.prepare('DELETE FROM journal WHERE seq <= ?');
    this.orderAtSeq = db.prepare('SELECT order_id FROM orders WHERE seq = ?').pluck();
    this.orderExists = db.prepare('SELECT 1 FROM orders WHERE order_id = ?').pluck();
    this.tradeAtSeq = db.prepare('SELECT 1 FROM trades WHERE seq = ?').pluck();
    this.tradeExists = db.prepare('SELECT 1 FROM trades WHERE id = ?').pluck();
    this.upsertUser = db.prepare(upsertSql('users', USER_COLUMNS, ['id']));
    const blobs = { secret_hash: 'unhex(?)', secret_nonce: 'unhex(?)' };
    this.upsertApiKey = db.prepare(upsertSql('api_keys', API_KEY_COLUMNS, ['api_key'], blobs));
    this.upsertBalance = db.prepare(upsertSql('balances', BALANCE_COLUMNS, ['user_id', 'asset']));
    // A new order is inserted by a statement without the upsert's 32-column DO UPDATE, which costs SQLite about
    // half as much again per row even when nothing conflicts; an order already stored then takes the upsert.
    this.insertOrder = db.prepare(`${insertSql('orders', ORDER_COLUMNS)} ON CONFLICT (order_id) DO NOTHING`);
    this.upsertOrder = db.prepare(upsertSql('orders', ORDER_COLUMNS, ['order_id']));
    this.insertTrade = db.prepare(insertSql('trades', TRADE_COLUMNS));
    this.upsertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.syncNormal = db.prepare('PRAGMA synchronous = NORMAL');
    this.syncFull = db.prepare('PRAGMA synchronous = FULL');
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads first could fail with BUSY
    // on upgrade if another connection (a backup, an inspector) wrote in between.
    const tx = db.transaction((merged: MergedChanges, lastEntry: number) => this.apply(merged, lastEntry));
    this.applyInTransaction = (merged, lastEntry) => tx.immediate(merged, lastEntry);

    for (const [id, number] of db.prepare('SELECT id, number FROM users').raw().all() as [string, bigint][]) {
      this.userNumbers.set(id, Number(number));
      this.numberHolders.set(Number(number), id);
    }
    this.maxOrderSeq = Number(db.prepare('SELECT coalesce(max(seq), 0) FROM orders').pluck().get());
    this.maxTradeSeq = Number(db.prepare('SELECT coalesce(max(seq), 0) FROM trades').pluck().get());
    this.recover();
  }

  /** Table rows journalled and not yet applied. */
  get unapplied(): number {
    return this.pendingRows;
  }

  stats(): JournalStats {
    return {
      journalRows: this.entries.length,
      pendingRows: this.pendingRows,
      materializations: this.materializations,
      rowsMaterialized: this.rowsMaterialized,
    };
  }

  /**
   * Checks the batch, merged by key, and writes it as one durable journal row. Throws, having written nothing,
   * if the tables would refuse any of it.
   */
  append(sets: readonly CapturedChangeSet[]): void {
    const batch = new MergedChanges();
    for (const set of sets) batch.addSet(set);
    if (batch.rows === 0) return;
    this.check(batch);
    const text = batch.toJournalText();
    const seq = Number(this.insertEntry.run(text).lastInsertRowid);
    this.absorb(batch);
    this.entries.push([seq, text]);
  }

  /**
   * Writes every pending change to the tables and removes the journal rows they came from, in one transaction.
   * On failure nothing changes (the journal keeps everything) and the error is thrown; the next call retries.
   */
  materialize(): void {
    const last = this.entries.at(-1);
    if (last === undefined) return;
    const merged = new MergedChanges();
    this.syncNormal.run();
    try {
      for (const [seq, text] of this.entries) merged.addSet(parseJournalEntry(seq, text));
      this.applyInTransaction(merged, last[0]);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`the journal could not be applied to the tables, and keeps everything: ${reason}`, { cause: err });
    } finally {
      this.syncFull.run();
    }
    this.entries = [];
    this.pendingRows = 0;
    this.pendingOrders.clear();
    this.pendingOrderSeqs.clear();
    this.pendingTrades.clear();
    this.pendingTradeSeqs.clear();
    this.materializations += 1;
    this.rowsMaterialized += merged.rows;
  }

  private recover(): void {
    for (const [seq, text] of this.db.prepare('SELECT seq, batch FROM journal ORDER BY seq').raw().all() as [bigint, string][]) {
      this.entries.push([Number(seq), text]);
    }
    this.materialize();
  }

  /** Refuses the batch if, applied after everything pending, it would break a key the tables enforce. */
  private check(batch: MergedChanges): void {
    const userExists = (id: string): boolean => batch.users.has(id) || this.userNumbers.has(id);
    const orderExists = (id: string): boolean =>
      batch.orders.has(id) || this.pendingOrders.has(id) || this.orderExists.get(id) !== undefined;

    const batchNumbers = new Map<number, string>();
    for (const [id, number] of batch.users.values()) {
      const holder = batchNumbers.get(number) ?? this.numberHolders.get(number);
      if (holder !== undefined && holder !== id) refuse('users', id, 'UNIQUE constraint failed: users.number');
      batchNumbers.set(number, id);
    }
    for (const k of batch.apiKeys.values()) {
      if (!userExists(k[1])) refuse('api_keys', `of user ${k[1]}`, 'FOREIGN KEY constraint failed (user_id names no user)');
    }
    for (const [userId, assets] of batch.balances) {
      if (!userExists(userId)) refuse('balances', `${userId} ${[...assets.keys()].join(', ')}`, 'FOREIGN KEY constraint failed (user_id names no user)');
    }
    const batchOrderSeqs = new Map<number, string>();
    for (const o of batch.orders.values()) {
      const [seq, id, userId] = o;
      if (!userExists(userId)) refuse('orders', id, 'FOREIGN KEY constraint failed (user_id names no user)');
      if (batchOrderSeqs.has(seq)) refuse('orders', id, 'UNIQUE constraint failed: orders.seq');
      batchOrderSeqs.set(seq, id);
      if (seq <= this.maxOrderSeq) {
        const holder = this.pendingOrderSeqs.get(seq) ?? (this.orderAtSeq.get(seq) as string | undefined);
        if (holder !== undefined && holder !== id) refuse('orders', id, 'UNIQUE constraint failed: orders.seq');
      }
    }
    const batchTradeSeqs = new Set<number>();
    for (const t of batch.trades.values()) {
      const [seq, id] = t;
      if (this.pendingTrades.has(id) || this.tradeExists.get(id) !== undefined) refuse('trades', id, 'UNIQUE constraint failed: trades.id');
      if (batchTradeSeqs.has(seq) || (seq <= this.maxTradeSeq && (this.pendingTradeSeqs.has(seq) || this.tradeAtSeq.get(seq) !== undefined))) {
        refuse('trades', id, 'UNIQUE constraint failed: trades.seq');
      }
      batchTradeSeqs.add(seq);
      if (!orderExists(t[6])) refuse('trades', id, 'FOREIGN KEY constraint failed (maker_order_id names no order)');
      if (!orderExists(t[7])) refuse('trades', id, 'FOREIGN KEY constraint failed (taker_order_id names no order)');
    }
  }

  /** Adds a journalled batch to what the checks know. */
  private absorb(batch: MergedChanges): void {
    for (const [id, number] of batch.users.values()) {
      const before = this.userNumbers.get(id);
      if (before !== undefined && before !== number && this.numberHolders.get(before) === id) this.numberHolders.delete(before);
      this.userNumbers.set(id, number);
      this.numberHolders.set(number, id);
    }
    for (const [seq, id] of batch.orders.values()) {
      const before = this.pendingOrders.get(id);
      if (before !== undefined && before !== seq && this.pendingOrderSeqs.get(before) === id) this.pendingOrderSeqs.delete(before);
      this.pendingOrders.set(id, seq);
      this.pendingOrderSeqs.set(seq, id);
      if (seq > this.maxOrderSeq) this.maxOrderSeq = seq;
    }
    for (const [seq, id] of batch.trades.values()) {
      this.pendingTrades.add(id);
      this.pendingTradeSeqs.add(seq);
      if (seq > this.maxTradeSeq) this.maxTradeSeq = seq;
    }
    this.pendingRows += batch.rows;
  }

  /** Parents first: users, then what refers to users, then orders, then trades. */
  private apply(p: MergedChanges, lastEntry: number): void {
    let table = '';
    let row: readonly unknown[] = [];
    try {
      table = 'users';
      for (const u of p.users.values()) this.upsertUser.run((row = u));
      table = 'api_keys';
      for (const k of p.apiKeys.values()) this.upsertApiKey.run((row = k));
      table = 'balances';
      for (const b of p.eachBalance()) this.upsertBalance.run((row = b));
      table = 'orders';
      for (const o of p.orders.values()) {
        row = o;
        if (this.insertOrder.run(o).changes === 0) this.upsertOrder.run(o);
      }
      table = 'trades';
      for (const t of p.trades.values()) this.insertTrade.run((row = t));
      table = 'meta';
      for (const m of p.meta) this.upsertMeta.run((row = m));
      table = 'journal';
      this.deleteEntries.run((row = [lastEntry]));
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`could not write ${table} row ${rowName(table, row)}: ${reason}`, { cause: err });
    }
  }
}

/** How an error names a row: by its key, except an API key (a credential), named by its owner. */
function rowName(table: string, row: readonly unknown[]): string {
  switch (table) {
    case 'api_keys':
      return `of user ${String(row[1])}`;
    case 'balances':
      return `${String(row[0])} ${String(row[1])}`;
    case 'orders':
    case 'trades':
      return String(row[1]);
    default:
      return String(row[0]);
  }
}
