// Active orders and cancels (interface 4.3-4.6, section 3's cancel transition, section 8's list limits).
import { describe, expect, it } from 'vitest';
import {
  BTC,
  activeOrders,
  balanceOf,
  expectError,
  expectOk,
  expectOrderRecord,
  getAccount,
  getOrder,
  limit,
  placeOrder,
  px,
  useVenue,
  type OrderBody,
  type TestVenue,
  type Trader,
  type WireOrder,
} from '../harness';

const venue = useVenue({ cleanBooks: true });

const UNKNOWN_ID = '0b6c8a4e-1d3f-4c6b-9a7e-2f5d8c1b3a90';

async function trader(v: TestVenue): Promise<Trader> {
  return v.newTrader({ BTC: '10', ETH: '10', SOL: '100', VND: '100000000000' });
}

/** A resting order far from the market, so nothing in these tests ever trades. */
function resting(n: number, extra: OrderBody = {}): OrderBody {
  return limit('BUY', px(-1000 - n), '0.001', extra);
}

interface RefList {
  id: string;
  client_order_id: string;
}

interface BulkReply {
  cancel_requested_orders: RefList[];
  not_opened_orders: RefList[];
  already_cancel_requested_orders: RefList[];
}

async function bulk(v: TestVenue, t: Trader, body: unknown): Promise<BulkReply> {
  const reply = expectOk(await v.call<BulkReply>('DELETE', '/api/v1/orders/active', { key: t.creds, body }));
  expect(Object.keys(reply).sort()).toEqual(['already_cancel_requested_orders', 'cancel_requested_orders', 'not_opened_orders']);
  for (const list of Object.values(reply) as RefList[][]) {
    for (const ref of list) {
      expect(Object.keys(ref).sort()).toEqual(['client_order_id', 'id']);
      expect(typeof ref.id).toBe('string');
      expect(typeof ref.client_order_id).toBe('string');
    }
  }
  return reply;
}

const ids = (list: RefList[]): string[] => list.map((r) => r.id).sort();

describe('GET /api/v1/orders/active', () => {
  it("lists only the caller's active orders, filtered by product_id and case-insensitive client_order_id", async () => {
    const v = venue();
    const t = await trader(v);
    const other = await trader(v);
    const a = await placeOrder(v, t, resting(1, { client_order_id: 'Alpha' }));
    const b = await placeOrder(v, t, { product_id: 'ETH-VND', side: 'SELL', limit_price: '200000000', base_size: '0.01', client_order_id: 'beta' });
    await placeOrder(v, other, resting(2, { client_order_id: 'alpha' }));
    const done = await placeOrder(v, t, resting(3));
    expectOk(await v.call('DELETE', '/api/v1/order/active', { key: t.creds, query: { order_id: done.order_id } }));

    expect((await activeOrders(v, t)).map((o) => o.order_id).sort()).toEqual([a.order_id, b.order_id].sort());
    expect((await activeOrders(v, t, { product_id: 'ETH-VND' })).map((o) => o.order_id)).toEqual([b.order_id]);
    expect((await activeOrders(v, t, { product_id: 'SOL-VND' }))).toEqual([]);
    for (const cid of ['Alpha', 'alpha', 'ALPHA']) {
      expect((await activeOrders(v, t, { client_order_id: cid })).map((o) => o.order_id)).toEqual([a.order_id]);
    }
    expect(await activeOrders(v, t, { client_order_id: 'alpha', product_id: 'ETH-VND' })).toEqual([]);
    expect(await activeOrders(v, t, { client_order_id: 'gamma' })).toEqual([]);
  });

  it('refuses an unknown product_id and a malformed client_order_id', async () => {
    const v = venue();
    const t = await trader(v);
    expectError(await v.call('GET', '/api/v1/orders/active', { key: t.creds, query: { product_id: 'NOPE-VND' } }), 400, 'E0104_InvalidSymbol');
    expectError(await v.call('GET', '/api/v1/orders/active', { key: t.creds, query: { client_order_id: 'a b' } }), 400, 'E0101_InvalidArgument');
  });
});

