// What an authenticated connection may still do, and who an order update is attributed to: a key that
// expires after auth, a failed re-auth, request_ids of interleaved create and cancel, updates of an order
// cancelled from another connection, and the answer to an order op refused by the message rate limit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startVenue } from '../../../src-main/venue/server';
import { eventually, type Credentials, type Trader } from '../harness';
import { TestSocket, signature, type Frame } from './ws-client';
import { cid, createOrder, expectErrorEvent, limitData, nanosFromNow, orderUpdate, px, updatesOf, useWsVenue, type WsOrder, type WsVenue } from './ws-venue';

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** A trading key of the owner that expires `ms` from now. */
async function shortLivedKey(v: WsVenue, owner: Trader, ms: number): Promise<Credentials> {
  const reply = await v.call<{ api_key: { api_key: string; api_secret: string } }>('POST', '/api-keys', {
    key: owner.creds,
    body: { name: 'short-lived', expiration_time: nanosFromNow(ms).toString() },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return { key: reply.body.api_key.api_key, secret: reply.body.api_key.api_secret };
}

async function untilRestRefuses(v: WsVenue, trader: Trader, creds: Credentials): Promise<{ status: number; body: unknown }> {
  return eventually(async () => {
    const reply = await v.call('GET', `/accounts/${trader.userId}`, { key: creds });
    return reply.status === 200 ? undefined : reply;
  }, 'the key to expire');
}

/** The error event answering this request id (from `from` on). */
function answerTo(socket: TestSocket, requestId: string, from = 0): Promise<Frame> {
  return socket.next((f) => f['type'] === 'error' && f['request_id'] === requestId, 5_000, from);
}

/** Every update frame that carries a frame-level request_id must carry it on each of its records. */
function expectFrameIdsConsistent(socket: TestSocket): void {
  for (const frame of socket.frames) {
    if (frame['channel'] !== 'orders' || frame['type'] !== 'update' || frame['request_id'] === undefined) continue;
    for (const order of frame['data'] as Frame[]) expect(order['request_id'], JSON.stringify(frame)).toBe(frame['request_id']);
  }
}

describe('a key that stops being usable after auth', () => {
  const venue = useWsVenue();

  it('a connection that only listens to orders is told on the auth channel and hears no more', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const short = await shortLivedKey(v, trader, 2_500);
    const listener = await v.session({ userId: trader.userId, creds: short });
    const subscribed = await listener.request({ op: 'sub', channel: 'orders' });
    expect(subscribed['type']).toBe('update');
    const trading = await v.session(trader);
    const heard = cid('heard');
    await createOrder(trading, limitData('buy', px(-310), '0.001', { client_order_id: heard }), ['open']);
    await eventually(() => (updatesOf(listener, heard).length > 0 ? true : undefined), 'the listener to hear the first order');

    await untilRestRefuses(v, trader, short);
    const from = listener.mark();
    const unheard = await createOrder(trading, limitData('buy', px(-311), '0.001', { client_order_id: cid('unheard') }), ['open']);
    const told = await listener.next((f) => f['channel'] === 'auth' && f['type'] === 'error', 5_000, from);
    expectErrorEvent(told, 401);
    expect(told['message']).toMatch(/^E0002_ApiKeyExpired: /);
    await listener.barrier();
    expect(updatesOf(listener, unheard.id, from)).toEqual([]);
  });

  it('create_order, cancel_order and sub to orders answer 401 E0002 once the key has expired, as REST does', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const short = await shortLivedKey(v, trader, 2_500);
    const holder: Trader = { userId: trader.userId, creds: short };
    const [creator, canceller, subscriber] = [await v.session(holder), await v.session(holder), await v.session(holder)];
    const resting = await createOrder(creator, limitData('buy', px(-300), '0.001', { client_order_id: cid('exp') }), ['open']);
    const orderId = resting.id;

    const rest = await untilRestRefuses(v, trader, short);
    expect(rest.status).toBe(401);
    expect(JSON.stringify(rest.body)).toContain('E0002_ApiKeyExpired');

    const data = limitData('buy', px(-301), '0.001', { client_order_id: cid('exp-after') });
    creator.send({ op: 'create_order', request_id: 'after', data });
    const created = await answerTo(creator, 'after');
    expect(created).toMatchObject({ channel: 'orders', request_id: 'after', data });
    expectErrorEvent(created, 401, 'authentication failed');
    expect(created['message']).toMatch(/^E0002_ApiKeyExpired: /);

    canceller.send({ op: 'cancel_order', request_id: 'cancel-after', data: { order_id: orderId } });
    const cancelled = await answerTo(canceller, 'cancel-after');
    expect(cancelled).toMatchObject({ channel: 'orders', request_id: 'cancel-after', data: { order_id: orderId } });
    expectErrorEvent(cancelled, 401);
    expect(cancelled['message']).toMatch(/^E0002_ApiKeyExpired: /);

    subscriber.send({ op: 'sub', channel: 'orders', request_id: 'sub-after' });
    const sub = await answerTo(subscriber, 'sub-after');
    expect(sub['channel']).toBe('orders');
    expectErrorEvent(sub, 401);
    expect(sub['message']).toMatch(/^E0002_ApiKeyExpired: /);

    // Nothing was placed or cancelled with the expired key.
    const active = await v.activeOrders(trader);
    expect(active.map((o) => o.order_id)).toEqual([orderId]);
  });

  it('a failed re-auth leaves the connection unauthenticated: no trading, no orders subscription', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.session(trader);
    await socket.request({ op: 'sub', channel: 'orders' });

    const timestamp = nowSeconds();
    const reauth = await socket.request({ op: 'auth', data: { key: trader.creds.key, timestamp, signature: signature(trader.creds.key, 'wrong', timestamp) } });
    expect(reauth['channel']).toBe('auth');
    expectErrorEvent(reauth, 401);

    const trade = await socket.request({ op: 'create_order', data: limitData('buy', px(-500), '0.001') });
    expect(trade['channel']).toBe('orders');
    expectErrorEvent(trade, 401);
    expect(trade['message']).toMatch(/^E0001_AuthRequired: /);

    // An order of the same user placed through REST no longer reaches this connection.
    const placed = await v.call<{ order: { order_id: string } }>('POST', '/api/v1/orders', {
      key: trader.creds,
      body: { product_id: 'BTC-VND', side: 'BUY', limit_price: px(-500), base_size: '0.001', wait: true },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    await socket.barrier();
    expect(updatesOf(socket, placed.body.order.order_id)).toEqual([]);
  });
});

describe('who an order update is attributed to', () => {
  const venue = useWsVenue();

  it('create then cancel without waiting: each record carries the request_id of the command that caused it', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.session(trader);
    const id = cid('c0x0');
    socket.send({ op: 'create_order', request_id: 'c0', data: limitData('buy', px(-400), '0.001', { client_order_id: id }) });
    socket.send({ op: 'cancel_order', request_id: 'x0', data: { client_order_id: id } });
    await orderUpdate(socket, id, ['cancelled']);

    const updates = updatesOf(socket, id);
    expect(updates.map((u) => [u.status, (u as WsOrder & { request_id?: string }).request_id])).toEqual([
      ['pending', 'c0'],
      ['open', 'c0'],
      ['cancelled', 'x0'],
    ]);
    expectFrameIdsConsistent(socket);
  });

  it('an order cancelled from another connection: the creator gets the cancel with its create request_id, the canceller with its own', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const [x, y] = [await v.session(trader), await v.session(trader)];
    const id = cid('cross');
    x.send({ op: 'create_order', request_id: 'create-x', data: limitData('buy', px(-400), '0.001', { client_order_id: id }) });
    const open = await orderUpdate(x, id, ['open']);

    y.send({ op: 'cancel_order', request_id: 'cancel-y', data: { order_id: open.id } });
    const onY = await orderUpdate(y, id, ['cancelled']);
    expect((onY as WsOrder & { request_id?: string }).request_id).toBe('cancel-y');
    const onX = await orderUpdate(x, id, ['cancelled']);
    expect((onX as WsOrder & { request_id?: string }).request_id).toBe('create-x');
    expectFrameIdsConsistent(x);
    expectFrameIdsConsistent(y);
  });

  it('a taker’s request_id stays on its own orders: the maker’s connection gets the fill with the maker’s create request_id', async () => {
    const v = venue();
    const [maker, taker] = [await v.newTrader(), await v.newTrader()];
    const [m, t] = [await v.session(maker), await v.session(taker)];
    const makerId = cid('maker');
    const takerId = cid('taker');
    m.send({ op: 'create_order', request_id: 'make', data: limitData('sell', px(900), '0.001', { client_order_id: makerId }) });
    await orderUpdate(m, makerId, ['open']);
    t.send({ op: 'create_order', request_id: 'take', data: limitData('buy', px(900), '0.001', { client_order_id: takerId, time_in_force: 'IOC' }) });

    const filled = await orderUpdate(m, makerId, ['filled']);
    expect((filled as WsOrder & { request_id?: string }).request_id).toBe('make');
    const took = await orderUpdate(t, takerId, ['filled']);
    expect((took as WsOrder & { request_id?: string }).request_id).toBe('take');
    await t.barrier();
    expect(updatesOf(t, makerId)).toEqual([]);
  });
});

