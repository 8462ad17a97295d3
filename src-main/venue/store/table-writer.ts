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

/** Rows forget() deleted. */
export interface Forgotten {
  orders: number;
  trades: number;
}

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
  private readonly forgetInTransaction: (users: readonly string[], before: bigint, limit: number) => Forgotten;

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
    // Trades first (they refer to their orders), and only trades between these users whose two orders are done:
    // an open order's fills are what a restart rebuilds its filled size and fees from. trades.seq is the rowid and
    // rises with time, so the old ones are a prefix of the table: the scan stops at the first one at or past `before`.
    const deleteTrades = db.prepare(
      `DELETE FROM trades WHERE seq IN (
         SELECT t.seq FROM trades t
         WHERE t.seq < coalesce((SELECT seq FROM trades WHERE time >= @before ORDER BY seq LIMIT 1), 9223372036854775807)
           AND t.maker_user_id IN (SELECT value FROM json_each(@users)) AND t.taker_user_id IN (SELECT value FROM json_each(@users))
           AND (SELECT status FROM orders WHERE order_id = t.maker_order_id) = 'DONE'
           AND (SELECT status FROM orders WHERE order_id = t.taker_order_id) = 'DONE'
         ORDER BY t.seq LIMIT @limit)`,
    );
    // One user at a time, down orders_by_user_updated; an order a kept trade names (one of the trader's) stays.
    const deleteOrders = db.prepare(
      `DELETE FROM orders WHERE seq IN (
         SELECT o.seq FROM orders o
         WHERE o.user_id = @user AND o.updated_at < @before AND o.status = 'DONE'
           AND NOT EXISTS (SELECT 1 FROM trades WHERE maker_order_id = o.order_id)
           AND NOT EXISTS (SELECT 1 FROM trades WHERE taker_order_id = o.order_id)
         LIMIT @limit)`,
    );
    const forget = db.transaction((users: readonly string[], before: bigint, limit: number): Forgotten => {
      const trades = deleteTrades.run({ users: JSON.stringify(users), before, limit }).changes;
      let orders = 0;
      for (const user of users) orders += deleteOrders.run({ user, before, limit }).changes;
      return { orders, trades };
    });
    this.forgetInTransaction = (users, before, limit) => forget.immediate(users, before, limit);
  }

  /**
   * Deletes what these users did before `before` (UNIX ns) and is over: their done orders and the trades among
   * them, at most `limit` trades and `limit` orders of each user a call. For the simulated users, whose history
   * would otherwise grow the file by about 100 MB an hour; nothing else refers to those rows (the users' totals and
   * balances have their own, the candles theirs). Returns how many rows went.
   */
  forget(users: readonly string[], before: bigint, limit: number): Forgotten {
    if (users.length === 0) return { orders: 0, trades: 0 };
    return this.forgetInTransaction(users, before, limit);
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
