// The venue's limits as properties, on venues started with small limits through the options the CLI passes
// (--request-rate, --order-rate, --max-open-orders): for any burst above a rate limit exactly the limit gets
// through and the rest is HTTP 429 with E0501 or E0503 and a Retry-After that, once waited, lets the next one
// through; the open-order limit (E0210) over REST and WebSocket; the body and frame size limits; and our own
// VenueRestClient waiting out Retry-After and then succeeding.
//
// The rate properties freeze the clock (Date only: timers and sockets keep real time) so that no token comes
// back in the middle of a burst however slow the machine is, and move it on by exactly Retry-After.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VenueRestClient, type RequestAttempt } from '../../src-main/connection/rest-client';
import { DEFAULT_BODY_LIMIT } from '../../src-main/venue/api/http-api';
import { DEFAULT_WS_OPTIONS } from '../../src-main/venue/api/ws-api';
import { activeOrders, BTC, expectError, getAccount, limit, px, useVenue, type Reply, type TestVenue, type Trader } from '../integration/harness';
import { signature, TestSocket, type Frame } from '../integration/ws/ws-client';

/** The Retry-After header as whole seconds: present, positive, and an integer (interface 7.3). */
function retryAfterSeconds(reply: Reply): number {
  const header = reply.headers.get('retry-after') ?? '';
  expect(header, `Retry-After of ${JSON.stringify(reply.body)}`).toMatch(/^[1-9]\d*$/);
  return Number(header);
}

/** Send `count` requests at once; answers in sending order. */
function burst(count: number, send: (i: number) => Promise<Reply>): Promise<Reply[]> {
  return Promise.all(Array.from({ length: count }, (_unused, i) => send(i)));
}

/**
 * The clock stands still during each test; `advance` moves it on. It never goes back between tests either: the
 * venue's clock does not, and WebSocket auth compares the two.
 */
function frozenClock(): { advance(seconds: number): void } {
  let stoppedAt = 0;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    if (stoppedAt > Date.now()) vi.setSystemTime(stoppedAt);
  });
  afterEach(() => {
    stoppedAt = Date.now();
    vi.useRealTimers();
  });
  return { advance: (seconds) => vi.setSystemTime(Date.now() + seconds * 1000) };
}

/** A fresh socket to the venue, authenticated with a new key of the trader: an auth signature is good once. */
async function wsSession(v: TestVenue, trader: Trader): Promise<TestSocket> {
  const created = await v.call<{ api_key: { api_key: string; api_secret: string } }>('POST', '/api-keys', { key: trader.creds, body: {} });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const { api_key: key, api_secret: secret } = created.body.api_key;
  const socket = await TestSocket.open(v.running.wsUrl);
  const timestamp = Math.floor(Date.now() / 1000);
  const answer = await socket.request({ op: 'auth', data: { key, timestamp, signature: signature(key, secret, timestamp) } });
  expect(answer, JSON.stringify(answer)).toMatchObject({ channel: 'auth', type: 'authenticated' });
  return socket;
}

let clientIds = 0;
const cid = (label: string): string => `${label}-${process.pid}-${++clientIds}`;

describe('the per-key request rate (--request-rate 4)', () => {
  const RATE = 4;
  const venue = useVenue({ requestRate: RATE });
  const clock = frozenClock();

  it('for any burst above the limit, exactly the limit is answered and the rest is 429 E0501 with a Retry-After that lets the next one through', async () => {
    const v = venue();
    clock.advance(10);
    const trader = await v.newTrader({ VND: '1000000000' });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: RATE + 1, max: RATE * 4 }), fc.constantFrom('/api/v1/orders/active', '/api/v1/orders/archived', 'account'), async (n, what) => {
        // A full bucket: a second of tokens, however the last run left it.
        clock.advance(10);
        const urlPath = what === 'account' ? `/accounts/${trader.userId}` : what;
        const replies = await burst(n, () => v.call('GET', urlPath, { key: trader.creds }));
        const answered = replies.filter((r) => r.status === 200);
        const refused = replies.filter((r) => r.status !== 200);
        expect(answered).toHaveLength(RATE);
        expect(refused).toHaveLength(n - RATE);
        const waits = refused.map((r) => {
          expectError(r, 429, 'E0501_RateLimitExceeded');
          return retryAfterSeconds(r);
        });
        // Refused means refused right now: the very next request is refused too.
        expect((await v.call('GET', urlPath, { key: trader.creds })).status).toBe(429);
        clock.advance(Math.max(...waits));
        expect((await v.call('GET', urlPath, { key: trader.creds })).status).toBe(200);
      }),
      { numRuns: 15 },
    );
  });

  it('the budget is the key’s: another key of the same user, another user and the public endpoints are unaffected', async () => {
    const v = venue();
    clock.advance(10);
    const trader = await v.newTrader({});
    const other = await v.newTrader({});
    const created = await v.call<{ api_key: { api_key: string; api_secret: string } }>('POST', '/api-keys', { key: trader.creds, body: {} });
    const secondKey = { key: created.body.api_key.api_key, secret: created.body.api_key.api_secret };
    clock.advance(10);
    const replies = await burst(RATE * 3, () => v.call('GET', '/api/v1/orders/active', { key: trader.creds }));
    expect(replies.filter((r) => r.status === 429).length).toBe(RATE * 2);
    expect((await v.call('GET', '/api/v1/orders/active', { key: secondKey })).status).toBe(200);
    expect((await v.call('GET', '/api/v1/orders/active', { key: other.creds })).status).toBe(200);
    const publicReplies = await burst(RATE * 3, () => v.call('GET', `/products/${BTC}/orderbook`));
    expect(publicReplies.map((r) => r.status)).toEqual(publicReplies.map(() => 200));
  });
});

