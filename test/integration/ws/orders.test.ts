// create_order with every data field of the interface's 4.12 table and cancel_order that succeeds, over real
// sockets, each checked on the orders channel and against REST (the orders' and the book's truth).
// BTC-VND: price increment 10000, size increment 0.0001; fees maker 0.001, taker 0.002 of the notional.
import { describe, expect, it } from 'vitest';
import { atoms, type Trader, type WireAccount } from '../harness';
import type { TestSocket } from './ws-client';
import { BTC, cid, createOrder, expectErrorEvent, limitData, nanosFromNow, orderUpdate, px, updatesOf, useWsVenue, type WsVenue } from './ws-venue';

const venue = useWsVenue();

async function vnd(v: WsVenue, trader: Trader): Promise<bigint> {
  const reply = await v.call<{ account: WireAccount }>('GET', `/accounts/${trader.userId}`, { key: trader.creds });
  const entry = reply.body.account.asset_balances.find((b) => b.asset === 'VND');
  if (entry === undefined) throw new Error('no VND balance');
  return atoms(entry.balance, 0);
}

async function btc(v: WsVenue, trader: Trader): Promise<bigint> {
  const reply = await v.call<{ account: WireAccount }>('GET', `/accounts/${trader.userId}`, { key: trader.creds });
  const entry = reply.body.account.asset_balances.find((b) => b.asset === 'BTC');
  if (entry === undefined) throw new Error('no BTC balance');
  return atoms(entry.balance, 8);
}

/** A trader with a subscribed, authenticated socket. */
async function desk(v: WsVenue): Promise<{ trader: Trader; socket: TestSocket }> {
  const trader = await v.newTrader();
  const socket = await v.session(trader);
  await socket.request({ op: 'sub', channel: 'orders' });
  return { trader, socket };
}

async function askLevels(v: WsVenue): Promise<{ price: string; size: string }[]> {
  return (await v.book(BTC)).asks.map(({ price, size }) => ({ price, size }));
}

async function bidLevels(v: WsVenue): Promise<{ price: string; size: string }[]> {
  return (await v.book(BTC)).bids.map(({ price, size }) => ({ price, size }));
}

