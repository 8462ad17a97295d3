// The order history (interface 4.7, 4.8; contract "Archived order query"): filters, limits, sorts and lookups.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BTC,
  archivedOrders,
  expectError,
  expectOk,
  getOrder,
  limit,
  nanosFromNow,
  placeOrder,
  px,
  sleep,
  useVenue,
  type Trader,
  type WireOrder,
} from '../harness';

const venue = useVenue();

/**
 * One trader's history, built once: orders on three products, some active, some canceled, one filled, one
 * rejected, one scheduled; then 101 more small orders for the default limit.
 */
interface History {
  trader: Trader;
  /** In creation order. */
  placed: WireOrder[];
  btcActive: WireOrder;
  ethCanceled: WireOrder;
  solActive: WireOrder;
  filled: WireOrder;
  rejected: WireOrder;
  /** A limit order whose scheduled_at is an hour away: SCHEDULED for the whole file. */
  scheduled: WireOrder;
}

let history: History;

beforeAll(async () => {
  const v = venue();
  const trader = await v.newTrader({ BTC: '1', ETH: '1', SOL: '10', VND: '100000000000' });
  const counterpart = await v.newTrader({ BTC: '1', VND: '100000000000' });
  const placed: WireOrder[] = [];
  const place = async (body: Record<string, unknown>) => {
    const order = await placeOrder(v, trader, body);
    placed.push(order);
    // Distinct creation times, so time windows and sorts have one right answer.
    await sleep(3);
    return order;
  };
  const btcActive = await place(limit('BUY', px(-100), '0.001', { client_order_id: 'hist-btc' }));
  const ethCanceled = await place({ product_id: 'ETH-VND', side: 'BUY', limit_price: '1000000', base_size: '0.01', client_order_id: 'Hist-Eth' });
  const solActive = await place({ product_id: 'SOL-VND', side: 'SELL', limit_price: '9000000', base_size: '1' });
  await placeOrder(v, counterpart, limit('SELL', px(0), '0.01'));
  const filled = await place(limit('BUY', px(0), '0.01'));
  const rejected = await place(limit('SELL', px(0), '5'));
  const scheduled = await place(limit('BUY', px(-200), '0.001', { scheduled_at: nanosFromNow(3_600_000) }));
  expect(scheduled.status).toBe('SCHEDULED');
  expectOk(await v.call('DELETE', '/api/v1/order/active', { key: trader.creds, query: { order_id: ethCanceled.order_id } }));
  history = { trader, placed, btcActive, ethCanceled, solActive, filled, rejected, scheduled };
});

