// How the venue reads what arrives before a route runs: the JSON body, the URL's path and the headers. Each
// failure there must still be the interface's error object (7.1), and an empty body sent with a JSON
// content type (as many HTTP clients do on every request) must mean "no body", not malformed JSON.
import { describe, expect, it } from 'vitest';
import { BTC, activeOrders, expectError, expectOk, limit, px, useVenue, type Reply, type WireApiKey } from '../harness';
import { rawRequest } from '../raw-http';

const venue = useVenue();

const JSON_TYPE = { 'content-type': 'application/json' };

/** The reply's body as the error object, checked to have nothing else beside `error`. */
function errorOf(reply: Reply): { code: string; message: string } {
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  const body = reply.body as { error: { code: string; message: string } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
  return body.error;
}

describe('an empty body with Content-Type: application/json is no body', () => {
  it('DELETE /api/v1/order/active answers as if the header were absent', async () => {
    const v = venue();
    const t = await v.newTrader({});
    const query = { client_order_id: 'abc-1' };
    const plain = await v.call('DELETE', '/api/v1/order/active', { key: t.creds, query });
    const typed = await v.call('DELETE', '/api/v1/order/active', { key: t.creds, query, rawBody: '', headers: JSON_TYPE });
    expectError(plain, 404, 'E0301_OrderNotFound');
    expectError(typed, 404, 'E0301_OrderNotFound');
    expect(typed.body).toEqual(plain.body);
  });

  it('DELETE /api/v1/orders/active/all cancels as if the header were absent', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    expectOk(await v.call('POST', '/api/v1/orders', { key: t.creds, body: limit('BUY', px(-100), '0.001') }));
    const typed = await v.call('DELETE', '/api/v1/orders/active/all', { key: t.creds, query: { product_id: BTC }, rawBody: '', headers: JSON_TYPE });
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    expect(await activeOrders(v, t)).toEqual([]);
    const other = await v.call('DELETE', '/api/v1/orders/active/all', { key: t.creds, query: { product_id: 'ETH-VND' }, rawBody: '', headers: JSON_TYPE });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
  });

  it('POST /api-keys with an empty or whitespace-only body creates a key with the defaults', async () => {
    const v = venue();
    const t = await v.newTrader({});
    for (const rawBody of ['', ' \r\n\t ']) {
      const reply = await v.call<{ api_key: WireApiKey }>('POST', '/api-keys', { key: t.creds, rawBody, headers: JSON_TYPE });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body.api_key).toMatchObject({ name: '', expired_at: '0', is_read_only: false });
    }
  });

  it('a required body that is empty is refused by the endpoint, exactly as a missing one', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    for (const path of ['/api/v1/orders', '/api/v1/orders/active'] as const) {
      const method = path === '/api/v1/orders' ? 'POST' : 'DELETE';
      const missing = await v.call(method, path, { key: t.creds });
      const empty = await v.call(method, path, { key: t.creds, rawBody: '', headers: JSON_TYPE });
      expectError(missing, 400, 'E0101_InvalidArgument', 'InvalidArgument');
      expectError(empty, 400, 'E0101_InvalidArgument', 'InvalidArgument');
      expect(empty.body).toEqual(missing.body);
    }
    expect(await activeOrders(v, t)).toEqual([]);
  });

  it('a body that is not JSON, or over the limit, is still refused as before', async () => {
    const v = venue();
    const t = await v.newTrader({});
    expectError(await v.call('POST', '/api-keys', { key: t.creds, rawBody: ' { ', headers: JSON_TYPE }), 400, 'E0102_MalformedJson');
    expectError(await v.call('POST', '/api-keys', { key: t.creds, rawBody: '\u00a0', headers: JSON_TYPE }), 400, 'E0102_MalformedJson');
    const big = JSON.stringify({ name: 'x'.repeat(100 * 1024) });
    expectError(await v.call('POST', '/api-keys', { key: t.creds, rawBody: big, headers: JSON_TYPE }), 413, 'E0103_BodyTooLarge');
  });
});

