// The orders channel (interface section 6, the contract's WebSocket status vocabulary): the updates of an
// order's life in order, who receives them, and a client that disconnects and subscribes again.
import { describe, expect, it } from 'vitest';
import { eventually, type Trader } from '../harness';
import type { TestSocket } from './ws-client';
import { BTC, cid, createOrder, limitData, orderUpdate, px, updatesOf, useWsVenue, type WsOrder, type WsVenue } from './ws-venue';

const venue = useWsVenue();

async function subscribed(v: WsVenue, trader: Trader): Promise<TestSocket> {
  const socket = await v.session(trader);
  await socket.request({ op: 'sub', channel: 'orders' });
  return socket;
}

/** An order of another user through REST, processed before this resolves (wait true). */
async function restOrder(v: WsVenue, trader: Trader, body: Record<string, unknown>): Promise<{ order_id: string; status: string }> {
  const reply = await v.call<{ order: { order_id: string; status: string } }>('POST', '/api/v1/orders', { key: trader.creds, body: { product_id: BTC, wait: true, ...body } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.order;
}

function statuses(updates: readonly WsOrder[]): string[] {
  return updates.map((u) => `${u.status}${u.status === 'partially_filled' ? ` ${u.filled_base_size}/${u.base_size}` : ''}`);
}

/** The ns digit string `ms` from now (the venue also takes the interface's integers; see orders.test.ts). */
function nanosText(ms: number): string {
  return (BigInt(Date.now() + ms) * 1_000_000n).toString();
}

describe('an order’s life on the orders channel', () => {
  it('a resting order filled in two steps: pending → open → partially_filled (with its fill) → filled', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const taker = await v.newTrader();
    const socket = await subscribed(v, trader);
    const order = await createOrder(socket, limitData('sell', px(0), '0.003', { client_order_id: cid('life') }), ['open']);

    await restOrder(v, taker, { side: 'BUY', limit_price: px(0), base_size: '0.001' });
    await restOrder(v, taker, { side: 'BUY', limit_price: px(0), base_size: '0.002' });
    await orderUpdate(socket, order.client_order_id, ['filled']);
    await socket.barrier();

    const updates = updatesOf(socket, order.id);
    expect(statuses(updates)).toEqual(['pending', 'open', 'partially_filled 0.001/0.003', 'filled']);
    const [, , partial, filled] = updates as [WsOrder, WsOrder, WsOrder, WsOrder];
    expect(partial).toMatchObject({ filled_base_size: '0.001', done_reason: '' });
    expect(partial.trades).toEqual([expect.objectContaining({ price: px(0), size: '0.001', liquidity_indicator: 'MAKER' })]);
    expect(filled).toMatchObject({ filled_base_size: '0.003', done_reason: 'FILLED' });
    expect(filled.trades.map((t) => t.size)).toEqual(['0.001', '0.002']);
    for (let i = 1; i < updates.length; i += 1) {
      expect(BigInt((updates[i] as WsOrder).updated_at) >= BigInt((updates[i - 1] as WsOrder).updated_at)).toBe(true);
    }
  });

  it('no update calls an order partially_filled once its whole size is filled', async () => {
    const v = venue();
    const maker = await v.newTrader();
    const trader = await v.newTrader();
    const makerSocket = await subscribed(v, maker);
    const socket = await subscribed(v, trader);
    const resting = await createOrder(makerSocket, limitData('sell', px(0), '0.002', { client_order_id: cid('whole-maker') }), ['open']);
    // The taker fills entirely in one match; the maker is filled by it too.
    const taker = await createOrder(socket, limitData('buy', px(0), '0.002', { client_order_id: cid('whole-taker') }), ['filled']);
    await makerSocket.barrier();
    await socket.barrier();
    expect(statuses(updatesOf(socket, taker.id))).toEqual(['pending', 'filled']);
    expect(statuses(updatesOf(makerSocket, resting.id))).toEqual(['pending', 'open', 'filled']);
  });

  it('cancelled: pending → open → cancelled, with cancel_requested_at as a nanosecond string', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await subscribed(v, trader);
    const order = await createOrder(socket, limitData('buy', px(-10), '0.001', { client_order_id: cid('cancel') }), ['open']);
    expect(order.cancel_requested_at).toBe('0');
    socket.send({ op: 'cancel_order', data: { order_id: order.id } });
    const cancelled = await orderUpdate(socket, order.client_order_id, ['cancelled']);
    expect(cancelled.cancel_requested_at).toMatch(/^[1-9]\d{18}$/);
    expect(cancelled.done_reason).toBe('CANCELED');
    await socket.barrier();
    expect(statuses(updatesOf(socket, order.id))).toEqual(['pending', 'open', 'cancelled']);
  });

  it('expired: pending → open → expired when its expiry passes', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await subscribed(v, trader);
    const order = await createOrder(socket, limitData('buy', px(-10), '0.001', { time_in_force: 'GTT', expired_at: nanosText(300), client_order_id: cid('expire') }), ['open']);
    const expired = await orderUpdate(socket, order.client_order_id, ['expired']);
    expect(expired).toMatchObject({ done_reason: 'EXPIRED', expired_at: order.expired_at });
    await socket.barrier();
    expect(statuses(updatesOf(socket, order.id))).toEqual(['pending', 'open', 'expired']);
    expect(await v.activeOrders(trader)).toEqual([]);
  });

  it('rejected: pending → rejected when the balance does not cover it', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000' });
    const socket = await subscribed(v, trader);
    const id = cid('reject');
    socket.send({ op: 'create_order', data: limitData('buy', px(0), '0.001', { client_order_id: id }) });
    const rejected = await orderUpdate(socket, id, ['rejected']);
    expect(rejected).toMatchObject({ done_reason: 'REJECTED', reject_reason: 'E0201_InsufficientBalance' });
    await socket.barrier();
    expect(statuses(updatesOf(socket, rejected.id))).toEqual(['pending', 'rejected']);
  });

  it('a scheduled order: pending → scheduled → open when its time comes', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await subscribed(v, trader);
    const order = await createOrder(socket, limitData('buy', px(-10), '0.001', { scheduled_at: nanosText(300), client_order_id: cid('sched') }), ['scheduled']);
    await orderUpdate(socket, order.client_order_id, ['open']);
    await socket.barrier();
    expect(statuses(updatesOf(socket, order.id))).toEqual(['pending', 'scheduled', 'open']);
  });

  it('a stop: pending → scheduled, then open once a trade reaches its trigger', async () => {
    const v = venue();
    const [a, b, trader] = [await v.newTrader(), await v.newTrader(), await v.newTrader()];
    await restOrder(v, a, { side: 'SELL', limit_price: px(0), base_size: '0.001' });
    await restOrder(v, b, { side: 'BUY', limit_price: px(0), base_size: '0.001' });
    const socket = await subscribed(v, trader);
    const stop = await createOrder(
      socket,
      limitData('buy', px(12), '0.001', { stop_trigger_price: px(10), order_stop_type: 'STOP_LOSS', client_order_id: cid('stop') }),
      ['scheduled'],
    );
    await restOrder(v, a, { side: 'SELL', limit_price: px(10), base_size: '0.001' });
    await restOrder(v, b, { side: 'BUY', limit_price: px(10), base_size: '0.001' });
    await orderUpdate(socket, stop.client_order_id, ['open', 'filled']);
    await socket.barrier();
    expect(statuses(updatesOf(socket, stop.id))).toEqual(['pending', 'scheduled', 'open']);
  });
});