describe('the per-key request rate over the WebSocket (--request-rate 4)', () => {
  const RATE = 4;
  const venue = useVenue({ requestRate: RATE });
  const clock = frozenClock();

  it('is the key’s budget there too: trading operations beyond it are refused with E0501 (409)', async () => {
    const v = venue();
    clock.advance(10);
    const trader = await v.newTrader({});
    const socket = await wsSession(v, trader);
    try {
      clock.advance(10);
      const requestIds = Array.from({ length: RATE * 3 }, (_unused, i) => `ws-req-${i}`);
      const from = socket.mark();
      for (const id of requestIds) socket.send({ op: 'cancel_order', request_id: id, data: { client_order_id: id } });
      const answers = await Promise.all(requestIds.map((id) => socket.next((f) => answersRequest(f, id), 5_000, from)));
      const limited = answers.filter((f) => String(f['message']).startsWith('E0501_RateLimitExceeded: '));
      expect(limited.map((f) => f['code'])).toEqual(limited.map(() => 409));
      expect(limited, JSON.stringify(answers)).toHaveLength(RATE * 2);
      expect(answers.filter((f) => String(f['message']).startsWith('E0301_OrderNotFound: '))).toHaveLength(RATE);
    } finally {
      socket.terminate();
    }
  });
});

describe('the per-key order rate (--order-rate 3)', () => {
  const RATE = 3;
  const venue = useVenue({ orderRate: RATE, cleanBooks: true });
  const clock = frozenClock();

  it('for any burst of orders above the limit, exactly the limit is placed; the rest is 429 E0503, places nothing, and Retry-After lets the next one in', async () => {
    const v = venue();
    clock.advance(10);
    const trader = await v.newTrader({ VND: '100000000000' });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: RATE + 1, max: RATE * 5 }), async (n) => {
        clock.advance(10);
        expect((await v.call('DELETE', '/api/v1/orders/active/all', { key: trader.creds })).status).toBe(200);
        const replies = await burst(n, (i) => v.call('POST', '/api/v1/orders', { key: trader.creds, body: limit('BUY', px(-100 - i), '0.001', { wait: true, client_order_id: cid('rate') }) }));
        const placed = replies.filter((r) => r.status === 200);
        const refused = replies.filter((r) => r.status !== 200);
        expect(placed).toHaveLength(RATE);
        const waits = refused.map((r) => {
          expectError(r, 429, 'E0503_OrderRateLimitExceeded');
          return retryAfterSeconds(r);
        });
        expect(refused).toHaveLength(n - RATE);
        // Exactly the answered ones rest on the book, holding exactly their funds.
        const active = await activeOrders(v, trader);
        expect(active).toHaveLength(RATE);
        const ids = placed.map((r) => (r.body as { order: { order_id: string } }).order.order_id).sort();
        expect(active.map((o) => o.order_id).sort()).toEqual(ids);
        // Reads are not orders: still answered.
        expect((await v.call('GET', '/api/v1/orders/active', { key: trader.creds })).status).toBe(200);
        clock.advance(Math.max(...waits));
        const next = await v.call<{ order: { status: string } }>('POST', '/api/v1/orders', { key: trader.creds, body: limit('BUY', px(-99), '0.001', { wait: true }) });
        expect(next.status, JSON.stringify(next.body)).toBe(200);
      }),
      { numRuns: 10 },
    );
  });

  it('the order rate is the key’s over the WebSocket too: create_order beyond it is refused with E0503 (409) and places nothing', async () => {
    const v = venue();
    clock.advance(10);
    const trader = await v.newTrader({ VND: '100000000000' });
    const socket = await wsSession(v, trader);
    try {
      const n = RATE * 3;
      clock.advance(10);
      const requestIds = Array.from({ length: n }, (_unused, i) => `ws-rate-${i}`);
      const from = socket.mark();
      requestIds.forEach((id, i) => socket.send({ op: 'create_order', request_id: id, data: { type: 'limit', side: 'buy', product_id: BTC, price: px(-200 - i), size: '0.001' } }));
      const answers = await Promise.all(requestIds.map((id) => socket.next((f) => answersRequest(f, id), 5_000, from)));
      const refused = answers.filter((f) => f['type'] === 'error');
      for (const error of refused) {
        expect(error['code'], JSON.stringify(error)).toBe(409);
        expect(error['message'], JSON.stringify(error)).toMatch(/^E0503_OrderRateLimitExceeded: /);
      }
      expect(refused, `create_order frames refused with E0503: ${n} sent at once, order rate ${RATE}`).toHaveLength(n - RATE);
      expect(await activeOrders(v, trader)).toHaveLength(RATE);
    } finally {
      socket.terminate();
    }
  });
});

