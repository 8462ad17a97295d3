import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OrderRow, VenueStore } from '../../../src-main/venue/store';
import { order, open, tempDir, trade, user } from './fixtures';

const alice = user(1);
const bob = user(2);
const T0 = 1_800_000_000_000_000_000n;
const at = (seconds: number): bigint => T0 + BigInt(seconds) * 1_000_000_000n;

describe('start-up load', () => {
  it('reads exactly the open orders, in seq order, from a store holding many done ones', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file);
    const orders: OrderRow[] = [];
    for (let seq = 1; seq <= 2_000; seq += 1) {
      const owner = seq % 2 === 0 ? alice : bob;
      const open = seq % 10 === 0 ? 'ACTIVE' : seq % 25 === 0 ? 'SCHEDULED' : seq % 49 === 0 ? 'SUBMITTED' : undefined;
      orders.push(
        open === undefined
          ? order(owner, seq, { status: 'DONE', doneReason: 'FILLED', restingLots: 0 })
          : order(owner, seq, { status: open }),
      );
    }
    // Shuffled writes: the load order comes from seq, not from insertion.
    const shuffled = [...orders].sort((a, b) => ((a.seq * 7919) % 2003) - ((b.seq * 7919) % 2003));
    await store.commit({ users: [alice, bob], orders: shuffled });
    // An order that was open and is now done must not come back.
    await store.commit({ orders: [{ ...order(alice, 10), status: 'DONE', doneReason: 'CANCELED', restingLots: 0 }] });

    const snapshot = store.load();
    const expected = orders.filter((o) => o.status !== 'DONE' && o.seq !== 10);
    expect(snapshot.openOrders).toEqual(expected);
    expect(snapshot.maxOrderSeq).toBe(2_000);
    expect(snapshot.lastTradeSeq).toBe(0);
    expect(snapshot.markets).toEqual([]);

    // And it gets them through the partial index instead of reading the whole history.
    const inspector = new Database(file, { readonly: true });
    const plan = inspector
      .prepare("EXPLAIN QUERY PLAN SELECT * FROM orders WHERE status != 'DONE' ORDER BY seq")
      .all()
      .map((r) => (r as { detail: string }).detail);
    expect(plan).toEqual(['SCAN orders USING INDEX orders_open']);
    inspector.close();
  });

  it('gives each traded product its last price and newest trades, newest first, up to the limit', async () => {
    const store = open(path.join(tempDir(), 'venue.db'));
    const btcMaker = order(alice, 1);
    const btcTaker = order(bob, 2, { side: 'SELL', status: 'DONE', doneReason: 'FILLED', restingLots: 0 });
    const solMaker = order(alice, 3, { productId: 'SOL-VND', limitPrice: '4000000' });
    const solTaker = order(bob, 4, { productId: 'SOL-VND', side: 'SELL', status: 'DONE', doneReason: 'FILLED' });
    const trades = [
      trade(1, btcMaker, btcTaker, { price: '2500000000' }),
      trade(2, solMaker, solTaker, { price: '4000000' }),
      trade(3, btcMaker, btcTaker, { price: '2500010000' }),
      trade(4, btcMaker, btcTaker, { price: '2500020000' }),
    ];
    await store.commit({ users: [alice, bob], orders: [btcMaker, btcTaker, solMaker, solTaker], trades });

    const snapshot = store.load(2);
    expect(snapshot.lastTradeSeq).toBe(4);
    expect(snapshot.markets).toEqual([
      { productId: 'BTC-VND', lastTradePrice: '2500020000', recentTrades: [trades[3], trades[2]], candles: [] },
      { productId: 'SOL-VND', lastTradePrice: '4000000', recentTrades: [trades[1]], candles: [] },
    ]);
    expect(store.recentTrades('BTC-VND', 10).map((t) => t.seq)).toEqual([4, 3, 1]);
    expect(store.recentTrades('ETH-VND', 10)).toEqual([]);
  });
});

