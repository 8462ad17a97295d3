import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ChangeSet } from '../../../src-main/venue/store';
import { balance, journalRecords, open, order, pendingJournal, tempDir, trade, user } from './fixtures';

function secondConnection(file: string): Database.Database {
  const db = new Database(file, { readonly: true });
  db.defaultSafeIntegers(true);
  return db;
}

/** The journal is applied to the tables only when a test reads (or closes), never on a timer. */
const NOT_ON_A_TIMER = { materializeDelayMs: 3_600_000 };

describe('group commit', () => {
  it('writes 1,000 concurrent commits in one transaction, each durable on disk once it resolves', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file, NOT_ON_A_TIMER);
    const owner = user(1);
    await store.commit({ users: [owner] });
    const reader = secondConnection(file);
    // Order ids are unique strings, so finding one in a journal record's text finds its change set.
    const inJournal = (orderId: string): boolean => journalRecords(file).some((r) => r.text.includes(orderId));

    // Ten producers interleaving on microtasks, as request handlers of one turn of the event loop would.
    const visibleOnResolve: Promise<boolean>[] = [];
    const producers = Array.from({ length: 10 }, async (_, p) => {
      for (let i = 0; i < 100; i += 1) {
        const o = order(owner, 1 + p * 100 + i);
        const committed = store.commit({ orders: [o], balances: [balance(owner, 'VND', BigInt(p * 100 + i))] });
        visibleOnResolve.push(committed.then(() => inJournal(o.orderId)));
        await Promise.resolve();
      }
    });
    await Promise.all(producers);

    const visible = await Promise.all(visibleOnResolve);
    expect(visible).toHaveLength(1_000);
    expect(visible.every(Boolean)).toBe(true);
    expect(pendingJournal(file)).toHaveLength(2);
    expect(store.stats()).toMatchObject({ batches: 1 + 1, changeSets: 1 + 1_000, failedBatches: 0 });
    // A read applies the journal to the tables first.
    expect(store.archivedOrders(owner.id, { limit: 2_000, sort: 'created_at' })).toHaveLength(1_000);
    expect(reader.prepare('SELECT count(*) FROM orders').pluck().get()).toBe(1_000n);
    expect(pendingJournal(file)).toHaveLength(0);
    reader.close();
  });

  it('writes a burst in one transaction when nobody awaits in between', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file, NOT_ON_A_TIMER);
    const owner = user(1);
    const journalRows = (): number => pendingJournal(file).length;

    const commits = [store.commit({ users: [owner] })];
    for (let seq = 1; seq <= 1_000; seq += 1) commits.push(store.commit({ orders: [order(owner, seq)] }));
    // Nothing is durable yet.
    expect(journalRows()).toBe(0);
    const rowsOnResolve = await Promise.all(commits.map((c) => c.then(() => journalRows())));

    // One journal record holds the whole burst.
    expect(rowsOnResolve.every((n) => n === 1)).toBe(true);
    expect(store.stats()).toMatchObject({ batches: 1, changeSets: 1_001, failedBatches: 0, journalRows: 1, pendingRows: 1_001 });
    expect(store.load().openOrders).toHaveLength(1_000);
  });

  it('writes at once when the queue reaches its size bound', async () => {
    const store = open(path.join(tempDir(), 'venue.db'), { maxBatch: 100 });
    const owner = user(1);
    const commits = [store.commit({ users: [owner] })];
    for (let seq = 1; seq <= 999; seq += 1) commits.push(store.commit({ orders: [order(owner, seq)] }));
    // Ten full batches were handed to the writer thread synchronously by the commits that filled them.
    expect(store.stats().journalRows).toBe(10);
    await Promise.all(commits);
    expect(store.stats()).toMatchObject({ batches: 10, changeSets: 1_000, failedBatches: 0 });
  });

  it('applies change sets in the order they were committed: the last upsert of a key wins', async () => {
    const store = open(path.join(tempDir(), 'venue.db'));
    const owner = user(1);
    const placed = order(owner, 1, { status: 'SUBMITTED' });
    const sets: ChangeSet[] = [
      { users: [owner], orders: [placed], balances: [balance(owner, 'VND', 100n, 0n)] },
      { orders: [{ ...placed, status: 'ACTIVE' }], balances: [balance(owner, 'VND', 60n, 40n)] },
      { orders: [{ ...placed, status: 'DONE', doneReason: 'CANCELED', restingLots: 0 }], balances: [balance(owner, 'VND', 100n, 0n)] },
      { users: [{ ...owner, totalOrders: 1n, totalDoneOrders: 1n }], meta: { phase: 'one' } },
      { meta: { phase: 'two' } },
    ];
    await Promise.all(sets.map((s) => store.commit(s)));
    // And across batches.
    await store.commit({ balances: [balance(owner, 'VND', 7n, 3n)] });

    expect(store.orderById(owner.id, placed.orderId)).toMatchObject({ status: 'DONE', doneReason: 'CANCELED', restingLots: 0 });
    const snapshot = store.load();
    expect(snapshot.balances).toEqual([balance(owner, 'VND', 7n, 3n)]);
    expect(snapshot.users).toEqual([{ ...owner, totalOrders: 1n, totalDoneOrders: 1n }]);
    expect(snapshot.openOrders).toEqual([]);
    expect(snapshot.meta).toEqual({ phase: 'two' });
  });

  it('writes the values a change set had when it was committed, even if the caller changes the rows later', async () => {
    const store = open(path.join(tempDir(), 'venue.db'));
    const owner = user(1);
    const live = order(owner, 1, { status: 'ACTIVE', filledBaseSize: '0' });
    const cash = balance(owner, 'VND', 100n);
    const meta = { phase: 'committed' };
    const committed = store.commit({ users: [owner], orders: [live], balances: [cash], meta });
    live.filledBaseSize = '0.005';
    cash.free = 0n;
    meta.phase = 'changed afterwards';
    await committed;

    const snapshot = store.load();
    expect(snapshot.openOrders[0]?.filledBaseSize).toBe('0');
    expect(snapshot.balances[0]?.free).toBe(100n);
    expect(snapshot.meta).toEqual({ phase: 'committed' });
  });

  it('rejects every promise of a failing batch and leaves the database unchanged', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file);
    const owner = user(1);
    const first = order(owner, 1);
    await store.commit({ users: [owner], orders: [first], balances: [balance(owner, 'VND', 100n)] });
    const before = store.load();

    const good = store.commit({ balances: [balance(owner, 'VND', 1n)], meta: { touched: 'yes' } });
    const alsoGood = store.commit({ orders: [order(owner, 2)] });
    // A trade whose maker order does not exist breaks a foreign key.
    const ghost = order(owner, 99);
    const bad = store.commit({ trades: [trade(1, ghost, first)] });
    const results = await Promise.allSettled([good, alsoGood, bad, store.flush()]);

    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    const reasons = results.map((r) => (r.status === 'rejected' ? String(r.reason) : ''));
    expect(new Set(reasons).size).toBe(1);
    expect(reasons[0]).toMatch(/FOREIGN KEY/);
    expect(store.load()).toEqual(before);
    expect(store.stats()).toMatchObject({ batches: 1, failedBatches: 1 });

    // The store goes on working after a failed batch.
    await store.commit({ orders: [order(owner, 2)] });
    expect(store.load().openOrders.map((o) => o.seq)).toEqual([1, 2]);
  });

  it('flush waits for everything queued before it, and resolves at once when nothing is queued', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file, NOT_ON_A_TIMER);
    await store.flush();
    const owner = user(1);
    void store.commit({ users: [owner] });
    void store.commit({ orders: [order(owner, 1)] });
    await store.flush();
    expect(journalRecords(file).filter((r) => r.text.includes(order(owner, 1).orderId))).toHaveLength(1);
    const reader = secondConnection(file);
    store.materialize();
    expect(reader.prepare('SELECT count(*) FROM orders').pluck().get()).toBe(1n);
    reader.close();
  });
});