describe('create_order', () => {
  it('a lowercase limit buy rests: the update carries every request field in the record’s words', async () => {
    const v = venue();
    const { trader, socket } = await desk(v);
    const id = cid('limit');
    const order = await createOrder(socket, { type: 'limit', side: 'buy', product_id: BTC, price: px(-10), size: '0.0123', client_order_id: id }, ['open']);
    expect(order).toMatchObject({
      client_order_id: id,
      user_id: trader.userId,
      product_id: BTC,
      side: 'BUY',
      type: 'LIMIT',
      time_in_force: 'GTC',
      post_only: 'false',
      stp: 'CANCEL_TAKER',
      limit_price: px(-10),
      base_size: '0.0123',
      filled_base_size: '0',
      done_reason: '',
    });
    expect(await bidLevels(v)).toEqual([{ price: px(-10), size: '0.0123' }]);
    expect((await v.activeOrders(trader)).map((o) => o.order_id)).toEqual([order.id]);
  });

  it('a lowercase limit sell rests on the ask side', async () => {
    const v = venue();
    const { socket } = await desk(v);
    const order = await createOrder(socket, limitData('sell', px(10), '0.002', { client_order_id: cid('sell') }), ['open']);
    expect(order).toMatchObject({ side: 'SELL', type: 'LIMIT', limit_price: px(10), base_size: '0.002' });
    expect(await askLevels(v)).toEqual([{ price: px(10), size: '0.002' }]);
  });

  it('a market sell of a size takes the best bid and is filled', async () => {
    const v = venue();
    const maker = await desk(v);
    const taker = await desk(v);
    await createOrder(maker.socket, limitData('buy', px(0), '0.01', { client_order_id: cid('bid') }), ['open']);
    const order = await createOrder(taker.socket, { type: 'market', side: 'sell', product_id: BTC, size: '0.004', client_order_id: cid('mkt-sell') }, ['filled', 'cancelled']);
    expect(order).toMatchObject({ status: 'filled', type: 'MARKET', side: 'SELL', time_in_force: 'IOC', filled_base_size: '0.004', filled_quote_size: '10000000' });
    expect(order.trades).toHaveLength(1);
    expect(order.trades[0]).toMatchObject({ price: px(0), size: '0.004' });
    expect(await bidLevels(v)).toEqual([{ price: px(0), size: '0.006' }]);
  });

  it('a market buy of quote_size spends at most that amount, fees included', async () => {
    const v = venue();
    const maker = await desk(v);
    const taker = await desk(v);
    await createOrder(maker.socket, limitData('sell', px(0), '0.01', { client_order_id: cid('ask') }), ['open']);
    const before = await vnd(v, taker.trader);
    const order = await createOrder(taker.socket, { type: 'market', side: 'buy', product_id: BTC, quote_size: '5000000', client_order_id: cid('quote') }, ['filled', 'cancelled']);
    expect(order).toMatchObject({ status: 'filled', type: 'MARKET', quote_size: '5000000', base_size: '0' });
    const spent = BigInt(order.filled_quote_size) + BigInt(order.fee_total ?? 'NaN');
    expect(spent <= 5_000_000n, `spent ${spent}`).toBe(true);
    // One more lot (0.0001 BTC = 250000 VND) would not have fitted: the budget was used as far as it goes.
    expect(spent + 250_000n > 5_000_000n, `spent ${spent}`).toBe(true);
    expect(before - (await vnd(v, taker.trader))).toBe(spent);
  });

  it('exact_quote_size with size (a market buy) moves the quote balance by exactly that amount', async () => {
    const v = venue();
    const maker = await desk(v);
    const taker = await desk(v);
    await createOrder(maker.socket, limitData('sell', px(0), '0.01', { client_order_id: cid('ask') }), ['open']);
    const [vndBefore, btcBefore] = [await vnd(v, taker.trader), await btc(v, taker.trader)];
    const order = await createOrder(
      taker.socket,
      { type: 'market', side: 'buy', product_id: BTC, size: '0.001', exact_quote_size: '2600000', client_order_id: cid('exact') },
      ['filled', 'cancelled'],
    );
    expect(order).toMatchObject({ status: 'filled', exact_quote_size: '2600000', base_size: '0.001', filled_base_size: '0.001', time_in_force: 'FOK' });
    expect(vndBefore - (await vnd(v, taker.trader))).toBe(2_600_000n);
    expect((await btc(v, taker.trader)) - btcBefore).toBe(100_000n);
  });

  it('time_in_force IOC fills what it can at once and cancels the rest', async () => {
    const v = venue();
    const maker = await desk(v);
    const taker = await desk(v);
    await createOrder(maker.socket, limitData('sell', px(0), '0.003', { client_order_id: cid('ask') }), ['open']);
    const order = await createOrder(taker.socket, limitData('buy', px(0), '0.005', { time_in_force: 'IOC', client_order_id: cid('ioc') }), ['filled', 'cancelled']);
    expect(order).toMatchObject({ status: 'cancelled', time_in_force: 'IOC', filled_base_size: '0.003' });
    expect(await bidLevels(v)).toEqual([]);
    expect(await askLevels(v)).toEqual([]);
  });

  it('time_in_force FOK fills completely or not at all', async () => {
    const v = venue();
    const maker = await desk(v);
    const taker = await desk(v);
    await createOrder(maker.socket, limitData('sell', px(0), '0.003', { client_order_id: cid('ask') }), ['open']);
    const missed = await createOrder(taker.socket, limitData('buy', px(0), '0.005', { time_in_force: 'FOK', client_order_id: cid('fok-miss') }), ['filled', 'cancelled', 'rejected']);
    expect(missed).toMatchObject({ status: 'cancelled', time_in_force: 'FOK', filled_base_size: '0' });
    expect(await askLevels(v)).toEqual([{ price: px(0), size: '0.003' }]);
    const filled = await createOrder(taker.socket, limitData('buy', px(0), '0.003', { time_in_force: 'FOK', client_order_id: cid('fok-fill') }), ['filled', 'cancelled', 'rejected']);
    expect(filled).toMatchObject({ status: 'filled', filled_base_size: '0.003' });
  });

  it('time_in_force GTC is the default and explicit GTC rests the same way', async () => {
    const v = venue();
    const { socket } = await desk(v);
    const order = await createOrder(socket, limitData('buy', px(-20), '0.001', { time_in_force: 'GTC', client_order_id: cid('gtc') }), ['open']);
    expect(order.time_in_force).toBe('GTC');
  });

  it('post_only true rests when it does not cross', async () => {
    const v = venue();
    const maker = await desk(v);
    const poster = await desk(v);
    await createOrder(maker.socket, limitData('sell', px(5), '0.001', { client_order_id: cid('ask') }), ['open']);
    const order = await createOrder(poster.socket, limitData('buy', px(4), '0.001', { post_only: true, client_order_id: cid('post') }), ['open']);
    expect(order.post_only).toBe('true');
  });

  it('wait true is accepted: the order is processed and its updates follow', async () => {
    const v = venue();
    const { socket } = await desk(v);
    const order = await createOrder(socket, limitData('buy', px(-30), '0.001', { wait: true, client_order_id: cid('wait') }), ['open']);
    expect(order.status).toBe('open');
  });

  it('wait true answers once the engine has processed the order (docs/api.md): the first answer already holds it open', async () => {
    const v = venue();
    const { socket } = await desk(v);
    const id = cid('wait-first');
    const first = await socket.request({ op: 'create_order', data: limitData('buy', px(-30), '0.001', { wait: true, client_order_id: id }) });
    expect(first['type'], JSON.stringify(first)).toBe('update');
    expect((first['data'] as { client_order_id: string; status: string }[]).filter((o) => o.client_order_id === id).map((o) => o.status)).toContain('open');
  });

  it('wait that is not a boolean is refused, naming the field, and places nothing', async () => {
    const v = venue();
    const { trader, socket } = await desk(v);
    const data = limitData('buy', px(-30), '0.001', { wait: 'true', client_order_id: cid('wait-text') });
    const answer = await socket.request({ op: 'create_order', data });
    expect(answer['channel']).toBe('orders');
    expectErrorEvent(answer, 400, 'wait: expected boolean');
    expect(answer['data']).toEqual(data);
    expect(await v.activeOrders(trader)).toEqual([]);
  });

  it('a creator that is not subscribed still hears about its own order', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.session(trader);
    const order = await createOrder(socket, limitData('buy', px(-30), '0.001', { client_order_id: cid('unsubscribed') }), ['open']);
    expect(order.user_id).toBe(trader.userId);
  });

  it('stop_trigger_price makes a stop: scheduled until the last trade reaches the trigger, then a limit order', async () => {
    const v = venue();
    const a = await desk(v);
    const b = await desk(v);
    const { socket } = await desk(v);
    // The last trade price is px(0).
    await createOrder(a.socket, limitData('sell', px(0), '0.001', { client_order_id: cid('t1-ask') }), ['open']);
    await createOrder(b.socket, limitData('buy', px(0), '0.001', { client_order_id: cid('t1-bid') }), ['filled']);

    const stopId = cid('stop');
    const stop = await createOrder(
      socket,
      limitData('sell', px(-10), '0.002', { stop_trigger_price: px(-5), order_stop_type: 'STOP_LOSS', client_order_id: stopId }),
      ['scheduled'],
    );
    expect(stop).toMatchObject({ type: 'STOP', stop_trigger_price: px(-5), limit_price: px(-10) });
    expect(await askLevels(v)).toEqual([]);

    // A trade at the trigger price fires it: it becomes a sell limit at px(-10) and rests.
    const from = socket.mark();
    await createOrder(a.socket, limitData('sell', px(-5), '0.001', { client_order_id: cid('t2-ask') }), ['open']);
    await createOrder(b.socket, limitData('buy', px(-5), '0.001', { client_order_id: cid('t2-bid') }), ['filled']);
    const triggered = await orderUpdate(socket, stopId, ['open'], from);
    expect(triggered.id).toBe(stop.id);
    expect(await askLevels(v)).toEqual([{ price: px(-10), size: '0.002' }]);
  });

  it('a stop without order_stop_type (the interface’s data table has none) is the kind its trigger implies against the last trade', async () => {
    const v = venue();
    const a = await desk(v);
    const b = await desk(v);
    const { socket } = await desk(v);
    // No test of this file trades ETH-VND.
    const eth = { type: 'limit', side: 'sell', product_id: 'ETH-VND', price: '89000000', size: '0.01', stop_trigger_price: '89500000' };
    const noTrade = await socket.request({ op: 'create_order', data: eth }, (f) => f['type'] === 'error');
    expectErrorEvent(noTrade, 400, 'order_stop_type: required while ETH-VND has no last trade');
    await createOrder(a.socket, limitData('sell', px(0), '0.001', { client_order_id: cid('t-ask') }), ['open']);
    await createOrder(b.socket, limitData('buy', px(0), '0.001', { client_order_id: cid('t-bid') }), ['filled']);

    const kinds: [side: 'buy' | 'sell', trigger: number, kind: string][] = [
      ['sell', -5, 'STOP_LOSS'],
      ['buy', 5, 'STOP_LOSS'],
      ['sell', 5, 'TAKE_PROFIT'],
      ['buy', -5, 'TAKE_PROFIT'],
    ];
    for (const [side, trigger, kind] of kinds) {
      const stop = await createOrder(socket, limitData(side, px(trigger), '0.001', { stop_trigger_price: px(trigger), client_order_id: cid(`${side}${trigger}`) }), ['scheduled']);
      expect([side, trigger, stop.order_stop_type]).toEqual([side, trigger, kind]);
    }
    const atLast = await socket.request({ op: 'create_order', data: limitData('buy', px(0), '0.001', { stop_trigger_price: px(0) }) }, (f) => f['type'] === 'error');
    expectErrorEvent(atLast, 400, 'is already met by the last trade');
  });

  it('time_in_force GTT with expired_at as the interface’s integer nanoseconds rests, then expires', async () => {
    const v = venue();
    const { trader, socket } = await desk(v);
    const id = cid('gtt');
    const expiredAt = nanosFromNow(1_500);
    const open = await createOrder(socket, limitData('buy', px(-40), '0.001', { time_in_force: 'GTT', expired_at: expiredAt, client_order_id: id }), ['open']);
    expect(open.expired_at).toBe(expiredAt.toString());
    const expired = await orderUpdate(socket, id, ['expired']);
    expect(expired.id).toBe(open.id);
    expect(await v.activeOrders(trader)).toEqual([]);
  });

  it('scheduled_at as the interface’s integer nanoseconds holds the order as scheduled, then opens it', async () => {
    const v = venue();
    const { trader, socket } = await desk(v);
    const id = cid('scheduled');
    const scheduledAt = nanosFromNow(1_500);
    const scheduled = await createOrder(socket, limitData('buy', px(-50), '0.001', { scheduled_at: scheduledAt, client_order_id: id }), ['scheduled']);
    expect(scheduled.scheduled_at).toBe(scheduledAt.toString());
    expect(await bidLevels(v)).toEqual([]);
    const open = await orderUpdate(socket, id, ['open']);
    expect(open.id).toBe(scheduled.id);
    expect((await v.activeOrders(trader)).map((o) => o.order_id)).toEqual([scheduled.id]);
  });
});

