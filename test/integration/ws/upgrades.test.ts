// Upgrade requests the venue's WebSocket does not take. Node hands every request with an Upgrade header to the
// server's 'upgrade' listener, so no Fastify route or not-found handler sees it: the venue must answer it itself,
// with the interface's error object (7.1) like any other request it refuses, and close the connection.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually, useVenue } from '../harness';
import { type RawReply, rawExchange, rawRequest, responses } from '../raw-http';

const venue = useVenue();

const HANDSHAKE = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nHost: 127.0.0.1\r\n';

function expectErrorObject(reply: RawReply, status: number, ref: string, message: RegExp): void {
  const what = JSON.stringify(reply);
  expect(reply.status, what).toBe(status);
  expect(reply.headers, what).toMatch(/\r\ncontent-type: application\/json/i);
  expect(reply.headers, what).toMatch(/\r\nconnection: close/i);
  const body = reply.body as { error: { code: string; message: string } };
  expect(Object.keys(body), what).toEqual(['error']);
  expect(Object.keys(body.error).sort(), what).toEqual(['code', 'message']);
  expect(body.error.message, what).toMatch(new RegExp(`^${ref}: `));
  expect(body.error.message, what).toMatch(message);
}

async function expectWsServes(wsUrl: string): Promise<void> {
  const ws = new WebSocket(wsUrl);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.close();
}

describe('a WebSocket upgrade the venue does not take gets the error object and a closed connection', () => {
  it.each([
    ['an unknown path', 'GET /nope', 'no route GET /nope'],
    ['a REST path with a method it has no route for', 'POST /products', 'no route POST /products'],
    ['/ws with a trailing slash', 'GET /ws/', 'no route GET /ws/'],
    ['/ws with a method other than GET', 'POST /ws', 'no route POST /ws'],
  ])('%s is 404 E0105', async (_what, line, message) => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, `${line} HTTP/1.1\r\n${HANDSHAKE}\r\n`, { halfClose: false });
    expectErrorObject(reply, 404, 'E0105_RouteNotFound', new RegExp(`^E0105_RouteNotFound: ${message} .*/ws`));
    expect((reply.body as { error: { code: string } }).error.code).toBe('NotFound');
    await expectWsServes(v.baseUrl.replace('http', 'ws') + '/ws');
  });

  it('the query string is not part of the path named', async () => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, `GET /nope?secret=1 HTTP/1.1\r\n${HANDSHAKE}\r\n`, { halfClose: false });
    expectErrorObject(reply, 404, 'E0105_RouteNotFound', /^E0105_RouteNotFound: no route GET \/nope /);
    expect(JSON.stringify(reply.body)).not.toContain('secret');
  });

  it('the ws client sees the 404 as an unexpected response, not a dropped connection', async () => {
    const v = venue();
    const ws = new WebSocket(v.baseUrl.replace('http', 'ws') + '/not-ws');
    const status = await new Promise<number>((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        ws.terminate();
      });
      ws.once('error', reject);
      ws.once('open', () => reject(new Error('opened')));
    });
    expect(status).toBe(404);
  });

  it.each([
    ['no Sec-WebSocket-Key', 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nHost: x\r\n', /Sec-WebSocket-Key/],
    ['an Upgrade other than websocket', 'Upgrade: h2c\r\nConnection: Upgrade\r\nHost: x\r\n', /Upgrade/],
    ['an unsupported Sec-WebSocket-Version', 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 7\r\nHost: x\r\n', /Sec-WebSocket-Version/],
  ])('a handshake to /ws with %s is 400 E0101 naming what is wrong', async (what, headers, message) => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, `GET /ws HTTP/1.1\r\n${headers}\r\n`, { halfClose: false });
    expectErrorObject(reply, 400, 'E0101_InvalidArgument', message);
    // RFC 6455 4.4: a version the server does not speak is answered with the versions it does.
    if (what.includes('Version')) expect(reply.headers).toMatch(/\r\nsec-websocket-version: 13/i);
  });
});

