/**
 * Every write the store makes to its tables after opening: journal records applied to them. It runs on the
 * store's writer thread (writer-thread.ts), so the indexes of the order table take no time from matching; at
 * open, the core's thread uses the same code to apply whatever journal a previous run left.
 */
import type Database from 'better-sqlite3';
import {
  API_KEY_COLUMNS,
  BALANCE_COLUMNS,
  CANDLE_COLUMNS,
  ORDER_COLUMNS,
  TRADE_COLUMNS,
  USER_COLUMNS,
  insertSql,
  upsertSql,
} from './change-set';
import type { JournalRecord } from './journal-file';
import { MergedChanges, parseJournalEntry } from './merged-changes';

type Statement = Database.Statement<unknown[]>;

export class TableWriter {
  private readonly selectPosition: Database.Statement<[], unknown>;
  private readonly movePosition: Statement;
  private readonly upsertUser: Statement;
  private readonly upsertApiKey: Statement;
  private readonly upsertBalance: Statement;
  private readonly insertOrder: Statement;
  private readonly upsertOrder: Statement;
  private readonly insertTrade: Statement;
  private readonly upsertCandle: Statement;
  private readonly upsertMeta: Statement;
  private readonly syncNormal: Statement;
  private readonly syncFull: Statement;
  private readonly applyInTransaction: (merged: MergedChanges, through: number) => void;

  constructor(private readonly db: Database.Database) {
    this.selectPosition = db.prepare('SELECT through FROM journal_position').pluck();
    this.movePosition = db.prepare('UPDATE journal_position SET through = ?');
    this.upsertUser = db.prepare(upsertSql('users', USER_COLUMNS, ['id']));
    const blobs = { secret_hash: 'unhex(?)', secret_nonce: 'unhex(?)' };
    this.upsertApiKey = db.prepare(upsertSql('api_keys', API_KEY_COLUMNS, ['api_key'], blobs));
    this.upsertBalance = db.prepare(upsertSql('balances', BALANCE_COLUMNS, ['user_id', 'asset']));
    // A new order is inserted by a statement without the upsert's DO UPDATE of every column, which costs SQLite about
    // half as much again per row even when nothing conflicts; an order already stored then takes the upsert.
    this.insertOrder = db.prepare(`${insertSql('orders', ORDER_COLUMNS)} ON CONFLICT (order_id) DO NOTHING`);
    this.upsertOrder = db.prepare(upsertSql('orders', ORDER_COLUMNS, ['order_id']));
    this.insertTrade = db.prepare(insertSql('trades', TRADE_COLUMNS));
    this.upsertCandle = db.prepare(upsertSql('candles', CANDLE_COLUMNS, ['product_id', 'start']));
    this.upsertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.syncNormal = db.prepare('PRAGMA synchronous = NORMAL');
    this.syncFull = db.prepare('PRAGMA synchronous = FULL');
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads first could fail with BUSY
    // on upgrade if another connection (a backup, an inspector) wrote in between.
    const apply = db.transaction((merged: MergedChanges, through: number) => this.write(merged, through));
    this.applyInTransaction = (merged, through) => apply.immediate(merged, through);
  }

  /** The seq of the newest journal record the tables hold. */
  position(): number {
    return Number(this.selectPosition.get());
  }

  /**
   * Writes the records to the tables, merged across them (an order that went SUBMITTED, ACTIVE, DONE over three
   * group commits is written once), and moves journal_position to the last of them IN THE SAME TRANSACTION, so a
   * crash keeps both or neither. `durable`: commit with synchronous FULL, after which the journal segments holding
   * only these records (and earlier ones) may be deleted; otherwise NORMAL, which saves the writer thread an fsync
   * and may lose the transaction in a power cut, position and rows together, while the journal still has them.
   * The records must follow on from the position (readJournal and leftBehind skip what the tables hold). On
   * failure nothing changes and the error says so. Returns the table rows written.
   */
  apply(records: readonly JournalRecord[], durable = true): number {
    const last = records.at(-1);
    if (last === undefined) return 0;
    const merged = new MergedChanges();
    if (!durable) this.syncNormal.run();
    try {
      for (const { seq, text } of records) merged.addSet(parseJournalEntry(seq, text));
      this.applyInTransaction(merged, last.seq);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`the journal could not be applied to the tables, and keeps everything: ${reason}`, { cause: err });
    } finally {
      if (!durable) this.syncFull.run();
    }
    return merged.rows;
  }

  /**
   * Journal rows a build before the journal file left in the `journal` table and the tables do not hold yet,
   * oldest first: apply() them, then dropLeftBehind().
   */
  leftBehind(): JournalRecord[] {
    const sql = 'SELECT seq, batch FROM journal WHERE seq > (SELECT through FROM journal_position) ORDER BY seq';
    const rows = this.db.prepare(sql).raw().all() as [bigint, string][];
    return rows.map(([seq, text]) => ({ seq: Number(seq), text }));
  }

  dropLeftBehind(): void {
    this.db.prepare('DELETE FROM journal').run();
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
      table = 'candles';
      for (const c of p.candles.values()) this.upsertCandle.run((row = c));
      table = 'meta';
      for (const m of p.meta) this.upsertMeta.run((row = m));
      table = 'journal_position';
      this.movePosition.run((row = [through]));
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
    case 'candles':
      return `${String(row[0])} ${String(row[1])}`;
    case 'orders':
    case 'trades':
      return String(row[1]);
    default:
      return String(row[0]);
  }
}