describe('DELETE /api/v1/order/active', () => {
  async function cancelOne(v: TestVenue, t: Trader, query: Record<string, string>): Promise<WireOrder> {
    const reply = await v.call<{ order: unknown }>('DELETE', '/api/v1/order/active', { key: t.creds, query });
    return expectOrderRecord(expectOk(reply).order);
  }

  it('cancels by order_id: the answer is DONE CANCELED with cancel_requested_at, and the hold is released', async () => {
    const v = venue();
    const t = await trader(v);
    const before = balanceOf(await getAccount(v, t), 'VND');
    const order = await placeOrder(v, t, resting(1));
    expect(balanceOf(await getAccount(v, t), 'VND').locked).toBeGreaterThan(0n);

    const sentAt = BigInt(Date.now()) * 1_000_000n;
    const cancelled = await cancelOne(v, t, { order_id: order.order_id });
    expect(cancelled).toMatchObject({ order_id: order.order_id, status: 'DONE', done_reason: 'CANCELED' });
    expect(cancelled.cancel_requested_at).toMatch(/^[1-9]\d{18}$/);
    // A nanosecond timestamp of this run, not milliseconds or seconds.
    expect(BigInt(cancelled.cancel_requested_at)).toBeGreaterThanOrEqual(sentAt - 60_000_000_000n);
    expect(BigInt(cancelled.cancel_requested_at)).toBeGreaterThanOrEqual(BigInt(order.created_at));

    expect(await activeOrders(v, t)).toEqual([]);
    expect(await getOrder(v, t, order.order_id)).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', cancel_requested_at: cancelled.cancel_requested_at });
    expect(balanceOf(await getAccount(v, t), 'VND')).toEqual(before);
  });

  it('cancels by client_order_id, case-insensitively', async () => {
    const v = venue();
    const t = await trader(v);
    const order = await placeOrder(v, t, resting(1, { client_order_id: 'Cancel-Me' }));
    const cancelled = await cancelOne(v, t, { client_order_id: 'cancel-me' });
    expect(cancelled).toMatchObject({ order_id: order.order_id, client_order_id: 'Cancel-Me', status: 'DONE', done_reason: 'CANCELED' });
  });

  it('cancels a partially filled order, keeping its fills', async () => {
    const v = venue();
    const t = await trader(v);
    const other = await trader(v);
    const order = await placeOrder(v, t, limit('SELL', px(0), '0.02'));
    await placeOrder(v, other, limit('BUY', px(0), '0.01'));
    const cancelled = await cancelOne(v, t, { order_id: order.order_id });
    expect(cancelled).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', filled_base_size: '0.01' });
    expect(cancelled.trades).toHaveLength(1);
    expect(balanceOf(await getAccount(v, t), 'BTC').locked).toBe(0n);
  });

  it('is 400 with neither or both identifiers, 404 E0301 for an unknown or foreign order, 409 E0302 when already done', async () => {
    const v = venue();
    const t = await trader(v);
    const other = await trader(v);
    const order = await placeOrder(v, t, resting(1, { client_order_id: 'mine' }));
    const call = (who: Trader, query: Record<string, string>) => v.call('DELETE', '/api/v1/order/active', { key: who.creds, query });

    expectError(await call(t, {}), 400, 'E0101_InvalidArgument');
    expectError(await call(t, { order_id: order.order_id, client_order_id: 'mine' }), 400, 'E0101_InvalidArgument');
    expectError(await call(t, { order_id: 'not-a-uuid' }), 400, 'E0101_InvalidArgument');
    expectError(await call(t, { order_id: UNKNOWN_ID }), 404, 'E0301_OrderNotFound');
    expectError(await call(t, { client_order_id: 'never-used' }), 404, 'E0301_OrderNotFound');
    expectError(await call(other, { order_id: order.order_id }), 404, 'E0301_OrderNotFound');
    expectError(await call(other, { client_order_id: 'mine' }), 404, 'E0301_OrderNotFound');
    expect((await getOrder(v, t, order.order_id)).status).toBe('ACTIVE');

    expect((await call(t, { order_id: order.order_id })).status).toBe(200);
    expectError(await call(t, { order_id: order.order_id }), 409, 'E0302_OrderAlreadyDone');
    expectError(await call(t, { client_order_id: 'mine' }), 409, 'E0302_OrderAlreadyDone');

    const filled = await placeOrder(v, t, limit('SELL', px(0), '0.01'));
    await placeOrder(v, other, limit('BUY', px(0), '0.01'));
    expectError(await call(t, { order_id: filled.order_id }), 409, 'E0302_OrderAlreadyDone');
  });
});

