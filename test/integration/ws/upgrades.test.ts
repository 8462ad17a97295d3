// Upgrade requests the venue's WebSocket does not take. Node hands every request with an Upgrade header to the
// server's 'upgrade' listener, so no Fastify route or not-found handler sees it: the venue must answer it itself,
// with the interface's error object (7.1) like any other request it refuses, and close the connection.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useVenue } from '../harness';
import { type RawReply, rawExchange, rawRequest } from '../raw-http';

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

/** The responses in `text`, in order: status and JSON body (each has a Content-Length). */
function responses(text: string): { status: number; body: unknown }[] {
  const out: { status: number; body: unknown }[] = [];
  let rest = text;
  while (rest.length > 0) {
    const split = rest.indexOf('\r\n\r\n');
    const head = rest.slice(0, split);
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(head);
    const length = /\r\ncontent-length: (\d+)/i.exec(head);
    if (split < 0 || status === null || length === null) throw new Error(`not an HTTP response: ${JSON.stringify(rest.slice(0, 300))}`);
    const end = split + 4 + Number(length[1]);
    out.push({ status: Number(status[1]), body: JSON.parse(rest.slice(split + 4, end)) });
    rest = rest.slice(end);
  }
  return out;
}

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
