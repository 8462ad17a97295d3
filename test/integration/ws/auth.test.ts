// WebSocket auth (interface 4.12 "auth", section 5 item 9, 7.4 codes 401 and 403): a signed frame, and every
// way one can fail: bad signature, unknown key, stale timestamp, replay, malformed data, a read-only key.
import { describe, expect, it } from 'vitest';
import { signature, type Frame } from './ws-client';
import { BTC, cid, createOrder, expectErrorEvent, limitData, px, useWsVenue } from './ws-venue';

const WINDOW_SECONDS = 30;
const venue = useWsVenue({ authWindowSeconds: WINDOW_SECONDS });

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

function authFrame(key: string, secret: string, timestamp: number, requestId?: string): Frame {
  return { op: 'auth', ...(requestId === undefined ? {} : { request_id: requestId }), data: { key, timestamp, signature: signature(key, secret, timestamp) } };
}

describe('auth', () => {
  it('a correctly signed frame answers { channel: auth, type: authenticated } and echoes request_id', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.connect();
    const answer = await socket.request(authFrame(trader.creds.key, trader.creds.secret, nowSeconds()));
    expect(answer).toEqual({ channel: 'auth', type: 'authenticated', request_id: answer['request_id'] });
    // Authenticated: the orders channel and trading are open to it now.
    const sub = await socket.request({ op: 'sub', channel: 'orders' });
    expect(sub).toMatchObject({ channel: 'subscriptions', type: 'update', subscriptions: [{ channel: 'orders', product_ids: [] }] });
    const order = await createOrder(socket, limitData('buy', px(-500), '0.001', { client_order_id: cid('auth-ok') }), ['open']);
    expect(order.user_id).toBe(trader.userId);
  });

  it('a timestamp inside the window, early or late, is accepted', async () => {
    const v = venue();
    const trader = await v.newTrader();
    for (const skew of [-(WINDOW_SECONDS - 5), WINDOW_SECONDS - 5]) {
      const socket = await v.connect();
      const answer = await socket.request(authFrame(trader.creds.key, trader.creds.secret, nowSeconds() + skew));
      expect(answer, `skew ${skew}`).toMatchObject({ channel: 'auth', type: 'authenticated' });
    }
  });

  it('a wrong signature is 401 and leaves the connection unauthenticated but usable', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.connect();
    const frame = authFrame(trader.creds.key, 'not-the-secret', nowSeconds());
    const answer = await socket.request(frame);
    expect(answer['channel']).toBe('auth');
    expectErrorEvent(answer, 401);
    const trade = await socket.request({ op: 'create_order', data: limitData('buy', px(-500), '0.001') });
    expectErrorEvent(trade, 401);
    const retry = await socket.request(authFrame(trader.creds.key, trader.creds.secret, nowSeconds()));
    expect(retry).toMatchObject({ channel: 'auth', type: 'authenticated' });
  });

  it('a signature made with another key’s secret is 401', async () => {
    const v = venue();
    const [a, b] = [await v.newTrader(), await v.newTrader()];
    const socket = await v.connect();
    const answer = await socket.request(authFrame(a.creds.key, b.creds.secret, nowSeconds()));
    expectErrorEvent(answer, 401);
  });

  it('an unknown key is 401', async () => {
    const v = venue();
    const socket = await v.connect();
    const answer = await socket.request(authFrame('no-such-key', 'whatever', nowSeconds()));
    expect(answer['channel']).toBe('auth');
    expectErrorEvent(answer, 401);
  });

  it.each([
    ['in the past', -(WINDOW_SECONDS + 60)],
    ['in the future', WINDOW_SECONDS + 60],
  ])('a timestamp outside the window (%s) is 401 even with a good signature', async (_label, skew) => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.connect();
    const answer = await socket.request(authFrame(trader.creds.key, trader.creds.secret, nowSeconds() + skew));
    expect(answer['channel']).toBe('auth');
    expectErrorEvent(answer, 401);
    expectErrorEvent(await socket.request({ op: 'sub', channel: 'orders' }), 401);
  });

  it('a replayed auth frame is 401, on the same connection and on another', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const frame = authFrame(trader.creds.key, trader.creds.secret, nowSeconds());
    const first = await v.connect();
    expect(await first.request(frame)).toMatchObject({ channel: 'auth', type: 'authenticated' });
    expectErrorEvent(await first.request(frame), 401);

    const second = await v.connect();
    expectErrorEvent(await second.request(frame), 401);
    expectErrorEvent(await second.request({ op: 'create_order', data: limitData('buy', px(-500), '0.001') }), 401);
  });

  it.each<[string, unknown]>([
    ['no data', undefined],
    ['data that is not an object', 'key,123,abc'],
    ['no key', { timestamp: 1, signature: 'a'.repeat(64) }],
    ['an empty key', { key: '', timestamp: 1, signature: 'a'.repeat(64) }],
    ['a timestamp as a string', { key: 'k', timestamp: '1700000000', signature: 'a'.repeat(64) }],
    ['a fractional timestamp', { key: 'k', timestamp: 1700000000.5, signature: 'a'.repeat(64) }],
    ['a negative timestamp', { key: 'k', timestamp: -1, signature: 'a'.repeat(64) }],
    ['a signature that is not hex', { key: 'k', timestamp: 1, signature: 'z'.repeat(64) }],
    ['a signature of the wrong length', { key: 'k', timestamp: 1, signature: 'ab' }],
    ['an uppercase signature', { key: 'k', timestamp: 1, signature: 'A'.repeat(64) }],
  ])('malformed auth data (%s) is 400 on the auth channel', async (_label, data) => {
    const v = venue();
    const socket = await v.connect();
    const answer = await socket.request({ op: 'auth', ...(data === undefined ? {} : { data }) });
    expect(answer['channel']).toBe('auth');
    expectErrorEvent(answer, 400);
  });

  it('trading and the orders channel before auth are 401, with request_id and data echoed', async () => {
    const v = venue();
    const socket = await v.connect();
    const data = limitData('buy', px(-500), '0.001', { client_order_id: 'before-auth' });
    const create = await socket.request({ op: 'create_order', data });
    expect(create).toMatchObject({ channel: 'orders', type: 'error', data });
    expectErrorEvent(create, 401);
    const cancel = await socket.request({ op: 'cancel_order', data: { client_order_id: 'before-auth' } });
    expect(cancel).toMatchObject({ channel: 'orders', type: 'error', data: { client_order_id: 'before-auth' } });
    expectErrorEvent(cancel, 401);
    const sub = await socket.request({ op: 'sub', channel: 'orders' });
    expect(sub['channel']).toBe('orders');
    expectErrorEvent(sub, 401);
  });

  it('another user\'s auth on the same connection ends the first user\'s orders there', async () => {
    const v = venue();
    const [a, b] = [await v.newTrader(), await v.newTrader()];
    const socket = await v.session(a);
    await socket.request({ op: 'sub', channel: 'orders' });
    const first = cid('a-first');
    await createOrder(socket, limitData('buy', px(-500), '0.001', { client_order_id: first }), ['open']);
    const again = await socket.request(authFrame(b.creds.key, b.creds.secret, nowSeconds() + 2));
    expect(again).toMatchObject({ channel: 'auth', type: 'authenticated' });
    // A cancels, on another connection, the order it made on this one: none of it reaches the connection that is
    // now B's.
    const other = await v.session(a);
    await other.request({ op: 'sub', channel: 'orders' });
    const from = socket.mark();
    await other.request({ op: 'cancel_order', data: { client_order_id: first } }, (f) => f['type'] === 'update');
    await socket.barrier();
    expect(socket.frames.slice(from).filter((f) => f['channel'] === 'orders')).toEqual([]);
    // The connection still listens to orders, now B's.
    const bOrder = cid('b-order');
    await v.call('POST', '/api/v1/orders', { key: b.creds, body: { product_id: BTC, side: 'BUY', limit_price: px(-502), base_size: '0.001', client_order_id: bOrder } });
    await socket.next((f) => f['channel'] === 'orders' && f['type'] === 'update' && (f['data'] as Frame[]).some((o) => o['client_order_id'] === bOrder));
  });

  it('an order sent just before another user\'s auth on the same connection is not reported to that user', async () => {
    const v = venue();
    const [a, b] = [await v.newTrader(), await v.newTrader()];
    const socket = await v.session(a);
    await socket.request({ op: 'sub', channel: 'orders' });
    const from = socket.mark();
    socket.send({ op: 'create_order', request_id: 'A-create', data: limitData('buy', px(-600), '0.001', { client_order_id: cid('a-burst') }) });
    socket.send(authFrame(b.creds.key, b.creds.secret, nowSeconds() + 3));
    await socket.next((f) => f['channel'] === 'auth' && f['type'] === 'authenticated', 5_000, from);
    await socket.barrier();
    const after = socket.frames.slice(socket.frames.findIndex((f, i) => i >= from && f['channel'] === 'auth'));
    expect(after.filter((f) => f['channel'] === 'orders' && (f['data'] as Frame[] | undefined)?.some((o) => o['user_id'] === a.userId))).toEqual([]);
  });

  it('a read-only key authenticates and reads, but create_order and cancel_order are 403 "read-only api key"', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const readOnly = await v.readOnlyKey(trader);
    const trading = await v.session(trader);
    const resting = await createOrder(trading, limitData('buy', px(-500), '0.001', { client_order_id: cid('ro') }), ['open']);

    const socket = await v.connect();
    expect(await socket.auth(readOnly.key, readOnly.secret)).toMatchObject({ channel: 'auth', type: 'authenticated' });
    expect(await socket.request({ op: 'sub', channel: 'orders' })).toMatchObject({ channel: 'subscriptions', type: 'update' });

    const data = limitData('buy', px(-500), '0.001');
    const create = await socket.request({ op: 'create_order', data });
    expect(create).toMatchObject({ channel: 'orders', data });
    expectErrorEvent(create, 403, 'read-only api key');

    for (const target of [{ order_id: resting.id }, { client_order_id: resting.client_order_id }]) {
      const cancel = await socket.request({ op: 'cancel_order', data: target });
      expect(cancel).toMatchObject({ channel: 'orders', data: target });
      expectErrorEvent(cancel, 403, 'read-only api key');
    }
    // Nothing changed: the order still rests, and the read-only key created nothing.
    const active = await v.activeOrders(trader, BTC);
    expect(active.map((o) => o.order_id)).toEqual([resting.id]);
  });
});
