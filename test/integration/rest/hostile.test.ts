// Requests no honest client sends: each is refused with an error object in the interface's format, and none
// changes anything (ARCHITECTURE rule 4: never a crash, never a silent default).
import { describe, expect, it } from 'vitest';
import {
  BTC,
  activeOrders,
  expectError,
  getAccount,
  limit,
  placeOrder,
  px,
  useVenue,
  type CallOptions,
  type Method,
  type Reply,
  type TestVenue,
  type Trader,
} from '../harness';

const venue = useVenue();

const JSON_TYPE = { 'content-type': 'application/json' };

/** Everything a request could have changed for this trader: balances, counters, orders, the book. */
async function snapshot(v: TestVenue, t: Trader): Promise<unknown> {
  return {
    account: await getAccount(v, t),
    active: await activeOrders(v, t),
    archived: (await v.call('GET', '/api/v1/orders/archived', { key: t.creds })).body,
    book: (await v.call<{ orderbook: { bids: unknown; asks: unknown } }>('GET', `/products/${BTC}/orderbook`)).body.orderbook.bids,
  };
}

describe('hostile requests', () => {
  const cases: [string, Method, string, (t: Trader) => CallOptions, number, RegExp][] = [
    ['malformed JSON', 'POST', '/api/v1/orders', (t) => ({ key: t.creds, rawBody: '{"product_id": "BTC-VND",', headers: JSON_TYPE }), 400, /^E0102_MalformedJson: /],
    ['JSON with a trailing comma', 'POST', '/api/v1/orders', (t) => ({ key: t.creds, rawBody: '{"side":"BUY",}', headers: JSON_TYPE }), 400, /^E0102_MalformedJson: /],
    // An empty JSON body is no body (docs/api.md), so an order without one is refused for what it lacks.
    ['an empty JSON body to an order', 'POST', '/api/v1/orders', (t) => ({ key: t.creds, rawBody: '', headers: JSON_TYPE }), 400, /^E0101_InvalidArgument: request body: required/],
    ['malformed JSON to a bulk cancel', 'DELETE', '/api/v1/orders/active', (t) => ({ key: t.creds, rawBody: '[[[', headers: JSON_TYPE }), 400, /^E0102_MalformedJson: /],
    ['malformed JSON to /api-keys', 'POST', '/api-keys', (t) => ({ key: t.creds, rawBody: 'nope', headers: JSON_TYPE }), 400, /^E0102_MalformedJson: /],
    ['a JSON null body', 'POST', '/api/v1/orders', (t) => ({ key: t.creds, rawBody: 'null', headers: JSON_TYPE }), 400, /^E010[12]_/],
    ['a JSON string body', 'POST', '/api/v1/orders', (t) => ({ key: t.creds, rawBody: '"BUY"', headers: JSON_TYPE }), 400, /^E0101_InvalidArgument: /],
    [
      'a __proto__ key',
      'POST',
      '/api/v1/orders',
      (t) => ({ key: t.creds, rawBody: `{"product_id":"BTC-VND","side":"BUY","limit_price":"${px()}","base_size":"0.01","__proto__":{"wait":true}}`, headers: JSON_TYPE }),
      400,
      /^E0101_InvalidArgument: request body: __proto__ and constructor keys are not allowed/,
    ],
    ['text/plain', 'POST', '/api/v1/orders', (t) => ({ key: t.creds, rawBody: JSON.stringify(limit('BUY', px(), '0.01')), headers: { 'content-type': 'text/plain' } }), 415, /^E0106_UnsupportedMediaType: /],
    [
      'a gzip-encoded body',
      'POST',
      '/api/v1/orders',
      (t) => ({ key: t.creds, rawBody: JSON.stringify(limit('BUY', px(), '0.01')), headers: { ...JSON_TYPE, 'content-encoding': 'gzip' } }),
      415,
      /^E0106_UnsupportedMediaType: content-encoding gzip/,
    ],
    ['a form body', 'POST', '/api/v1/orders', (t) => ({ key: t.creds, rawBody: 'side=BUY&base_size=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, /^E0106_UnsupportedMediaType: /],
    ['a 1 MB body', 'POST', '/api/v1/orders', (t) => ({ key: t.creds, rawBody: JSON.stringify({ ...limit('BUY', px(), '0.01'), pad: 'x'.repeat(1 << 20) }), headers: JSON_TYPE }), 413, /^E0103_BodyTooLarge: /],
    ['an unknown route', 'GET', '/api/v2/orders', (t) => ({ key: t.creds }), 404, /^E0105_RouteNotFound: /],
    ['an unknown route with a body', 'POST', '/api/v1/order', (t) => ({ key: t.creds, body: limit('BUY', px(), '0.01') }), 404, /^E0105_RouteNotFound: /],
    ['a huge number', 'POST', '/api/v1/orders', (t) => ({ key: t.creds, body: limit('BUY', px(), `1${'0'.repeat(40)}`) }), 400, /^E01(01|10)_/],
    ['a very long client_order_id', 'POST', '/api/v1/orders', (t) => ({ key: t.creds, body: limit('BUY', px(), '0.01', { client_order_id: 'a'.repeat(10_000) }) }), 400, /^E0101_InvalidArgument: /],
    ['a repeated query parameter', 'DELETE', '/api/v1/order/active', (t) => ({ key: t.creds, query: { order_id: ['0b6c8a4e-1d3f-4c6b-9a7e-2f5d8c1b3a90', '0b6c8a4e-1d3f-4c6b-9a7e-2f5d8c1b3a91'] } }), 400, /^E0101_InvalidArgument: /],
  ];

  it.each(cases)('%s is refused and changes nothing', async (_what, method, path, options, status, message) => {
    const v = venue();
    const t = await v.newTrader({ BTC: '1', VND: '1000000000' });
    await placeOrder(v, t, limit('BUY', px(-100), '0.001', { client_order_id: 'keep' }));
    const before = await snapshot(v, t);

    const reply: Reply = await v.call(method, path, options(t));
    const body = reply.body as { error?: { code?: unknown; message?: unknown } };
    expect(reply.status, JSON.stringify(body)).toBe(status);
    expect(Object.keys(body)).toEqual(['error']);
    expect(typeof body.error?.code).toBe('string');
    expect(String(body.error?.message)).toMatch(message);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);

    expect(await snapshot(v, t)).toEqual(before);
  });

  it('an error never echoes the secret sent with it', async () => {
    const v = venue();
    const t = await v.newTrader({});
    for (const reply of [
      await v.call('GET', '/no/route', { key: t.creds }),
      await v.call('GET', `/accounts/${t.userId}`, { headers: { 'NOVA-KEY': t.creds.key, 'NOVA-SECRET': `${t.creds.secret}!` } }),
      await v.call('POST', '/api/v1/orders', { key: t.creds, body: limit('BUY', t.creds.secret, '0.01') }),
    ]) {
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(reply.body)).not.toContain(t.creds.secret);
    }
  });

  it('the venue still serves normally afterwards', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    expectError(await v.call('POST', '/api/v1/orders', { key: t.creds, rawBody: '{', headers: JSON_TYPE }), 400, 'E0102_MalformedJson');
    expect((await placeOrder(v, t, limit('BUY', px(-100), '0.001'))).status).toBe('ACTIVE');
  });
});