describe('one update per change, none twice', () => {
  /** No two updates of an order in a row that say the same (updated_at aside). */
  function repeats(updates: readonly WsOrder[]): string[] {
    const text = updates.map(({ updated_at: _at, ...rest }) => JSON.stringify(rest));
    return text.filter((t, i) => i > 0 && t === text[i - 1]);
  }

  it('a taker that fills in part and rests: pending, then partially_filled once', async () => {
    const v = venue();
    const [maker, trader] = [await v.newTrader(), await v.newTrader()];
    await restOrder(v, maker, { side: 'SELL', limit_price: px(0), base_size: '0.001' });
    const socket = await subscribed(v, trader);
    const order = await createOrder(socket, limitData('buy', px(0), '0.003', { client_order_id: cid('rest') }), ['partially_filled']);
    await socket.barrier();
    expect(statuses(updatesOf(socket, order.id))).toEqual(['pending', 'partially_filled 0.001/0.003']);
  });

  it('a market buy for a quote amount that walks two levels: its last fill comes once, as filled', async () => {
    const v = venue();
    const [maker, trader] = [await v.newTrader(), await v.newTrader()];
    await restOrder(v, maker, { side: 'SELL', limit_price: px(0), base_size: '0.001' });
    await restOrder(v, maker, { side: 'SELL', limit_price: px(1), base_size: '0.001' });
    const socket = await subscribed(v, trader);
    const id = cid('quote');
    const order = await createOrder(socket, { type: 'market', side: 'buy', product_id: BTC, quote_size: '4000000', client_order_id: id }, ['filled', 'cancelled']);
    await socket.barrier();
    const updates = updatesOf(socket, order.id);
    expect(updates.map((u) => u.status)).toEqual(['pending', 'partially_filled', 'filled']);
    expect(updates.at(-1)?.trades).toHaveLength(2);
  });

  it('a triggered stop that trades in part and rests is partially_filled, never a scheduled order with fills', async () => {
    const v = venue();
    const [a, b, trader] = [await v.newTrader(), await v.newTrader(), await v.newTrader()];
    const socket = await subscribed(v, trader);
    const stop = await createOrder(
      socket,
      limitData('buy', px(12), '0.003', { stop_trigger_price: px(10), order_stop_type: 'STOP_LOSS', client_order_id: cid('stop-part') }),
      ['scheduled'],
    );
    await restOrder(v, a, { side: 'SELL', limit_price: px(11), base_size: '0.001' });
    await restOrder(v, a, { side: 'SELL', limit_price: px(10), base_size: '0.001' });
    await restOrder(v, b, { side: 'BUY', limit_price: px(10), base_size: '0.001' });
    await orderUpdate(socket, stop.client_order_id, ['partially_filled']);
    await socket.barrier();
    expect(statuses(updatesOf(socket, stop.id))).toEqual(['pending', 'scheduled', 'partially_filled 0.001/0.003']);
  });

  it('a TWAP whose slices find nothing says nothing new until it expires', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await subscribed(v, trader);
    const id = cid('twap-dry');
    // TWAP is REST's alone (the WebSocket's types are limit and market); its updates reach the socket all the same.
    await restOrder(v, trader, { type: 'TWAP', side: 'BUY', limit_price: px(-100), base_size: '0.003', expired_at: nanosText(2_500), client_order_id: id });
    const expired = await orderUpdate(socket, id, ['expired'], 0);
    await socket.barrier();
    const updates = updatesOf(socket, expired.id);
    expect(repeats(updates)).toEqual([]);
    expect(updates.map((u) => u.status)).toEqual(['pending', 'open', 'expired']);
  });
});