describe('an order op refused by the per-connection message limit', () => {
  const RATE = 10;
  const venue = useWsVenue({ messagesPerSecond: RATE });

  it('is answered on the orders channel with its request_id and data; a frame that is not JSON gets the system error', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.session(trader);
    // Exhaust the connection's budget, then send one frame of each kind over it.
    for (let i = 0; i < RATE; i += 1) socket.send({ op: 'ping', request_id: `fill-${i}` });
    const create = limitData('buy', px(-500), '0.001', { client_order_id: cid('limited') });
    socket.send({ op: 'create_order', request_id: 'limited-create', data: create });
    socket.send({ op: 'cancel_order', request_id: 'limited-cancel', data: { client_order_id: 'nothing' } });
    socket.send('not json {');

    const created = await answerTo(socket, 'limited-create');
    expect(created).toMatchObject({ channel: 'orders', request_id: 'limited-create', data: create });
    expectErrorEvent(created, 409);
    expect(created['message']).toMatch(/^E0501_RateLimitExceeded: /);

    const cancelled = await answerTo(socket, 'limited-cancel');
    expect(cancelled).toMatchObject({ channel: 'orders', request_id: 'limited-cancel', data: { client_order_id: 'nothing' } });
    expectErrorEvent(cancelled, 409);
    expect(cancelled['message']).toMatch(/^E0501_RateLimitExceeded: /);

    // A refused ping names its request_id too; the junk frame's answer names none.
    const junk = await socket.next((f) => f['channel'] === 'system' && f['type'] === 'error' && f['request_id'] === undefined);
    expectErrorEvent(junk, 409);
    expect(junk['message']).toMatch(/^E0501_RateLimitExceeded: /);
    expect(junk['data']).toBeUndefined();
  });
});