describe('order and trade lookups', () => {
  let store: VenueStore;
  // Alice's orders: seq, product, status, client id, created (s), updated (s).
  const table: [number, string, OrderRow['status'], string, number, number][] = [
    [1, 'BTC-VND', 'DONE', 'Alpha', 10, 15],
    [2, 'ETH-VND', 'ACTIVE', '', 20, 20],
    [3, 'BTC-VND', 'ACTIVE', 'alpha', 30, 31],
    [4, 'SOL-VND', 'SCHEDULED', 'beta', 40, 90],
    [5, 'BTC-VND', 'DONE', 'ALPHA', 50, 55],
    [6, 'ETH-VND', 'DONE', 'gamma', 50, 60],
  ];
  const mine = table.map(([seq, productId, status, clientOrderId, created, updated]) =>
    order(alice, seq, { productId, status, clientOrderId, createdAt: at(created), updatedAt: at(updated) }),
  );
  const theirs = order(bob, 7, { clientOrderId: 'alpha', createdAt: at(99), updatedAt: at(99) });
  const seqs = (rows: OrderRow[]): number[] => rows.map((o) => o.seq);

  beforeEach(async () => {
    store = open(path.join(tempDir(), 'venue.db'));
    await store.commit({ users: [alice, bob], orders: [...mine, theirs] });
  });

  it('lists archived orders newest first by default order, only the asking user', () => {
    expect(seqs(store.archivedOrders(alice.id, { limit: 100, sort: '-created_at' }))).toEqual([6, 5, 4, 3, 2, 1]);
    expect(seqs(store.archivedOrders(bob.id, { limit: 100, sort: '-created_at' }))).toEqual([7]);
    expect(store.archivedOrders(user(3).id, { limit: 100, sort: '-created_at' })).toEqual([]);
  });

  it('sorts by either timestamp in either direction, ties by seq', () => {
    expect(seqs(store.archivedOrders(alice.id, { limit: 100, sort: 'created_at' }))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seqs(store.archivedOrders(alice.id, { limit: 100, sort: 'updated_at' }))).toEqual([1, 2, 3, 5, 6, 4]);
    expect(seqs(store.archivedOrders(alice.id, { limit: 100, sort: '-updated_at' }))).toEqual([4, 6, 5, 3, 2, 1]);
  });

  it('filters by products, created_at bounds (inclusive), status and client order id (any case), and limits', () => {
    const q = { limit: 100, sort: 'created_at' } as const;
    expect(seqs(store.archivedOrders(alice.id, { ...q, productIds: ['BTC-VND', 'SOL-VND'] }))).toEqual([1, 3, 4, 5]);
    expect(seqs(store.archivedOrders(alice.id, { ...q, productIds: [] }))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seqs(store.archivedOrders(alice.id, { ...q, startTime: at(20), endTime: at(40) }))).toEqual([2, 3, 4]);
    expect(seqs(store.archivedOrders(alice.id, { ...q, startTime: at(50) }))).toEqual([5, 6]);
    expect(seqs(store.archivedOrders(alice.id, { ...q, endTime: at(19) }))).toEqual([1]);
    expect(seqs(store.archivedOrders(alice.id, { ...q, status: 'DONE' }))).toEqual([1, 5, 6]);
    expect(seqs(store.archivedOrders(alice.id, { ...q, clientOrderId: 'aLpHa' }))).toEqual([1, 3, 5]);
    expect(seqs(store.archivedOrders(alice.id, { ...q, clientOrderId: '' }))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seqs(store.archivedOrders(alice.id, { ...q, limit: 2, sort: '-created_at' }))).toEqual([6, 5]);
    expect(
      seqs(
        store.archivedOrders(alice.id, {
          limit: 1,
          sort: '-updated_at',
          productIds: ['BTC-VND'],
          status: 'DONE',
          clientOrderId: 'ALPHA',
          startTime: at(0),
          endTime: at(60),
        }),
      ),
    ).toEqual([5]);
    expect(() => store.archivedOrders(alice.id, { ...q, limit: 0 })).toThrow(RangeError);
  });

  it('finds an order by id only for its owner', () => {
    expect(store.orderById(alice.id, mine[2]?.orderId ?? '')).toEqual(mine[2]);
    expect(store.orderById(bob.id, mine[2]?.orderId ?? '')).toBeUndefined();
    expect(store.orderById(alice.id, 'no-such-order')).toBeUndefined();
  });

  it('finds the newest order with a client order id, case-insensitively', () => {
    expect(store.newestOrderByClientId(alice.id, 'ALPHA')?.seq).toBe(5);
    expect(store.newestOrderByClientId(alice.id, 'Beta')?.seq).toBe(4);
    expect(store.newestOrderByClientId(bob.id, 'Alpha')?.seq).toBe(7);
    expect(store.newestOrderByClientId(alice.id, 'delta')).toBeUndefined();
    expect(store.newestOrderByClientId(alice.id, '')).toBeUndefined();
  });

  it('finds the trades of orders on both sides, in time order', async () => {
    const [o1, o2, o3] = mine;
    if (o1 === undefined || o2 === undefined || o3 === undefined) throw new Error('fixture');
    await store.commit({
      trades: [trade(1, o1, theirs), trade(2, theirs, o2), trade(3, o3, o1), trade(4, o2, theirs)],
    });
    expect(store.tradesOfOrders([o1.orderId]).map((t) => t.seq)).toEqual([1, 3]);
    expect(store.tradesOfOrders([o2.orderId, o3.orderId]).map((t) => t.seq)).toEqual([2, 3, 4]);
    expect(store.tradesOfOrders([theirs.orderId]).map((t) => t.seq)).toEqual([1, 2, 4]);
    expect(store.tradesOfOrders([])).toEqual([]);
  });

  it('reads meta values by key', async () => {
    await store.commit({ meta: { local_user: alice.id } });
    expect(store.getMeta('local_user')).toBe(alice.id);
    expect(store.getMeta('absent')).toBeUndefined();
  });
});