describe('close and reopen', () => {
  it('close writes what is queued, later commits are refused, and a reopened store restores everything', async () => {
    const file = path.join(tempDir(), 'nested', 'folder', 'venue.db');
    const store = open(file);
    const owner = user(1, { isAdmin: true });
    const other = user(2);
    const resting = order(owner, 1, { side: 'SELL', limitPrice: '2600000000' });
    const taker = order(other, 2, { status: 'DONE', doneReason: 'FILLED', restingLots: 0 });
    const queued = [
      store.commit({ users: [owner, other], meta: { local_user: owner.id } }),
      store.commit({ balances: [balance(owner, 'BTC', 10n * 10n ** 8n, 10n ** 6n), balance(other, 'VND', 5n)] }),
      store.commit({ orders: [resting, taker], trades: [trade(1, resting, taker)] }),
    ];
    store.close();
    await Promise.all(queued);
    await expect(store.commit({ meta: { late: 'yes' } })).rejects.toThrow('the venue store is closed');

    const reopened = open(file);
    const snapshot = reopened.load();
    expect(snapshot.meta).toEqual({ local_user: owner.id });
    expect(snapshot.users).toEqual([owner, other]);
    expect(snapshot.balances).toEqual(expect.arrayContaining([balance(owner, 'BTC', 10n * 10n ** 8n, 10n ** 6n), balance(other, 'VND', 5n)]));
    expect(snapshot.openOrders).toEqual([resting]);
    expect(snapshot.maxOrderSeq).toBe(2);
    expect(snapshot.lastTradeSeq).toBe(1);
    expect(snapshot.markets).toEqual([{ productId: 'BTC-VND', lastTradePrice: '2600000000', recentTrades: [trade(1, resting, taker)], candles: [] }]);
    expect(reopened.integrityCheck()).toBe('ok');
  });
});
