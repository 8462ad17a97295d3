// What Node would answer by itself, before any route runs, with a bare status and no body that no client of the
// interface's error object (7.1) can read: an `Expect` header other than 100-continue (417), an HTTP/1.1 request
// without a Host header (400). The venue answers them with that object, like every other failure before routing.
import { describe, expect, it } from 'vitest';
import { expectError, useVenue } from '../harness';
import { rawExchange, rawRequest, responses } from '../raw-http';

const venue = useVenue();

describe('an Expect header the venue cannot meet', () => {
  it('is 417 with the error object naming it', async () => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, 'GET /products HTTP/1.1\r\nHost: venue\r\nExpect: 200-ok\r\n\r\n', { halfClose: true });
    expectError({ status: reply.status, headers: new Headers(), body: reply.body }, 417, 'E0101_InvalidArgument', 'InvalidArgument');
    expect((reply.body as { error: { message: string } }).error.message).toContain('Expect: 200-ok');
    expect(reply.headers).toMatch(/^content-type: application\/json/im);

    const body = '{"name":"never"}';
    const post = await rawRequest(
      v.baseUrl,
      `POST /api-keys HTTP/1.1\r\nHost: venue\r\nNOVA-KEY: ${v.admin.creds.key}\r\nNOVA-SECRET: ${v.admin.creds.secret}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: something\r\n\r\n${body}`,
      { halfClose: true },
    );
    expect(post.status).toBe(417);
    expect(post.body).toMatchObject({ error: { code: 'InvalidArgument' } });
  });

  // RFC 9112 9.6: nothing behind an answer that closed the connection runs. Node's 417 was written outside the
  // line of answers the routes wait in, so an order pipelined behind it was placed and never answered.
  it('an order pipelined behind the 417 is not placed', async () => {
    const v = venue();
    const order = '{"product_id":"BTC-VND","side":"BUY","limit_price":"1000000000","base_size":"0.0001","client_order_id":"behind-417"}';
    const text = await rawExchange(
      v.baseUrl,
      'GET /products HTTP/1.1\r\nHost: venue\r\nExpect: 200-ok\r\n\r\n' +
        `POST /api/v1/orders HTTP/1.1\r\nHost: venue\r\nNOVA-KEY: ${v.admin.creds.key}\r\nNOVA-SECRET: ${v.admin.creds.secret}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${order.length}\r\n\r\n${order}`,
      { halfClose: false },
    );
    expect(responses(text).map((answer) => answer.status), text).toEqual([417]);
    const active = await v.call<{ orders: unknown[] }>('GET', '/api/v1/orders/active', { key: v.admin.creds });
    expect(active.body.orders).toEqual([]);
  });

  it('100-continue is still met, and the request answered', async () => {
    const v = venue();
    const text = await rawExchange(v.baseUrl, 'GET /products HTTP/1.1\r\nHost: venue\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n', { halfClose: true });
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    expect(text).toContain('"products":[');
  });
});

// The same for an HTTP/1.1 request without a Host header: RFC 9112 3.2 has the server answer 400, and Node did,
// by itself, with no body.
describe('an HTTP/1.1 request without a Host header', () => {
  it('is 400 E0101 with the error object, and nothing of it runs', async () => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, 'GET /products HTTP/1.1\r\n\r\n', { halfClose: true });
    expectError({ status: reply.status, headers: new Headers(), body: reply.body }, 400, 'E0101_InvalidArgument', 'InvalidArgument');
    expect((reply.body as { error: { message: string } }).error.message).toContain('Host');

    const body = '{"side":"BUY","product_id":"BTC-VND","limit_price":"1000000000","base_size":"0.01"}';
    const order = await rawRequest(
      v.baseUrl,
      `POST /api/v1/orders HTTP/1.1\r\nNOVA-KEY: ${v.admin.creds.key}\r\nNOVA-SECRET: ${v.admin.creds.secret}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      { halfClose: true },
    );
    expectError({ status: order.status, headers: new Headers(), body: order.body }, 400, 'E0101_InvalidArgument');
    const active = await v.call<{ orders: unknown[] }>('GET', '/api/v1/orders/active', { key: v.admin.creds });
    expect(active.body.orders).toEqual([]);
  });

  // RFC 9112 3.2: also 400 for a request with more than one, whichever version. Node keeps the first and drops the
  // others, so the request was answered as if sent to that host alone.
  it('and one with two Host headers, of either version, is 400 too', async () => {
    for (const version of ['1.1', '1.0']) {
      const reply = await rawRequest(venue().baseUrl, `GET /products HTTP/${version}\r\nHost: a.example\r\nhost: b.example\r\n\r\n`, { halfClose: true });
      expectError({ status: reply.status, headers: new Headers(), body: reply.body }, 400, 'E0101_InvalidArgument', 'InvalidArgument');
      expect((reply.body as { error: { message: string } }).error.message).toContain('more than one Host header');
    }
  });

  it('HTTP/1.0, which has no Host header to require, is answered', async () => {
    const reply = await rawRequest(venue().baseUrl, 'GET /products HTTP/1.0\r\n\r\n', { halfClose: true });
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveProperty('products');
  });
});