describe('DELETE /api/v1/orders/active (bulk)', () => {
  it('by order_ids: cancels the active ones and sorts the rest into the three lists', async () => {
    const v = venue();
    const t = await trader(v);
    const other = await trader(v);
    const a = await placeOrder(v, t, resting(1, { client_order_id: 'bulk-a' }));
    const b = await placeOrder(v, t, resting(2));
    const cancelledBefore = await placeOrder(v, t, resting(3));
    expectOk(await v.call('DELETE', '/api/v1/order/active', { key: t.creds, query: { order_id: cancelledBefore.order_id } }));
    const filled = await placeOrder(v, t, limit('SELL', px(0), '0.01'));
    await placeOrder(v, other, limit('BUY', px(0), '0.01'));
    const foreign = await placeOrder(v, other, resting(4));

    const reply = await bulk(v, t, { order_ids: [a.order_id, b.order_id, cancelledBefore.order_id, filled.order_id, UNKNOWN_ID, foreign.order_id] });
    expect(ids(reply.cancel_requested_orders)).toEqual([a.order_id, b.order_id].sort());
    expect(reply.cancel_requested_orders.find((r) => r.id === a.order_id)?.client_order_id).toBe('bulk-a');
    expect(ids(reply.already_cancel_requested_orders)).toEqual([cancelledBefore.order_id]);
    expect(ids(reply.not_opened_orders)).toEqual([filled.order_id, UNKNOWN_ID, foreign.order_id].sort());

    expect(await activeOrders(v, t)).toEqual([]);
    expect((await getOrder(v, other, foreign.order_id)).status).toBe('ACTIVE');
  });

  it('by client_order_ids, case-insensitively', async () => {
    const v = venue();
    const t = await trader(v);
    const a = await placeOrder(v, t, resting(1, { client_order_id: 'Bulk-One' }));
    const keep = await placeOrder(v, t, resting(2, { client_order_id: 'bulk-keep' }));
    // The same id in two spellings names one order, which lands in one list.
    const reply = await bulk(v, t, { client_order_ids: ['bulk-one', 'bulk-none', 'BULK-ONE'] });
    expect(reply.cancel_requested_orders).toEqual([{ id: a.order_id, client_order_id: 'Bulk-One' }]);
    expect(reply.not_opened_orders.map((r) => r.client_order_id)).toEqual(['bulk-none']);
    expect(reply.already_cancel_requested_orders).toEqual([]);
    expect((await activeOrders(v, t)).map((o) => o.order_id)).toEqual([keep.order_id]);
  });

  it('by product_ids: only those products', async () => {
    const v = venue();
    const t = await trader(v);
    const btc = await placeOrder(v, t, resting(1));
    const eth = await placeOrder(v, t, { product_id: 'ETH-VND', side: 'BUY', limit_price: '1000000', base_size: '0.01' });
    const sol = await placeOrder(v, t, { product_id: 'SOL-VND', side: 'BUY', limit_price: '100000', base_size: '1' });
    const reply = await bulk(v, t, { product_ids: [BTC, 'SOL-VND'] });
    expect(ids(reply.cancel_requested_orders)).toEqual([btc.order_id, sol.order_id].sort());
    expect((await activeOrders(v, t)).map((o) => o.order_id)).toEqual([eth.order_id]);
  });

  it('an empty list cancels nothing', async () => {
    const v = venue();
    const t = await trader(v);
    await placeOrder(v, t, resting(1));
    const reply = await bulk(v, t, { order_ids: [] });
    expect(reply).toEqual({ cancel_requested_orders: [], not_opened_orders: [], already_cancel_requested_orders: [] });
    expect(await activeOrders(v, t)).toHaveLength(1);
  });

  it('refuses 101 order_ids or client_order_ids, two lists, no list, or malformed ids, and cancels nothing', async () => {
    const v = venue();
    const t = await trader(v);
    const order = await placeOrder(v, t, resting(1, { client_order_id: 'stay' }));
    const manyIds = [order.order_id, ...Array.from({ length: 100 }, (_, i) => `0b6c8a4e-1d3f-4c6b-9a7e-${String(i).padStart(12, '0')}`)];
    const manyCids = ['stay', ...Array.from({ length: 100 }, (_, i) => `c${i}`)];
    const call = (body: unknown) => v.call('DELETE', '/api/v1/orders/active', { key: t.creds, body });

    expectError(await call({ order_ids: manyIds }), 400, 'E0110_ValueOutOfRange');
    expectError(await call({ client_order_ids: manyCids }), 400, 'E0110_ValueOutOfRange');
    expectError(await call({ order_ids: [order.order_id], client_order_ids: ['stay'] }), 400, 'E0101_InvalidArgument');
    expectError(await call({ order_ids: [order.order_id], product_ids: [BTC] }), 400, 'E0101_InvalidArgument');
    expectError(await call({}), 400, 'E0101_InvalidArgument');
    expectError(await call({ order_ids: 'all' }), 400, 'E0101_InvalidArgument');
    expectError(await call({ order_ids: ['not-a-uuid'] }), 400, 'E0101_InvalidArgument');
    expectError(await call({ product_ids: ['NOPE-VND'] }), 400, 'E0104_InvalidSymbol');
    expect((await activeOrders(v, t)).map((o) => o.order_id)).toEqual([order.order_id]);

    // 100 is the limit itself.
    const hundred = await bulk(v, t, { order_ids: manyIds.slice(0, 100) });
    expect(ids(hundred.cancel_requested_orders)).toEqual([order.order_id]);
  });
});