describe('JSON with __proto__ or constructor keys', () => {
  it.each([
    ['a nested __proto__ key', '{"a":{"__proto__":1}}'],
    ['a top-level __proto__ key', `{"product_id":"BTC-VND","side":"BUY","limit_price":"${px()}","base_size":"0.01","__proto__":{"wait":true}}`],
    ['a constructor.prototype key', '{"constructor":{"prototype":{"side":"SELL"}}}'],
  ])('%s is E0101 naming the keys, not E0102, and places nothing', async (_what, rawBody) => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const reply = await v.call('POST', '/api/v1/orders', { key: t.creds, rawBody, headers: JSON_TYPE });
    expectError(reply, 400, 'E0101_InvalidArgument', 'InvalidArgument');
    expect(errorOf(reply).message).toBe('E0101_InvalidArgument: request body: __proto__ and constructor keys are not allowed');
    expect(await activeOrders(v, t)).toEqual([]);
  });

  it('JSON that is broken stays E0102 even when it mentions __proto__', async () => {
    const v = venue();
    const t = await v.newTrader({});
    expectError(await v.call('POST', '/api/v1/orders', { key: t.creds, rawBody: '{"__proto__":', headers: JSON_TYPE }), 400, 'E0102_MalformedJson');
  });
});

describe('failures before any route runs are error objects too', () => {
  it.each([
    ['GET', '/products/%ZZ/trades', false],
    ['GET', '/products/%ZZ/orderbook', false],
    ['GET', '/accounts/%ZZ', true],
  ] as const)('%s %s (a bad percent-encoding) is 400 E0101 naming the component', async (method, path, keyed) => {
    const v = venue();
    const reply = await v.call(method, path, keyed ? { key: v.admin.creds } : {});
    expectError(reply, 400, 'E0101_InvalidArgument', 'InvalidArgument');
    expect(errorOf(reply).message).toContain("'%ZZ'");
  });

  it('a path component over the router limit is 414 E0110', async () => {
    const v = venue();
    const reply = await v.call('GET', `/products/${'A'.repeat(300)}/trades`);
    expectError(reply, 414, 'E0110_ValueOutOfRange', 'OutOfRange');
    expect(errorOf(reply).message.length).toBeLessThan(300);
  });

  it('a 20,000-byte header is 431 with the error object, and the venue serves on', async () => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, `GET /api/v1/orders/active HTTP/1.1\r\nHost: x\r\nNOVA-KEY: ${'a'.repeat(20_000)}\r\n\r\n`, { halfClose: true });
    expect(reply.status).toBe(431);
    expect(reply.headers).toMatch(/\r\ncontent-type: application\/json/i);
    expect(reply.body).toEqual({ error: { code: 'InvalidArgument', message: expect.stringMatching(/^E0103_BodyTooLarge: request headers larger than \d+ bytes$/) as unknown } });
    expectOk(await v.call('GET', '/products'));
  });

  it.each([
    ['an authority target, with tunnel bytes after it', 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n\x16\x03\x01', 'no route CONNECT 127.0.0.1:443'],
    ['a path target', 'CONNECT /products HTTP/1.1\r\nHost: x\r\n\r\n', 'no route CONNECT /products'],
  ])('CONNECT (%s) is 404 E0105 with the error object, like any other method with no route, and the venue serves on', async (_what, request, message) => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, request, { halfClose: true });
    expect(reply.status).toBe(404);
    expect(reply.headers).toMatch(/\r\ncontent-type: application\/json/i);
    expect(reply.headers).toMatch(/\r\nconnection: close/i);
    expect(reply.body).toEqual({ error: { code: 'NotFound', message: `E0105_RouteNotFound: ${message}` } });
    expectOk(await v.call('GET', '/products'));
  });

  it('a request that is not HTTP is 400 with the error object', async () => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, 'NOT HTTP AT ALL\r\n\r\n', { halfClose: true });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: { code: 'InvalidArgument', message: 'E0101_InvalidArgument: request: not a valid HTTP/1.1 request' } });
  });
});