/** The first answer to a request: its error event, or an order update carrying its request_id. */
function answersRequest(f: Frame, requestId: string): boolean {
  if (f['request_id'] === requestId) return true;
  return Array.isArray(f['data']) && (f['data'] as Frame[]).some((o) => o['request_id'] === requestId);
}

describe('the open-order limit (--max-open-orders 3)', () => {
  const MAX = 3;
  const venue = useVenue({ maxOpenOrders: MAX, cleanBooks: true });

  it('for any number of orders beyond the limit, the extra ones are E0210 and change nothing, over REST and WebSocket; a freed slot takes one more', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000000' });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.constantFrom<'rest' | 'ws'>('rest', 'ws'), fc.nat({ max: MAX - 1 }), async (extra, via, freed) => {
        // From an empty book, whatever a failed run before this one left.
        expect((await v.call('DELETE', '/api/v1/orders/active/all', { key: trader.creds })).status).toBe(200);
        const resting: string[] = [];
        for (let i = 0; i < MAX; i += 1) {
          const reply = await v.call<{ order: { order_id: string; status: string } }>('POST', '/api/v1/orders', { key: trader.creds, body: limit('BUY', px(-300 - i), '0.001', { wait: true }) });
          expect(reply.body.order?.status, JSON.stringify(reply.body)).toBe('ACTIVE');
          resting.push(reply.body.order.order_id);
        }
        const before = await getAccount(v, trader);
        if (via === 'rest') {
          for (let i = 0; i < extra; i += 1) {
            expectError(await v.call('POST', '/api/v1/orders', { key: trader.creds, body: limit('BUY', px(-400 - i), '0.001', { wait: true }) }), 400, 'E0210_OrderLimitExceeded');
          }
        } else {
          const socket = await wsSession(v, trader);
          try {
            for (let i = 0; i < extra; i += 1) {
              const answer = await socket.request({ op: 'create_order', data: { type: 'limit', side: 'buy', product_id: BTC, price: px(-400 - i), size: '0.001' } }, (f) => f['type'] === 'error');
              expect(answer['code'], JSON.stringify(answer)).toBe(409);
              expect(answer['message']).toMatch(/^E0210_OrderLimitExceeded: /);
            }
          } finally {
            socket.terminate();
          }
        }
        const after = await getAccount(v, trader);
        expect(after.asset_balances).toEqual(before.asset_balances);
        expect((await activeOrders(v, trader)).map((o) => o.order_id).sort()).toEqual([...resting].sort());

        expect((await v.call('DELETE', '/api/v1/order/active', { key: trader.creds, query: { order_id: resting[freed] as string } })).status).toBe(200);
        const again = await v.call<{ order: { status: string } }>('POST', '/api/v1/orders', { key: trader.creds, body: limit('BUY', px(-500), '0.001', { wait: true }) });
        expect(again.body.order?.status, JSON.stringify(again.body)).toBe('ACTIVE');
      }),
      { numRuns: 8 },
    );
  });
});