describe('create_order stp between two orders of the same user', () => {
  /** The user's resting sell at px(0), then an incoming buy at px(0) carrying `stp`. */
  async function selfCross(v: WsVenue, stp: string, restingSize: string, incomingSize: string) {
    const { trader, socket } = await desk(v);
    const resting = await createOrder(socket, limitData('sell', px(0), restingSize, { client_order_id: cid(`rest-${stp}`) }), ['open']);
    const incomingId = cid(`in-${stp}`);
    const from = socket.mark();
    socket.send({ op: 'create_order', data: limitData('buy', px(0), incomingSize, { stp, client_order_id: incomingId }) });
    const incoming = await orderUpdate(socket, incomingId, ['open', 'cancelled', 'filled'], from);
    await socket.barrier();
    const restingAfter = updatesOf(socket, resting.id, from).at(-1);
    return { trader, socket, resting, restingAfter, incoming };
  }

  it('CN (the default) cancels the incoming (newest) order; the resting one stays', async () => {
    const v = venue();
    const { incoming, restingAfter, resting } = await selfCross(v, 'CN', '0.003', '0.002');
    expect(incoming).toMatchObject({ status: 'cancelled', stp: 'CANCEL_TAKER', filled_base_size: '0' });
    expect(restingAfter).toBeUndefined();
    expect(await askLevels(v)).toEqual([{ price: px(0), size: '0.003' }]);
    expect(await bidLevels(v)).toEqual([]);
    expect(resting.status).toBe('open');
  });

  it('CO cancels the resting (oldest) order; the incoming one goes on and rests', async () => {
    const v = venue();
    const { incoming, restingAfter } = await selfCross(v, 'CO', '0.003', '0.002');
    expect(restingAfter).toMatchObject({ status: 'cancelled', filled_base_size: '0' });
    expect(incoming).toMatchObject({ status: 'open', stp: 'CANCEL_MAKER', filled_base_size: '0' });
    expect(await askLevels(v)).toEqual([]);
    expect(await bidLevels(v)).toEqual([{ price: px(0), size: '0.002' }]);
  });

  it('CB cancels both', async () => {
    const v = venue();
    const { trader, incoming, restingAfter } = await selfCross(v, 'CB', '0.003', '0.002');
    expect(restingAfter).toMatchObject({ status: 'cancelled' });
    expect(incoming).toMatchObject({ status: 'cancelled', stp: 'CANCEL_BOTH' });
    expect(await askLevels(v)).toEqual([]);
    expect(await bidLevels(v)).toEqual([]);
    expect(await v.activeOrders(trader)).toEqual([]);
  });

  it('DC with a smaller incoming order: it is cancelled, the resting one shrinks by its size', async () => {
    const v = venue();
    const { trader, incoming, resting, restingAfter } = await selfCross(v, 'DC', '0.003', '0.001');
    expect(incoming).toMatchObject({ status: 'cancelled', filled_base_size: '0' });
    // Its record says so, live and over REST, so that its fills still add up to its size.
    expect(restingAfter).toMatchObject({ id: resting.id, status: 'open', base_size: '0.002', filled_base_size: '0' });
    expect(await askLevels(v)).toEqual([{ price: px(0), size: '0.002' }]);
    expect(await bidLevels(v)).toEqual([]);
    expect((await v.activeOrders(trader)).map((o) => [o.order_id, o.base_size])).toEqual([[resting.id, '0.002']]);
  });

  it('DC with a smaller resting order: it is cancelled, the incoming one shrinks by its size and rests', async () => {
    const v = venue();
    const { trader, incoming, restingAfter } = await selfCross(v, 'DC', '0.001', '0.003');
    expect(restingAfter).toMatchObject({ status: 'cancelled', filled_base_size: '0' });
    expect(incoming).toMatchObject({ status: 'open', base_size: '0.002', filled_base_size: '0' });
    expect(await askLevels(v)).toEqual([]);
    expect(await bidLevels(v)).toEqual([{ price: px(0), size: '0.002' }]);
    expect((await v.activeOrders(trader)).map((o) => [o.order_id, o.base_size])).toEqual([[incoming.id, '0.002']]);
  });

  it('DC with equal sizes cancels both', async () => {
    const v = venue();
    const { trader, incoming, restingAfter } = await selfCross(v, 'DC', '0.002', '0.002');
    expect(restingAfter).toMatchObject({ status: 'cancelled' });
    expect(incoming).toMatchObject({ status: 'cancelled' });
    expect(await askLevels(v)).toEqual([]);
    expect(await bidLevels(v)).toEqual([]);
    expect(await v.activeOrders(trader)).toEqual([]);
  });
});