describe('who receives order updates', () => {
  it('every subscribed connection of the owner gets them; another user’s connection gets none', async () => {
    const v = venue();
    const owner = await v.newTrader();
    const stranger = await v.newTrader();
    const first = await subscribed(v, owner);
    const second = await subscribed(v, owner);
    const other = await subscribed(v, stranger);
    const order = await createOrder(first, limitData('buy', px(-10), '0.001', { client_order_id: cid('fanout') }), ['open']);
    await orderUpdate(second, order.client_order_id, ['open']);
    await other.barrier();
    expect(other.frames.filter((f) => f['channel'] === 'orders')).toEqual([]);
  });

  it('after unsub of the orders channel, the connection gets no more updates of the user’s other orders', async () => {
    const v = venue();
    const owner = await v.newTrader();
    const listener = await subscribed(v, owner);
    const unsub = await listener.request({ op: 'unsub', channel: 'orders' });
    expect(unsub).toMatchObject({ channel: 'subscriptions', type: 'update', subscriptions: [] });
    const from = listener.mark();
    await restOrder(v, owner, { side: 'BUY', limit_price: px(-10), base_size: '0.001' });
    await listener.barrier();
    expect(listener.frames.slice(from).filter((f) => f['channel'] === 'orders')).toEqual([]);
  });
});

describe('a client that disconnects and subscribes again', () => {
  it('sees the updates after it is back, and the order is as REST says, fills made while away included', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const taker = await v.newTrader();
    const first = await subscribed(v, trader);
    const order = await createOrder(first, limitData('sell', px(0), '0.004', { client_order_id: cid('reconnect') }), ['open']);
    first.close();
    await first.closed();

    // While it is away: a fill.
    await restOrder(v, taker, { side: 'BUY', limit_price: px(0), base_size: '0.001' });

    const again = await subscribed(v, trader);
    const [rest] = await v.activeOrders(trader);
    expect(rest).toMatchObject({ order_id: order.id, status: 'ACTIVE', filled_base_size: '0.001' });

    await restOrder(v, taker, { side: 'BUY', limit_price: px(0), base_size: '0.001' });
    const partial = await orderUpdate(again, order.client_order_id, ['partially_filled']);
    expect(partial).toMatchObject({ id: order.id, filled_base_size: '0.002' });
    expect(partial.trades.map((t) => t.size)).toEqual(['0.001', '0.001']);

    again.send({ op: 'cancel_order', data: { client_order_id: order.client_order_id } });
    const cancelled = await orderUpdate(again, order.client_order_id, ['cancelled']);
    expect(cancelled.filled_base_size).toBe('0.002');
    expect(await v.activeOrders(trader)).toEqual([]);
  });

  it('an order sent just before the connection dropped is placed all the same, and the next connection can cancel it', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const first = await v.session(trader);
    const id = cid('dropped');
    first.send({ op: 'create_order', data: limitData('buy', px(-10), '0.001', { client_order_id: id }) });
    first.terminate();

    const [placed] = await eventually(async () => {
      const active = await v.activeOrders(trader);
      return active.length > 0 ? active : undefined;
    }, 'the dropped connection’s order to be active');
    expect(placed).toMatchObject({ client_order_id: id, status: 'ACTIVE' });

    const again = await subscribed(v, trader);
    again.send({ op: 'cancel_order', data: { client_order_id: id } });
    const cancelled = await orderUpdate(again, id, ['cancelled']);
    expect(cancelled.id).toBe(placed?.order_id);
    expect(await v.activeOrders(trader)).toEqual([]);
  });
});