describe('GET /api/v1/orders/archived', () => {
  it('returns orders of every status, newest first by default, with their fills', async () => {
    const v = venue();
    const orders = await archivedOrders(v, history.trader);
    expect(orders.map((o) => o.order_id)).toEqual(history.placed.map((o) => o.order_id).reverse());
    const byId = new Map(orders.map((o) => [o.order_id, o]));
    expect(byId.get(history.btcActive.order_id)?.status).toBe('ACTIVE');
    expect(byId.get(history.ethCanceled.order_id)).toMatchObject({ status: 'DONE', done_reason: 'CANCELED' });
    expect(byId.get(history.rejected.order_id)).toMatchObject({ status: 'DONE', done_reason: 'REJECTED', reject_reason: 'E0201_InsufficientBalance' });
    const filled = byId.get(history.filled.order_id);
    expect(filled).toMatchObject({ status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.01' });
    expect(filled?.trades.map((t) => [t.price, t.size, t.fee_amount])).toEqual([[px(0), '0.01', '50000']]);
  });

  it('shows nobody else’s orders', async () => {
    const v = venue();
    const stranger = await v.newTrader({});
    expect(await archivedOrders(v, stranger)).toEqual([]);
  });

  it('filters by product_ids, repeated, bracketed (as axios writes arrays) or comma separated', async () => {
    const v = venue();
    const t = history.trader;
    const productsOf = (orders: WireOrder[]) => [...new Set(orders.map((o) => o.product_id))].sort();
    expect(productsOf(await archivedOrders(v, t, { product_ids: 'ETH-VND' }))).toEqual(['ETH-VND']);
    expect(productsOf(await archivedOrders(v, t, { product_ids: ['ETH-VND', 'SOL-VND'] }))).toEqual(['ETH-VND', 'SOL-VND']);
    expect(productsOf(await archivedOrders(v, t, { product_ids: 'ETH-VND,SOL-VND' }))).toEqual(['ETH-VND', 'SOL-VND']);
    expect(productsOf(await archivedOrders(v, t, { 'product_ids[]': ['ETH-VND', 'SOL-VND'] }))).toEqual(['ETH-VND', 'SOL-VND']);
    expect(productsOf(await archivedOrders(v, t, { 'product_ids[]': 'SOL-VND', product_ids: 'ETH-VND' }))).toEqual(['ETH-VND', 'SOL-VND']);
    expect(await archivedOrders(v, t, { product_ids: 'SOL-VND' })).toHaveLength(1);
    expect(productsOf(await archivedOrders(v, t, { product_ids: '' }))).toEqual([BTC, 'ETH-VND', 'SOL-VND']);
    expectError(await v.call('GET', '/api/v1/orders/archived', { key: t.creds, query: { product_ids: 'ETH-VND,NOPE-VND' } }), 400, 'E0104_InvalidSymbol');
  });

  it('filters by start_time and end_time, both inclusive', async () => {
    const v = venue();
    const t = history.trader;
    const [, second, third, fourth] = history.placed;
    if (second === undefined || third === undefined || fourth === undefined) throw new Error('history too short');
    const window = await archivedOrders(v, t, { start_time: second.created_at, end_time: fourth.created_at });
    expect(window.map((o) => o.order_id)).toEqual([fourth.order_id, third.order_id, second.order_id]);
    const exact = await archivedOrders(v, t, { start_time: third.created_at, end_time: third.created_at });
    expect(exact.map((o) => o.order_id)).toEqual([third.order_id]);
    const after = await archivedOrders(v, t, { start_time: (BigInt(fourth.created_at) + 1n).toString() });
    expect(after.map((o) => o.order_id)).not.toContain(fourth.order_id);
    expectError(await v.call('GET', '/api/v1/orders/archived', { key: t.creds, query: { start_time: '2024-01-01' } }), 400, 'E0101_InvalidArgument');
  });

  it('filters by status', async () => {
    const v = venue();
    const t = history.trader;
    const active = await archivedOrders(v, t, { status: 'ACTIVE' });
    expect(active.map((o) => o.order_id).sort()).toEqual([history.btcActive.order_id, history.solActive.order_id].sort());
    const done = await archivedOrders(v, t, { status: 'DONE' });
    expect(done.every((o) => o.status === 'DONE')).toBe(true);
    expect(done.map((o) => o.order_id).sort()).toEqual([history.ethCanceled.order_id, history.filled.order_id, history.rejected.order_id].sort());
    const scheduled = await archivedOrders(v, t, { status: 'SCHEDULED' });
    expect(scheduled.map((o) => [o.order_id, o.status])).toEqual([[history.scheduled.order_id, 'SCHEDULED']]);
    expectError(await v.call('GET', '/api/v1/orders/archived', { key: t.creds, query: { status: 'OPEN' } }), 400, 'E0101_InvalidArgument');
  });

  it('status SUBMITTED finds nothing once the engine has processed every order, even those answered SUBMITTED', async () => {
    const v = venue();
    expect(await archivedOrders(v, history.trader, { status: 'SUBMITTED' })).toEqual([]);
    // SUBMITTED is what the POST answers without wait; the answer comes after the engine committed the order,
    // so the history already holds it as what the engine made of it.
    const t = await v.newTrader({ VND: '1000000000' });
    const reply = await v.call<{ order: WireOrder }>('POST', '/api/v1/orders', { key: t.creds, body: limit('BUY', px(-300), '0.001') });
    const submitted = expectOk(reply).order;
    expect(submitted.status).toBe('SUBMITTED');
    expect(await archivedOrders(v, t, { status: 'SUBMITTED' })).toEqual([]);
    expect((await archivedOrders(v, t, { status: 'ACTIVE' })).map((o) => o.order_id)).toEqual([submitted.order_id]);
    expectOk(await v.call('DELETE', '/api/v1/order/active', { key: t.creds, query: { order_id: submitted.order_id } }));
  });

  it('filters by client_order_id, case-insensitively', async () => {
    const v = venue();
    const t = history.trader;
    for (const cid of ['hist-eth', 'HIST-ETH', 'Hist-Eth']) {
      expect((await archivedOrders(v, t, { client_order_id: cid })).map((o) => o.order_id)).toEqual([history.ethCanceled.order_id]);
    }
    expect(await archivedOrders(v, t, { client_order_id: 'nothing' })).toEqual([]);
  });

  it('sorts by created_at and updated_at, either way', async () => {
    const v = venue();
    const t = history.trader;
    const created = history.placed.map((o) => o.order_id);
    expect((await archivedOrders(v, t, { sort: 'created_at' })).map((o) => o.order_id)).toEqual(created);
    expect((await archivedOrders(v, t, { sort: '-created_at' })).map((o) => o.order_id)).toEqual([...created].reverse());

    // The ETH order was created second but canceled last, so it is the most recently updated.
    const up = await archivedOrders(v, t, { sort: 'updated_at' });
    const down = await archivedOrders(v, t, { sort: '-updated_at' });
    expect(up.at(-1)?.order_id).toBe(history.ethCanceled.order_id);
    expect(down[0]?.order_id).toBe(history.ethCanceled.order_id);
    expect(down.map((o) => o.order_id)).toEqual(up.map((o) => o.order_id).reverse());
    const times = up.map((o) => BigInt(o.updated_at));
    expect(times).toEqual([...times].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expectError(await v.call('GET', '/api/v1/orders/archived', { key: t.creds, query: { sort: 'price' } }), 400, 'E0101_InvalidArgument');
  });

  it('returns 100 orders by default, at most 1000, and refuses limit 1001 with E0110', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000' });
    // Rejected for balance: real orders in the history that hold nothing.
    for (let i = 0; i < 101; i++) await placeOrder(v, t, limit('BUY', px(), '0.01', { wait: false }));
    expect(await archivedOrders(v, t)).toHaveLength(100);
    expect(await archivedOrders(v, t, { limit: '5' })).toHaveLength(5);
    expect(await archivedOrders(v, t, { limit: '1000' })).toHaveLength(101);
    const call = (limitText: string) => v.call('GET', '/api/v1/orders/archived', { key: t.creds, query: { limit: limitText } });
    expectError(await call('1001'), 400, 'E0110_ValueOutOfRange');
    expectError(await call('0'), 400, 'E0110_ValueOutOfRange');
    expectError(await call('many'), 400, 'E0101_InvalidArgument');
  });
});

describe('GET /api/v1/order/archived', () => {
  it('finds an order by its id, of any status', async () => {
    const v = venue();
    const t = history.trader;
    for (const o of [history.btcActive, history.ethCanceled, history.filled, history.rejected]) {
      const found = await getOrder(v, t, o.order_id);
      expect(found.order_id).toBe(o.order_id);
      expect(found.created_at).toBe(o.created_at);
    }
    expect((await getOrder(v, t, history.filled.order_id)).trades).toHaveLength(1);
  });

  it('by client order id returns the newest of the orders sharing it, case-insensitively', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const first = await placeOrder(v, t, limit('BUY', px(-100), '0.001', { client_order_id: 'Again' }));
    expectOk(await v.call('DELETE', '/api/v1/order/active', { key: t.creds, query: { order_id: first.order_id } }));
    const second = await placeOrder(v, t, limit('BUY', px(-101), '0.001', { client_order_id: 'again' }));
    expectOk(await v.call('DELETE', '/api/v1/order/active', { key: t.creds, query: { order_id: second.order_id } }));
    const third = await placeOrder(v, t, limit('BUY', px(-102), '0.001', { client_order_id: 'AGAIN' }));
    for (const cid of ['again', 'Again', 'AGAIN']) expect((await getOrder(v, t, cid)).order_id).toBe(third.order_id);
    expect((await getOrder(v, t, first.order_id)).order_id).toBe(first.order_id);
  });

  it('takes an order id over a client order id: a UUID that is also a newer order’s client order id finds its own order', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const owner = await placeOrder(v, t, limit('BUY', px(-110), '0.001'));
    // Client order ids allow letters, digits and '-', so a UUID is a valid one.
    const impostor = await placeOrder(v, t, limit('BUY', px(-111), '0.001', { client_order_id: owner.order_id }));
    expect(impostor.client_order_id).toBe(owner.order_id);
    expect((await getOrder(v, t, owner.order_id)).order_id).toBe(owner.order_id);
    expect((await getOrder(v, t, impostor.order_id)).order_id).toBe(impostor.order_id);

    // Another user's order id is no order id of the caller's: there the client order id is what matches.
    const other = await v.newTrader({ VND: '1000000000' });
    const mine = await placeOrder(v, other, limit('BUY', px(-112), '0.001', { client_order_id: owner.order_id }));
    expect((await getOrder(v, other, owner.order_id)).order_id).toBe(mine.order_id);
    for (const who of [t, other]) expectOk(await v.call('DELETE', '/api/v1/orders/active/all', { key: who.creds }));
  });

  it('is 404 E0301 for an unknown or foreign order and 400 without an order', async () => {
    const v = venue();
    const stranger = await v.newTrader({});
    const call = (who: Trader, query: Record<string, string>) => v.call('GET', '/api/v1/order/archived', { key: who.creds, query });
    expectError(await call(stranger, { order: history.filled.order_id }), 404, 'E0301_OrderNotFound');
    expectError(await call(stranger, { order: 'hist-btc' }), 404, 'E0301_OrderNotFound');
    expectError(await call(history.trader, { order: '0b6c8a4e-1d3f-4c6b-9a7e-2f5d8c1b3a90' }), 404, 'E0301_OrderNotFound');
    expectError(await call(history.trader, {}), 400, 'E0101_InvalidArgument');
  });
});