describe('cancel_order', () => {
  it('by order_id: the update is cancelled with cancel_requested_at in nanoseconds, and REST agrees', async () => {
    const v = venue();
    const { trader, socket } = await desk(v);
    const before = BigInt(Date.now()) * 1_000_000n;
    const order = await createOrder(socket, limitData('buy', px(-60), '0.001', { client_order_id: cid('c-id') }), ['open']);
    const from = socket.mark();
    socket.send({ op: 'cancel_order', data: { order_id: order.id } });
    const cancelled = await orderUpdate(socket, order.client_order_id, ['cancelled'], from);
    expect(cancelled.id).toBe(order.id);
    expect(cancelled.cancel_requested_at).toMatch(/^[1-9]\d{18}$/);
    expect(BigInt(cancelled.cancel_requested_at) >= before).toBe(true);
    expect(await v.activeOrders(trader)).toEqual([]);
    const archived = await v.call<{ order: { status: string; done_reason: string; cancel_requested_at: string } }>('GET', '/api/v1/order/archived', { key: trader.creds, query: { order: order.id } });
    expect(archived.body.order).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', cancel_requested_at: cancelled.cancel_requested_at });
  });

  it('by client_order_id, matched case-insensitively', async () => {
    const v = venue();
    const { trader, socket } = await desk(v);
    const id = cid('c-cid');
    const order = await createOrder(socket, limitData('buy', px(-60), '0.001', { client_order_id: id }), ['open']);
    const from = socket.mark();
    socket.send({ op: 'cancel_order', data: { client_order_id: id.toUpperCase() } });
    const cancelled = await orderUpdate(socket, id, ['cancelled'], from);
    expect(cancelled.id).toBe(order.id);
    expect(await v.activeOrders(trader)).toEqual([]);
  });

  it('a connection not subscribed to orders gets the cancelled update of its own cancel_order (docs/api.md: answered as create_order)', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.session(trader);
    const order = await createOrder(socket, limitData('buy', px(-60), '0.001', { client_order_id: cid('c-unsub') }), ['open']);
    const from = socket.mark();
    socket.send({ op: 'cancel_order', data: { order_id: order.id } });
    const cancelled = await orderUpdate(socket, order.client_order_id, ['cancelled'], from);
    expect(cancelled.id).toBe(order.id);
  });

  it('a partially filled order cancels with its fill kept', async () => {
    const v = venue();
    const maker = await desk(v);
    const taker = await desk(v);
    const order = await createOrder(maker.socket, limitData('sell', px(0), '0.004', { client_order_id: cid('partial') }), ['open']);
    await createOrder(taker.socket, limitData('buy', px(0), '0.001', { client_order_id: cid('hit') }), ['filled']);
    const from = maker.socket.mark();
    maker.socket.send({ op: 'cancel_order', data: { order_id: order.id } });
    const cancelled = await orderUpdate(maker.socket, order.client_order_id, ['cancelled'], from);
    expect(cancelled).toMatchObject({ filled_base_size: '0.001' });
    expect(cancelled.trades).toHaveLength(1);
    expect(await askLevels(v)).toEqual([]);
  });
});
