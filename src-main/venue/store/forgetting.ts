/**
 * Deleting history nobody needs: the simulated users' finished orders and the trades among them, which at the
 * default speed grew the data folder by about 120 MB an hour for as long as the desk ran. Runs on the store's
 * writer thread, a bounded transaction at a time, between the journal records it applies (writer-thread.ts), once
 * the tables hold every record acknowledged when it was asked (VenueStore.forgetHistory).
 */
import type Database from 'better-sqlite3';

export interface ForgetRequest {
  /** Whose history: the simulated users. */
  users: string[];
  /** The products they trade: only these products' trades are looked at. */
  products: string[];
  /** UNIX ns: only what was over before this goes. */
  before: bigint;
  /** The newest trades of each product a restart reads back as its tape and last price: never deleted. */
  keepTrades: number;
}

/** Rows deleted. */
export interface Forgotten {
  orders: number;
  trades: number;
}

export class Forgetting {
  private readonly step: (request: ForgetRequest, budget: number) => Forgotten;

  constructor(db: Database.Database) {
    // Per product, the first trade that stays for its age or as one of the newest: seq rises with time, so what
    // may go lies below it, and the deletion walks only the product's old trades, down trades_by_product.
    const firstNewest = db.prepare('SELECT seq FROM trades WHERE product_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?').pluck().safeIntegers(true);
    const seqRange = db.prepare('SELECT min(seq), max(seq) FROM trades WHERE product_id = ?').raw().safeIntegers(true);
    const firstFrom = db.prepare('SELECT seq, time FROM trades WHERE product_id = ? AND seq >= ? ORDER BY seq LIMIT 1').raw().safeIntegers(true);
    // The first trade of `before` or later, halving the product's seqs down trades_by_product: time has no index, and a
    // scan for it walked the product's whole old history on every step (126 ms at 1.9M old trades, on the writer).
    const firstRecent = (product: string, before: bigint): bigint | undefined => {
      const [low, high] = seqRange.get(product) as [bigint | null, bigint | null];
      if (low === null || high === null) return undefined;
      let found: bigint | undefined;
      // Any earlier one than `found` has a seq in [lo, hi).
      let lo = low;
      let hi = high + 1n;
      while (lo < hi) {
        const mid = lo + (hi - lo) / 2n;
        const row = firstFrom.get(product, mid) as [bigint, bigint] | undefined;
        if (row === undefined || row[0] >= hi) hi = mid; // none in [mid, hi)
        else if (row[1] >= before) {
          // None in [mid, row) either.
          found = row[0];
          hi = mid;
        } else lo = row[0] + 1n; // it, and every trade before it, is older
      }
      return found;
    };
    // Trades first (they name their orders), and only those between these users whose two orders are done: an
    // open order's fills are what a restart rebuilds its filled size and fees from.
    const deleteTrades = db.prepare(
      `DELETE FROM trades WHERE seq IN (
         SELECT t.seq FROM trades t
         WHERE t.product_id = @product AND t.seq < @below
           AND t.maker_user_id IN (SELECT value FROM json_each(@users)) AND t.taker_user_id IN (SELECT value FROM json_each(@users))
           AND (SELECT status FROM orders WHERE order_id = t.maker_order_id) = 'DONE'
           AND (SELECT status FROM orders WHERE order_id = t.taker_order_id) = 'DONE'
         ORDER BY t.product_id, t.seq LIMIT @limit)`,
    );
    // One user at a time, down orders_by_user_updated; an order a kept trade names (one of the trader's) stays, and
    // so does the newest order, whose seq a restart carries on from.
    const deleteOrders = db.prepare(
      `DELETE FROM orders WHERE seq IN (
         SELECT o.seq FROM orders o
         WHERE o.user_id = @user AND o.updated_at < @before AND o.status = 'DONE' AND o.seq < (SELECT max(seq) FROM orders)
           AND NOT EXISTS (SELECT 1 FROM trades WHERE maker_order_id = o.order_id)
           AND NOT EXISTS (SELECT 1 FROM trades WHERE taker_order_id = o.order_id)
         LIMIT @limit)`,
    );
    const step = db.transaction(({ users, products, before, keepTrades }: ForgetRequest, budget: number): Forgotten => {
      const forgotten: Forgotten = { orders: 0, trades: 0 };
      const usersJson = JSON.stringify(users);
      for (const product of products) {
        const limit = budget - forgotten.trades;
        if (limit <= 0) break;
        const newest = firstNewest.get(product, Math.max(0, keepTrades - 1)) as bigint | undefined;
        if (newest === undefined) continue; // no more than keepTrades trades: all stay
        const recent = firstRecent(product, before);
        const below = recent === undefined || newest < recent ? newest : recent;
        forgotten.trades += deleteTrades.run({ product, below, users: usersJson, limit }).changes;
      }
      for (const user of users) {
        const limit = budget - forgotten.trades - forgotten.orders;
        if (limit <= 0) break;
        forgotten.orders += deleteOrders.run({ user, before, limit }).changes;
      }
      return forgotten;
    });
    // IMMEDIATE, as the writer's own transactions: it takes the write lock before it reads.
    this.step = (request, budget) => step.immediate(request, budget);
  }

  /**
   * One transaction deleting at most `budget` rows of what `request` names; the caller asks again while a step
   * uses the whole budget, between the journal records it applies, so a read never waits behind a long deletion.
   */
  forget(request: ForgetRequest, budget: number): Forgotten {
    if (request.users.length === 0) return { orders: 0, trades: 0 };
    return this.step(request, budget);
  }
}