describe('body and frame size limits (the venue’s defaults)', () => {
  const venue = useVenue({ cleanBooks: true });

  it('any body over the limit is 413 E0103 on every route that takes one, and places nothing', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000000' });
    const before = await getAccount(v, trader);
    const routes: { method: 'POST' | 'DELETE'; path: string; key: Trader; body: Record<string, unknown> }[] = [
      { method: 'POST', path: '/api/v1/orders', key: trader, body: limit('BUY', px(-100), '0.001', { wait: true }) },
      { method: 'DELETE', path: '/api/v1/orders/active', key: trader, body: { product_ids: [BTC] } },
      { method: 'POST', path: '/api-keys', key: trader, body: { name: 'big' } },
      { method: 'POST', path: '/sim/users', key: v.admin, body: { balances: { VND: '1' } } },
      { method: 'POST', path: '/sim/deposit', key: v.admin, body: { user_id: trader.userId, asset: 'VND', amount: '1' } },
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.integer({ min: DEFAULT_BODY_LIMIT + 1, max: DEFAULT_BODY_LIMIT * 4 }), async (route, size) => {
        const text = JSON.stringify({ ...route.body, pad: '' });
        const rawBody = text.replace('"pad":""', `"pad":"${'x'.repeat(size - text.length)}"`);
        expect(Buffer.byteLength(rawBody)).toBe(size);
        const reply = await v.call(route.method, route.path, { key: route.key.creds, rawBody, headers: { 'content-type': 'application/json' } });
        expectError(reply, 413, 'E0103_BodyTooLarge');
      }),
      { numRuns: 20 },
    );
    const after = await getAccount(v, trader);
    expect(after.asset_balances).toEqual(before.asset_balances);
    expect(after.stats.order_stats.total_orders).toBe(before.stats.order_stats.total_orders);
    // A body at the limit is read: the same order, padded to exactly the limit, is placed.
    const text = JSON.stringify({ ...limit('BUY', px(-100), '0.001', { wait: true }), pad: '' });
    const atLimit = text.replace('"pad":""', `"pad":"${'x'.repeat(DEFAULT_BODY_LIMIT - text.length)}"`);
    const placed = await v.call<{ order: { status: string } }>('POST', '/api/v1/orders', { key: trader.creds, rawBody: atLimit, headers: { 'content-type': 'application/json' } });
    expect(placed.body.order.status, JSON.stringify(placed.body).slice(0, 300)).toBe('ACTIVE');
  });

  it('any WebSocket frame over the limit closes the connection with 1009 and places nothing; one at the limit is read', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000000' });
    const limitBytes = DEFAULT_WS_OPTIONS.maxFrameBytes;
    const padded = (size: number, clientOrderId: string): string => {
      const text = JSON.stringify({ op: 'create_order', request_id: clientOrderId, data: { type: 'limit', side: 'buy', product_id: BTC, price: px(-100), size: '0.001', client_order_id: clientOrderId }, pad: '' });
      return text.replace('"pad":""', `"pad":"${'x'.repeat(size - text.length)}"`);
    };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: limitBytes + 1, max: limitBytes * 4 }), async (size) => {
        const socket = await wsSession(v, trader);
        socket.send(padded(size, cid('big')));
        expect(await socket.closed()).toBe(1009);
      }),
      { numRuns: 10 },
    );
    expect(await activeOrders(v, trader)).toEqual([]);
    const socket = await wsSession(v, trader);
    try {
      const id = cid('at-limit');
      const answer = await socket.request({ op: 'ping' });
      expect(answer['type']).toBe('pong');
      socket.send(padded(limitBytes, id));
      const update = await socket.next((f) => answersRequest(f, id));
      expect(update['type'], JSON.stringify(update).slice(0, 300)).toBe('update');
    } finally {
      socket.terminate();
    }
  });
});

describe('a client that honours Retry-After (VenueRestClient, --request-rate 2 --order-rate 1)', () => {
  const venue = useVenue({ requestRate: 2, orderRate: 1 });

  it('waits out each 429 for as long as it says and then succeeds, placing every order exactly once', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000000' });
    // Orders included: this client is told to wait out the venue however long it asks (a trader's is not, c990e51).
    const client = new VenueRestClient({ baseUrl: v.baseUrl, credentials: { apiKey: trader.creds.key, apiSecret: trader.creds.secret }, maxRetries: 8, orderRateWaitMs: 60_000 });
    const attempts: RequestAttempt[] = [];
    client.onDidAttempt((a) => attempts.push(a));
    try {
      const orders = await Promise.all([0, 1, 2].map((i) => client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-100 - i), base_size: '0.001', wait: true })));
      const reads = await Promise.all([0, 1, 2].map(() => client.listActiveOrders()));
      expect(orders.map((o) => o.status)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
      expect(reads.every((r) => r.length >= 3)).toBe(true);

      const limited = attempts.filter((a) => a.outcome === 'rate_limited');
      expect(limited.length).toBeGreaterThan(0);
      for (const refusal of limited) {
        expect(refusal.httpStatus).toBe(429);
        expect(refusal.retryAfterMs).toBeGreaterThanOrEqual(1_000);
        // Nothing spending the refused budget went out before its Retry-After had passed.
        for (const later of attempts.filter((a) => a.sentAt > refusal.answeredAt && a.operation === refusal.operation)) {
          expect(later.sentAt - refusal.answeredAt).toBeGreaterThanOrEqual(refusal.retryAfterMs ?? 0);
        }
      }
      // Each order exists once, whatever the refusals (asked through the client: it waits out the budget too).
      const active = await client.listActiveOrders();
      expect(active.map((o) => o.order_id).sort()).toEqual(orders.map((o) => o.order_id).sort());
      await client.cancelAllOrders();
    } finally {
      client.dispose();
    }
  });
});
