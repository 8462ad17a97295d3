// The WebSocket while the venue stops (SIGTERM, the desk quitting): every frame the venue read before its close
// frame is answered before it, a request read once stopping began is refused with E0902 rather than dropped, and
// an upgrade that arrives then gets the interface's error object (7.1), not a bare status line.
import { expect, it } from 'vitest';
import { startTestVenue, type TestVenue, type Trader } from '../harness';
import { answerWhileStopping } from '../raw-http';
import { TestSocket, signature } from './ws-client';

const HANDSHAKE = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nHost: venue\r\n';

async function session(v: TestVenue, trader: Trader): Promise<TestSocket> {
  const socket = await TestSocket.open(v.running.wsUrl);
  const timestamp = Math.floor(Date.now() / 1000);
  socket.send({ op: 'auth', data: { key: trader.creds.key, timestamp, signature: signature(trader.creds.key, trader.creds.secret, timestamp) } });
  expect(await socket.next((f) => f['channel'] === 'auth')).toMatchObject({ type: 'authenticated' });
  return socket;
}

async function restingOrder(v: TestVenue, trader: Trader): Promise<string> {
  const reply = await v.call<{ order: { order_id: string; status: string } }>('POST', '/api/v1/orders', {
    key: trader.creds,
    body: { product_id: 'BTC-VND', side: 'BUY', limit_price: '2000000000', base_size: '0.01', wait: true },
  });
  expect(reply.body.order.status, JSON.stringify(reply.body)).toBe('ACTIVE');
  return reply.body.order.order_id;
}

it('a cancel_order the venue is working on when it is told to stop is answered before the close frame; one read after is refused with E0902', async () => {
  const v = await startTestVenue();
  try {
    const t = await v.newTrader({ VND: '100000000000' });
    const done = await restingOrder(v, t);
    expect((await v.call('DELETE', '/api/v1/order/active', { key: t.creds, query: { order_id: done } })).status).toBe(200);
    const live = await restingOrder(v, t);
    const socket = await session(v, t);

    // The stop arrives while the first cancel is being answered from the tables (an order already done): as a
    // SIGTERM may at any moment. The real method runs; the test only chooses the moment to close.
    const { venue } = v.running;
    const cancelRefusal = venue.cancelRefusal.bind(venue);
    let closing: Promise<void> | undefined;
    venue.cancelRefusal = async (userId, target) => {
      const answer = cancelRefusal(userId, target);
      closing ??= v.running.close();
      // The answer comes after the venue's commits have settled and a turn of the event loop has passed: a close
      // that did not wait for answers taken would have sent its close frame by then.
      await venue.settle();
      await new Promise((resolve) => setImmediate(resolve));
      return answer;
    };
    const from = socket.mark();
    // Both frames go out together, so the venue reads the second once it is already stopping.
    socket.send({ op: 'cancel_order', request_id: 'while-working', data: { order_id: done } });
    socket.send({ op: 'cancel_order', request_id: 'after-stop', data: { order_id: live } });
    expect(await socket.closed()).toBe(1001);
    await closing;

    const answers = socket.frames.slice(from);
    const first = answers.find((f) => f['request_id'] === 'while-working');
    expect(first, JSON.stringify(answers)).toMatchObject({ channel: 'orders', type: 'error', code: 409 });
    expect(String(first?.['message'])).toMatch(/^E0302_OrderAlreadyDone: /);
    const second = answers.find((f) => f['request_id'] === 'after-stop');
    expect(second, JSON.stringify(answers)).toMatchObject({ channel: 'orders', type: 'error', code: 500, data: { order_id: live } });
    expect(String(second?.['message'])).toMatch(/^E0902_ServiceUnavailable: /);
    expect(socket.invalid).toEqual([]);
  } finally {
    await v.close();
  }
});

it.each([
  ['a WebSocket upgrade', 'GET /ws'],
  ['a REST request with an Upgrade header', 'GET /products'],
])('%s pipelined behind a request in flight while the venue stops is 503 E0902 in the error object', async (_what, line) => {
  const v = await startTestVenue();
  try {
    const second = await answerWhileStopping(v.baseUrl, () => v.running.close(), `${line} HTTP/1.1\r\n${HANDSHAKE}\r\n`);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\ncontent-type: application\/json/i);
    const body = JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)) as unknown;
    expect(body).toEqual({ error: { code: 'Unavailable', message: expect.stringMatching(/^E0902_ServiceUnavailable: .+/) as unknown } });
  } finally {
    await v.close();
  }
});
