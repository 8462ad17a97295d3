// Generated malformed requests against every REST endpoint: every answer is a structured 4xx in the API's
// error format (never a 5xx, never a dropped connection), and a refused request changes nothing.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestVenue, type Method, type TestVenue, type Trader } from '../integration/harness';

// The short form runs in npm test; `FUZZ_RUNS=50000 npm run test:fuzz` is the long one.
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 60);

/** Values that have broken parsers before: numbers no JSON number holds, signs, NaN, NUL and unicode. */
const nasty = fc.oneof(
  fc.constantFrom('1e400', '-0', 'NaN', 'Infinity', '0x10', ' 1', '1 ', '', '\u0000', '١٢٣', '9'.repeat(40), '0.' + '1'.repeat(40), '-1', '1.5e-7'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
);

const orderField = fc.constantFrom(
  'type', 'side', 'product_id', 'stp', 'limit_price', 'base_size', 'quote_size', 'exact_quote_size', 'time_in_force',
  'post_only', 'order_stop_type', 'stop_trigger_price', 'client_order_id', 'expired_at', 'scheduled_at', 'wait',
  '__proto__', 'constructor', 'prototype',
);

/** A body that is almost an order: a valid-looking base with one to three fields replaced by something nasty. */
const almostOrder = fc
  .tuple(fc.uniqueArray(orderField, { minLength: 1, maxLength: 3 }), fc.array(nasty, { minLength: 3, maxLength: 3 }))
  .map(([fields, values]) => {
    const body: Record<string, unknown> = { side: 'BUY', product_id: 'BTC-VND', limit_price: '2000000000', base_size: '0.001', post_only: true };
    fields.forEach((field, i) => Object.defineProperty(body, field, { value: values[i], enumerable: true, writable: true, configurable: true }));
    return body;
  });

const anyBody = fc.oneof(almostOrder, fc.anything({ maxDepth: 2 }), fc.object({ maxDepth: 2 }));
const rawText = fc.oneof(fc.constantFrom('{', '{"a":', '[1,', 'null', '"x"', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}'), fc.string({ maxLength: 60 }));
const queryValue = fc.oneof(nasty.map((v) => String(v)), fc.array(fc.string({ maxLength: 8 }), { minLength: 2, maxLength: 3 }));
const query = fc.dictionary(
  fc.constantFrom('product_id', 'product_ids', 'client_order_id', 'order_id', 'order', 'limit', 'status', 'sort', 'start_time', 'end_time', 'depth', 'category', 'ref', '__proto__'),
  queryValue,
  { maxKeys: 3 },
);

interface Endpoint {
  method: Method;
  path: string;
  /** Whether a random input may legitimately succeed (an order with one harmless field changed, a query). */
  mayAccept: boolean;
}

const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: '/api/v1/orders', mayAccept: true },
  { method: 'GET', path: '/api/v1/orders/active', mayAccept: true },
  { method: 'DELETE', path: '/api/v1/order/active', mayAccept: false },
  { method: 'DELETE', path: '/api/v1/orders/active', mayAccept: true },
  { method: 'DELETE', path: '/api/v1/orders/active/all', mayAccept: true },
  { method: 'GET', path: '/api/v1/orders/archived', mayAccept: true },
  // A hostile ?order= may name a real order: an earlier property may have placed one whose client id is "NaN".
  { method: 'GET', path: '/api/v1/order/archived', mayAccept: true },
  { method: 'GET', path: '/v1/error-codes', mayAccept: true },
  { method: 'GET', path: '/products/BTC-VND/orderbook', mayAccept: true },
  { method: 'GET', path: '/products/BTC-VND/trades', mayAccept: true },
  { method: 'POST', path: '/sim/deposit', mayAccept: false },
  { method: 'POST', path: '/sim/users', mayAccept: true },
  { method: 'POST', path: '/sim/speed', mayAccept: true },
  { method: 'POST', path: '/sim/volatility', mayAccept: true },
  { method: 'POST', path: '/sim/reference-price', mayAccept: true },
  { method: 'POST', path: '/api-keys', mayAccept: true },
  { method: 'DELETE', path: '/api-keys/nk_no_such_key', mayAccept: false },
  { method: 'GET', path: '/accounts/00000000-0000-4000-8000-000000000001', mayAccept: false },
  { method: 'GET', path: '/products', mayAccept: true },
  { method: 'GET', path: '/assets', mayAccept: true },
];

describe('hostile REST input', () => {
  let venue: TestVenue;
  let trader: Trader;
  beforeAll(async () => {
    venue = await startTestVenue();
    trader = await venue.newTrader({ BTC: '1', VND: '10000000000' });
  });
  afterAll(async () => venue.close());

  const account = async () => (await venue.call('GET', `/accounts/${trader.userId}`, { key: trader.creds })).body;
  const active = async () => (await venue.call('GET', '/api/v1/orders/active', { key: trader.creds })).body;

  function expectStructured(status: number, body: unknown, endpoint: Endpoint): void {
    expect(status, `${endpoint.method} ${endpoint.path} answered ${status}: ${JSON.stringify(body).slice(0, 200)}`).toBeLessThan(500);
    if (status >= 400) {
      expect(body).toMatchObject({ error: { code: expect.any(String), message: expect.stringMatching(/^E\d{4}_[A-Za-z]+: /) } });
    } else {
      expect(endpoint.mayAccept, `${endpoint.method} ${endpoint.path} accepted a malformed request`).toBe(true);
    }
  }

  it.each(ENDPOINTS)('$method $path answers malformed input with 4xx errors, and a refused request changes nothing', async (endpoint) => {
    const key = endpoint.path.startsWith('/sim') ? venue.admin.creds : trader.creds;
    // GET carries no body (fetch refuses one): only its query varies.
    const payload = endpoint.method === 'GET' ? fc.constant({}) : fc.oneof(anyBody.map((body) => ({ body })), rawText.map((rawBody) => ({ rawBody })));
    await fc.assert(
      fc.asyncProperty(payload, query, async (input, q) => {
        const accountBefore = await account();
        const activeBefore = await active();
        const reply = await venue.call(endpoint.method, endpoint.path, { key, query: q, ...input });
        expectStructured(reply.status, reply.body, endpoint);
        if (reply.status >= 400) {
          expect(await account()).toEqual(accountBefore);
          expect(await active()).toEqual(activeBefore);
        } else {
          await venue.cancelEverything();
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('answers hostile headers on an authenticated endpoint with 401 and a structured error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 300 }).filter((s) => /^[\x20-\x7e]+$/.test(s)), fc.string({ minLength: 1, maxLength: 300 }).filter((s) => /^[\x20-\x7e]+$/.test(s)), async (key, secret) => {
        const reply = await venue.call('GET', '/api/v1/orders/active', { headers: { 'NOVA-KEY': key, 'NOVA-SECRET': secret } });
        expect(reply.status).toBe(401);
        expect(reply.body).toMatchObject({ error: { code: 'AUTH_REQUIRED' } });
      }),
      { numRuns: RUNS },
    );
  });
});