describe('DELETE /api/v1/orders/active/all', () => {
  interface AllReply {
    cancel_requested_orders: { order_id: string; client_order_id: string }[];
  }

  it('with product_id cancels that product only; without it, everything', async () => {
    const v = venue();
    const t = await trader(v);
    const other = await trader(v);
    const btc1 = await placeOrder(v, t, resting(1, { client_order_id: 'all-1' }));
    const btc2 = await placeOrder(v, t, resting(2));
    const eth = await placeOrder(v, t, { product_id: 'ETH-VND', side: 'BUY', limit_price: '1000000', base_size: '0.01' });
    const stop = await placeOrder(v, t, { product_id: 'SOL-VND', side: 'SELL', type: 'STOP', order_stop_type: 'STOP_LOSS', stop_trigger_price: '1000', limit_price: '1000', base_size: '10' });
    const foreign = await placeOrder(v, other, resting(3));

    const some = expectOk(await v.call<AllReply>('DELETE', '/api/v1/orders/active/all', { key: t.creds, query: { product_id: BTC } }));
    for (const r of some.cancel_requested_orders) expect(Object.keys(r).sort()).toEqual(['client_order_id', 'order_id']);
    expect(some.cancel_requested_orders.map((r) => r.order_id).sort()).toEqual([btc1.order_id, btc2.order_id].sort());
    expect(some.cancel_requested_orders.find((r) => r.order_id === btc1.order_id)?.client_order_id).toBe('all-1');

    const rest = expectOk(await v.call<AllReply>('DELETE', '/api/v1/orders/active/all', { key: t.creds }));
    expect(rest.cancel_requested_orders.map((r) => r.order_id).sort()).toEqual([eth.order_id, stop.order_id].sort());
    expect(await activeOrders(v, t)).toEqual([]);
    expect((await getOrder(v, t, stop.order_id))).toMatchObject({ status: 'DONE', done_reason: 'CANCELED' });
    expect((await getOrder(v, other, foreign.order_id)).status).toBe('ACTIVE');

    const none = expectOk(await v.call<AllReply>('DELETE', '/api/v1/orders/active/all', { key: t.creds }));
    expect(none.cancel_requested_orders).toEqual([]);
    const account = await getAccount(v, t);
    expect(account.asset_balances.filter((b) => b.locked !== '0')).toEqual([]);
  });

  it('refuses an unknown product_id', async () => {
    const v = venue();
    const t = await trader(v);
    expectError(await v.call('DELETE', '/api/v1/orders/active/all', { key: t.creds, query: { product_id: 'NOPE-VND' } }), 400, 'E0104_InvalidSymbol');
  });
});