// RFC 9112 3.2, as for every other request: a handshake never reaches the routes' hooks, which refuse these, and
// two Host lines were upgraded as if the first were the only one.
describe('a /ws handshake with Host lines HTTP/1.1 does not allow', () => {
  it.each([
    ['two Host lines', 'Host: 127.0.0.1\r\nHost: evil.example\r\n', 'more than one Host header'],
    ['no Host line', '', 'an HTTP/1.1 request needs a Host header'],
  ])('(%s) is 400 E0101, not upgraded', async (_what, hosts, message) => {
    const v = venue();
    const handshake = HANDSHAKE.replace('Host: 127.0.0.1\r\n', hosts);
    const reply = await rawRequest(v.baseUrl, `GET /ws HTTP/1.1\r\n${handshake}\r\n`, { halfClose: false });
    expectErrorObject(reply, 400, 'E0101_InvalidArgument', new RegExp(message));
  });
});

describe('a request to a REST route that also asks to upgrade is answered by the route (RFC 9110 7.8: Upgrade may be ignored)', () => {
  it('GET /api/v1/orders/active with a WebSocket handshake is 200 with the orders, and the connection serves on', async () => {
    const v = venue();
    const { key, secret } = v.admin.creds;
    const text = await rawExchange(
      v.baseUrl,
      `GET /api/v1/orders/active HTTP/1.1\r\n${HANDSHAKE}NOVA-KEY: ${key}\r\nNOVA-SECRET: ${secret}\r\n\r\n` +
        'GET /assets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
      { halfClose: false },
    );
    const [orders, assets, ...more] = responses(text);
    expect(orders, text).toEqual({ status: 200, body: { orders: expect.any(Array) as unknown } });
    expect(assets?.status, text).toBe(200);
    expect((assets?.body as { assets: unknown[] }).assets.length, text).toBeGreaterThan(0);
    expect(more).toEqual([]);
  });

  it('a POST with a body and Upgrade: h2c (as curl --http2 sends) places the order it carries', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000000' });
    const body = JSON.stringify({ product_id: 'BTC-VND', side: 'BUY', limit_price: '2000000000', base_size: '0.01', wait: true });
    const text = await rawExchange(
      v.baseUrl,
      'POST /api/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings, close\r\nUpgrade: h2c\r\n' +
        `HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `NOVA-KEY: ${trader.creds.key}\r\nNOVA-SECRET: ${trader.creds.secret}\r\n\r\n${body}`,
      { halfClose: false },
    );
    const [placed, ...more] = responses(text);
    expect(placed?.status, text).toBe(200);
    expect((placed?.body as { order: { status: string; base_size: string } }).order, text).toMatchObject({ status: 'ACTIVE', base_size: '0.01' });
    expect(more).toEqual([]);
    await v.cancelEverything();
  });

  it('/ws is still the WebSocket', async () => {
    await expectWsServes(venue().baseUrl.replace('http', 'ws') + '/ws');
  });
});

// Requests with an Upgrade header pipelined behind an order still in flight on the same keep-alive connection.
// The venue handed the connection back to the HTTP server (or refused the upgrade) at once, while the order's
// response still owned it: the request behind was run (an order placed) but never answered and the connection
// hung, or the refusal was sent in place of the order's answer. Either way a placed order went unacknowledged.
describe('a request with an Upgrade header pipelined behind an order', () => {
  const order = (trader: { creds: { key: string; secret: string } }, clientOrderId: string, extra = ''): string => {
    const body = JSON.stringify({ product_id: 'BTC-VND', side: 'BUY', limit_price: '2000000000', base_size: '0.001', client_order_id: clientOrderId });
    return (
      `POST /api/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nNOVA-KEY: ${trader.creds.key}\r\nNOVA-SECRET: ${trader.creds.secret}\r\n${extra}` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    );
  };
  const clientOrderIdOf = (answer: { body: unknown } | undefined) => (answer?.body as { order?: { client_order_id?: string } }).order?.client_order_id;

  it.each([
    ['Upgrade: h2c (curl --http2)', 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n'],
    ['Upgrade: websocket', 'Connection: Upgrade\r\nUpgrade: websocket\r\n'],
  ])('an order with %s is answered in turn, and the connection serves on', async (_what, upgrade) => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000000' });
    const list = `GET /api/v1/orders/active HTTP/1.1\r\nHost: 127.0.0.1\r\nNOVA-KEY: ${trader.creds.key}\r\nNOVA-SECRET: ${trader.creds.secret}\r\nConnection: close\r\n\r\n`;
    const text = await rawExchange(v.baseUrl, order(trader, 'first') + order(trader, 'upgrading', upgrade) + list, { halfClose: false });
    const [first, upgrading, listed, ...more] = responses(text);
    expect([first?.status, clientOrderIdOf(first)], text).toEqual([200, 'first']);
    expect([upgrading?.status, clientOrderIdOf(upgrading)], text).toEqual([200, 'upgrading']);
    expect(listed?.status, text).toBe(200);
    expect((listed?.body as { orders: { client_order_id: string }[] }).orders.map((o) => o.client_order_id).sort()).toEqual(['first', 'upgrading']);
    expect(more).toEqual([]);
    await v.cancelEverything();
  });

  it('an order with Upgrade: h2c behind an answer that closed the connection is not placed (RFC 9112 9.6)', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000000' });
    const refusedBody = order(trader, 'refused').replace('Content-Type: application/json', 'Content-Type: text/plain');
    const text = await rawExchange(v.baseUrl, refusedBody + order(trader, 'behind', 'Connection: Upgrade\r\nUpgrade: h2c\r\n'), { halfClose: false });
    expect(responses(text).map((answer) => answer.status), text).toEqual([415]);
    expect((await v.call<{ orders: unknown[] }>('GET', '/api/v1/orders/active', { key: trader.creds })).body.orders).toEqual([]);
  });

  it.each([
    ['a /ws handshake the WebSocket refuses', 'GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: bad\r\n\r\n', 400],
    ['an upgrade to a path that is not /ws', 'POST /nope HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nContent-Length: 0\r\n\r\n', 404],
  ])('%s is refused after the order is answered', async (_what, refused, status) => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000000' });
    const text = await rawExchange(v.baseUrl, order(trader, `before-${status}`) + refused, { halfClose: false });
    const [placed, refusal, ...more] = responses(text);
    expect([placed?.status, clientOrderIdOf(placed)], text).toEqual([200, `before-${status}`]);
    expect(refusal?.status, text).toBe(status);
    expect(more).toEqual([]);
    await v.cancelEverything();
  });

  // Node's own 417 closes the connection: a handshake behind it was upgraded all the same, on a connection the
  // client had been told was closing.
  it('a /ws handshake behind a 417 is not taken', async () => {
    const v = venue();
    const text = await rawExchange(v.baseUrl, `GET /products HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\n\r\nGET /ws HTTP/1.1\r\n${HANDSHAKE}\r\n`, { halfClose: false });
    expect(responses(text).map((answer) => answer.status), text).toEqual([417]);
  });

  it('a /ws handshake is accepted once the order is answered', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000000' });
    const { port } = new URL(v.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.write(order(trader, 'before-ws') + `GET /ws HTTP/1.1\r\n${HANDSHAKE}\r\n`);
    await eventually(() => (text.includes('101 Switching Protocols') ? true : undefined), 'the 101', 3_000).finally(() => socket.destroy());
    const split = text.indexOf('HTTP/1.1 101');
    const [placed, ...more] = responses(text.slice(0, split));
    expect([placed?.status, clientOrderIdOf(placed)], text).toEqual([200, 'before-ws']);
    expect(more).toEqual([]);
    await v.cancelEverything();
  });
});
