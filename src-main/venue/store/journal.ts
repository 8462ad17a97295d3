/**
 * The store's write-ahead journal, as LMAX and exchange-core make a matching engine durable: acknowledge once the
 * change is in a sequential log, update the queryable state later.
 *
 * Acknowledging. A group commit (every change set queued in one turn of the event loop) is merged by key (last
 * write wins), checked against every constraint the tables have, and handed to the store's journal thread as ONE
 * record: JSON of column tuples, bigints as decimal text (see change-set.ts), about 400 bytes per order. The
 * thread appends everything that arrived together to the journal file (journal-file.ts: one writev, one
 * fdatasync), so once it says so the batch survives a power cut, and every commit() of the batch resolves.
 *
 * Materializing. The journal thread hands each durable record to the writer thread, which applies records to
 * the tables (table-writer.ts), merged across them, and moves journal_position in the same transaction: at any
 * instant, the tables plus the journal records beyond the position hold exactly what was acknowledged, and a
 * crash anywhere loses nothing. It applies when asked (before every read, so reads see every acknowledged
 * change), when the pending rows pass a threshold, when commits pause, on close, and before a batch once the
 * pending journal has reached its bound (back-pressure: memory, journal size and the pause that applying it is
 * all stay bounded). Segments the tables durably hold are deleted. Opening a database first applies what a
 * previous run left beyond the position.
 *
 * Checking before acknowledging. A batch in the journal has been acknowledged, so the tables must never refuse
 * it later. Capturing a row checks what SQLite checks of a row alone (types, int64 range, CHECKs); `check()`
 * below checks what depends on other rows, against the tables, the pending journal and the batch itself: the
 * foreign keys (users of api keys, balances and orders; orders of trades) and the unique keys that an upsert does
 * not resolve (users.number, orders.seq, trades.seq, trades.id). A batch that fails is refused whole and
 * nothing of it is written. One case is judged more strictly than SQLite would (whose verdict would depend on the
 * order it applies rows in): a new order may not take a seq that a stored or pending order held until the tables
 * hold the change that moved that order away; the engine only ever hands out fresh seqs. That lets the checks
 * remember the pending journal by seq alone, with no lookup by order id for every order journalled. Should the
 * tables refuse the journal all the same (another connection wrote to them), nothing is lost: the error is
 * reported by reads, back-pressure and close, and each retries. A full or failing disk is not retried that way:
 * the store refuses every later commit and tells the venue, which halts (VenueStore.onDiskFault).
 *
 * What it buys. The core's thread never waits for an fsync or for order rows to go into five indexes, and an
 * acknowledgement never waits behind a table transaction: the core matches, checks and serialises, the journal
 * thread syncs, and the other core writes. A flood that never pauses is still held to the rate at which the
 * writer thread can write the tables. bench/store.ts and bench/committed-orders.ts measure both.
 *
 * Changing the schema. A journal record holds tuples in the column order of this build (JOURNAL_FORMAT). A
 * migration that changes a table's columns must also make this code read the previous format.
 */
import type Database from 'better-sqlite3';
import type { CapturedChangeSet } from './change-set';
import { MergedChanges } from './merged-changes';

export interface JournalStats {
  /** Journal records (one per group commit) not yet applied to the tables. */
  journalRows: number;
  /** Table rows those records hold (merged within each batch, not yet across them). */
  pendingRows: number;
  /** Order seqs of the pending journal that the checks remember: bounded by the pending rows. */
  pendingLookups: number;
  /** Transactions that applied the journal to the tables. */
  materializations: number;
  /** Table rows they wrote. */
  rowsMaterialized: number;
}

type Statement = Database.Statement<unknown[]>;

function refuse(table: string, row: string, reason: string): never {
  throw new Error(`could not write ${table} row ${row}: ${reason}`);
}

/** A checked batch, ready for the writer thread. */
export interface JournalBatch {
  seq: number;
  text: string;
  /** Table rows it holds. */
  rows: number;
}