describe('a venue that stops', () => {
  it('answers every order it took before the close frame, and takes none it cannot answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nova-ws-stop-'));
    let running = await startVenue({ port: 0, dataDir: dir });
    try {
      const boot = running.venue.localCredentials();
      if (boot === undefined) throw new Error('no local user');
      const socket = await TestSocket.open(running.wsUrl);
      await socket.auth(boot.api_key, boot.api_secret);
      await socket.request({ op: 'sub', channel: 'orders' });
      // A burst still arriving as the venue stops: some is taken, the rest is not.
      for (let i = 0; i < 300; i++) socket.send({ op: 'create_order', data: { type: 'limit', side: 'buy', product_id: 'BTC-VND', price: '1000000000', size: '0.001', client_order_id: `stop-${i}` } });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await running.close();
      expect(await socket.closed()).toBe(1001);
      const answered = new Set(socket.frames.flatMap((f) => (f['channel'] === 'orders' && Array.isArray(f['data']) ? (f['data'] as Frame[]).map((o) => o['client_order_id']) : [])));

      running = await startVenue({ port: 0, dataDir: dir });
      const placed = running.venue.exchange.activeOrders(boot.user_id, {}).map((o) => o.row.clientOrderId);
      expect(placed.filter((id) => !answered.has(id)), 'orders placed whose answer never came').toEqual([]);
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('closes every connection with 1001 going away, so a client knows to reconnect', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nova-ws-stop-'));
    const running = await startVenue({ port: 0, dataDir: dir });
    try {
      const socket = await TestSocket.open(running.wsUrl);
      await socket.request({ op: 'sub', channel: 'ticker', product_ids: ['BTC-VND'] });
      await running.close();
      expect(await socket.closed()).toBe(1001);
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
