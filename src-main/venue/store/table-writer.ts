/**
 * Every write the store makes to its database after opening: journal rows in, and journal rows applied to the
 * tables. It runs on the store's writer thread (writer-thread.ts), so neither the fsync of a group commit nor
 * the indexes of the order table take time from matching; at open, the core's thread uses the same code to
 * apply whatever journal a previous run left.
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
} from './change-set';
import { MergedChanges, parseJournalEntry } from './merged-changes';

/** One journal row: its seq (given by the core, in commit order) and its text (see merged-changes.ts). */
export type JournalRow = readonly [seq: number, text: string];

type Statement = Database.Statement<unknown[]>;

export class TableWriter {
  private readonly insertEntry: Statement;
  private readonly deleteEntries: Statement;
  private readonly upsertUser: Statement;
  private readonly upsertApiKey: Statement;
  private readonly upsertBalance: Statement;
  private readonly insertOrder: Statement;
  private readonly upsertOrder: Statement;
  private readonly insertTrade: Statement;
  private readonly upsertMeta: Statement;
  private readonly syncNormal: Statement;
  private readonly syncFull: Statement;
  private readonly appendInTransaction: (rows: readonly JournalRow[]) => void;
  private readonly applyInTransaction: (merged: MergedChanges, through: number) => void;

  constructor(private readonly db: Database.Database) {
    this.insertEntry = db.prepare('INSERT INTO journal (seq, batch) VALUES (?, ?)');
    this.deleteEntries = db.prepare('DELETE FROM journal WHERE seq <= ?');
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
    const append = db.transaction((rows: readonly JournalRow[]) => {
      for (const row of rows) this.insertEntry.run(row[0], row[1]);
    });
    this.appendInTransaction = (rows) => append.immediate(rows);
    const apply = db.transaction((merged: MergedChanges, through: number) => this.write(merged, through));
    this.applyInTransaction = (merged, through) => apply.immediate(merged, through);
  }

  /** Writes journal rows in one transaction with synchronous FULL: once this returns they survive a power cut. */
  append(rows: readonly JournalRow[]): void {
    if (rows.length > 0) this.appendInTransaction(rows);
  }

  /**
   * Writes the rows to the tables, merged across them (an order that went SUBMITTED, ACTIVE, DONE over three
   * group commits is written once), and deletes them from the journal IN THE SAME TRANSACTION: at any instant
   * tables plus journal hold exactly what was acknowledged. That transaction runs with synchronous NORMAL: it
   * adds nothing that is not already durable in the journal, and WAL replay keeps it whole or drops it whole
   * (the journal rows then come back with it). On failure nothing changes and the error says so.
   * Returns the table rows written.
   */
  apply(rows: readonly JournalRow[]): number {
    const last = rows.at(-1);
    if (last === undefined) return 0;
    const merged = new MergedChanges();
    this.syncNormal.run();
    try {
      for (const [seq, text] of rows) merged.addSet(parseJournalEntry(seq, text));
      this.applyInTransaction(merged, last[0]);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`the journal could not be applied to the tables, and keeps everything: ${reason}`, { cause: err });
    } finally {
      this.syncFull.run();
    }
    return merged.rows;
  }

  /** The journal rows a previous run left, oldest first. */
  leftBehind(): JournalRow[] {
    const rows = this.db.prepare('SELECT seq, batch FROM journal ORDER BY seq').raw().all() as [bigint, string][];
    return rows.map(([seq, text]) => [Number(seq), text]);
  }

  /** Parents first: users, then what refers to users, then orders, then trades. */
  private write(p: MergedChanges, through: number): void {
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
      this.deleteEntries.run((row = [through]));
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