/** A journal record not yet in the tables: its seq, its table rows, and the orders and trades it names. */
interface PendingEntry {
  seq: number;
  rows: number;
  orderSeqs: number[];
  orderIds: string[];
  tradeSeqs: number[];
  tradeIds: string[];
}

export class Journal {
  /** The journal records not yet in the tables, oldest first, with what they hold that the checks look up. */
  private readonly entries: PendingEntry[] = [];
  private lastSeq = 0;
  /** Table rows those entries hold (merged within each batch, not across them). */
  private pendingRows = 0;
  /**
   * What the checks need to know of the pending entries at every batch: which order holds each seq, and the
   * newest entry that named it. A seq is forgotten once the tables hold that entry, so these stay as small as the
   * pending journal however long the venue runs under load. Trades, and orders by id, are looked up in the
   * entries themselves: only a row the engine never makes (an id or seq at or below the greatest seen, a trade
   * whose order is not in its batch) needs them.
   */
  private readonly pendingOrderSeqs = new Map<number, string>();
  private readonly pendingSeqEntries = new Map<number, number>();
  private materializations = 0;
  private rowsMaterialized = 0;

  /** Every user, stored or pending (users are few): id → number, and number → id. */
  private readonly userNumbers = new Map<string, number>();
  private readonly numberHolders = new Map<number, string>();
  /** The highest seqs stored or pending: a higher one is free without asking the tables. */
  private maxOrderSeq = 0;
  private maxTradeSeq = 0;
  /**
   * The greatest trade id stored or pending. The engine's ids are UUIDv7, increasing, so a new trade's id is
   * almost always past it and needs no lookup in the tables (one a trade, about a quarter of a query an order).
   */
  private maxTradeId = '';

  private readonly orderAtSeq: Statement;
  private readonly orderExists: Statement;
  private readonly tradeAtSeq: Statement;
  private readonly tradeExists: Statement;

  /** Attaches to a migrated database whose journal a previous run left has been applied, through `lastSeq`. */
  constructor(db: Database.Database, lastSeq: number) {
    this.orderAtSeq = db.prepare('SELECT order_id FROM orders WHERE seq = ?').pluck();
    this.orderExists = db.prepare('SELECT 1 FROM orders WHERE order_id = ?').pluck();
    this.tradeAtSeq = db.prepare('SELECT 1 FROM trades WHERE seq = ?').pluck();
    this.tradeExists = db.prepare('SELECT 1 FROM trades WHERE id = ?').pluck();
    for (const [id, number] of db.prepare('SELECT id, number FROM users').raw().all() as [string, bigint][]) {
      this.userNumbers.set(id, Number(number));
      this.numberHolders.set(Number(number), id);
    }
    this.maxOrderSeq = Number(db.prepare('SELECT coalesce(max(seq), 0) FROM orders').pluck().get());
    this.maxTradeSeq = Number(db.prepare('SELECT coalesce(max(seq), 0) FROM trades').pluck().get());
    this.maxTradeId = String(db.prepare("SELECT coalesce(max(id), '') FROM trades").pluck().get());
    this.lastSeq = lastSeq;
  }

  /** Table rows journalled and not yet applied. */
  get unapplied(): number {
    return this.pendingRows;
  }

  stats(): JournalStats {
    return {
      journalRows: this.entries.length,
      pendingRows: this.pendingRows,
      pendingLookups: this.pendingOrderSeqs.size,
      materializations: this.materializations,
      rowsMaterialized: this.rowsMaterialized,
    };
  }

  /**
   * Merges the batch by key, checks it and turns it into one journal record. Throws, having changed nothing, if
   * the tables would refuse any of it; undefined when it holds no row.
   */
  append(sets: readonly CapturedChangeSet[]): JournalBatch | undefined {
    const batch = new MergedChanges();
    for (const set of sets) batch.addSet(set);
    if (batch.rows === 0) return undefined;
    this.check(batch);
    const text = batch.toJournalText();
    this.lastSeq += 1;
    this.entries.push(this.absorb(batch, this.lastSeq));
    this.pendingRows += batch.rows;
    return { seq: this.lastSeq, text, rows: batch.rows };
  }

  /** The seq through which the tables must hold the journal for at most `rows` table rows to stay pending. */
  seqLeaving(rows: number): number {
    let left = this.pendingRows;
    for (const entry of this.entries) {
      if (left <= rows) return entry.seq - 1;
      left -= entry.rows;
    }
    return this.lastSeq;
  }

  /** The writer thread applied the journal records through `through` to the tables. */
  applied(through: number, rows: number): void {
    let done = 0;
    for (const entry of this.entries) {
      if (entry.seq > through) break;
      done += 1;
      this.pendingRows -= entry.rows;
      this.forget(entry, through);
    }
    this.entries.splice(0, done);
    this.materializations += 1;
    this.rowsMaterialized += rows;
  }

  /** The tables hold this entry: its seqs leave the pending maps unless a newer pending entry names them too. */
  private forget(entry: PendingEntry, through: number): void {
    for (const seq of entry.orderSeqs) {
      if ((this.pendingSeqEntries.get(seq) ?? 0) > through) continue;
      this.pendingSeqEntries.delete(seq);
      this.pendingOrderSeqs.delete(seq);
    }
  }

  private pendingOrder(id: string): boolean {
    return this.entries.some((entry) => entry.orderIds.includes(id));
  }

  private pendingTrade(id: string): boolean {
    return this.entries.some((entry) => entry.tradeIds.includes(id));
  }

  private pendingTradeSeq(seq: number): boolean {
    return this.entries.some((entry) => entry.tradeSeqs.includes(seq));
  }

  /** Refuses the batch if, applied after everything pending, it would break a key the tables enforce. */
  private check(batch: MergedChanges): void {
    const userExists = (id: string): boolean => batch.users.has(id) || this.userNumbers.has(id);
    const orderExists = (id: string): boolean =>
      batch.orders.has(id) || this.orderExists.get(id) !== undefined || this.pendingOrder(id);

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
      if (id <= this.maxTradeId && (this.tradeExists.get(id) !== undefined || this.pendingTrade(id))) {
        refuse('trades', id, 'UNIQUE constraint failed: trades.id');
      }
      if (batchTradeSeqs.has(seq) || (seq <= this.maxTradeSeq && (this.tradeAtSeq.get(seq) !== undefined || this.pendingTradeSeq(seq)))) {
        refuse('trades', id, 'UNIQUE constraint failed: trades.seq');
      }
      batchTradeSeqs.add(seq);
      if (!orderExists(t[6])) refuse('trades', id, 'FOREIGN KEY constraint failed (maker_order_id names no order)');
      if (!orderExists(t[7])) refuse('trades', id, 'FOREIGN KEY constraint failed (taker_order_id names no order)');
    }
  }

  /** Adds a journalled batch to what the checks know; returns its pending entry. */
  private absorb(batch: MergedChanges, entrySeq: number): PendingEntry {
    const entry: PendingEntry = { seq: entrySeq, rows: batch.rows, orderSeqs: [], orderIds: [], tradeSeqs: [], tradeIds: [] };
    for (const [id, number] of batch.users.values()) {
      const before = this.userNumbers.get(id);
      if (before !== undefined && before !== number && this.numberHolders.get(before) === id) this.numberHolders.delete(before);
      this.userNumbers.set(id, number);
      this.numberHolders.set(number, id);
    }
    for (const [seq, id] of batch.orders.values()) {
      this.pendingOrderSeqs.set(seq, id);
      this.pendingSeqEntries.set(seq, entrySeq);
      entry.orderSeqs.push(seq);
      entry.orderIds.push(id);
      if (seq > this.maxOrderSeq) this.maxOrderSeq = seq;
    }
    for (const [seq, id] of batch.trades.values()) {
      entry.tradeSeqs.push(seq);
      entry.tradeIds.push(id);
      if (seq > this.maxTradeSeq) this.maxTradeSeq = seq;
      if (id > this.maxTradeId) this.maxTradeId = id;
    }
    return entry;
  }
}
