// Requests pipelined on one connection run in the order they were sent (RFC 9112 9.3.2 lets a server process
// pipelined requests in parallel only when they are all safe). Node parses each as it arrives and the venue ran
// each at once, ordering only the answers: an order list sent after an order saw none, and a cancel-all sent
// after an order could run first and leave the order working.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { BTC, activeOrders, eventually, px, useVenue, type Credentials, type TestVenue } from '../harness';
import { rawExchange, responses } from '../raw-http';

const venue = useVenue({ cleanBooks: true });

function request(method: string, path: string, creds: Credentials, body?: string): string {
  const head = `${method} ${path} HTTP/1.1\r\nHost: venue\r\nNOVA-KEY: ${creds.key}\r\nNOVA-SECRET: ${creds.secret}\r\n`;
  return body === undefined ? `${head}\r\n` : `${head}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Writes every request in one go, the last asking to close, and returns each answer's JSON body in order. */
async function pipelined(v: TestVenue, requests: string[]): Promise<unknown[]> {
  const { port } = new URL(v.baseUrl);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    const last = requests.length - 1;
    socket.write(requests.map((r, i) => (i === last ? r.replace('\r\n', '\r\nConnection: close\r\n') : r)).join(''));
  });
  const bodies: unknown[] = [];
  let rest = text;
  while (rest.length > 0) {
    const split = rest.indexOf('\r\n\r\n');
    const length = Number(/content-length: (\d+)/i.exec(rest.slice(0, split))?.[1]);
    bodies.push(JSON.parse(rest.slice(split + 4, split + 4 + length)));
    rest = rest.slice(split + 4 + length);
  }
  return bodies;
}

const order = (clientOrderId: string) =>
  JSON.stringify({ product_id: BTC, side: 'BUY', limit_price: px(-100), base_size: '0.001', client_order_id: clientOrderId });

describe('requests pipelined on one connection', () => {
  it('an order list sent after an order sees it', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const [placed, listed] = (await pipelined(v, [
      request('POST', '/api/v1/orders', t.creds, order('pipe-1')),
      request('GET', '/api/v1/orders/active?client_order_id=pipe-1', t.creds),
    ])) as [{ order: { order_id: string } }, { orders: { order_id: string }[] }];
    expect(listed.orders.map((o) => o.order_id)).toEqual([placed.order.order_id]);
  });

  it('a cancel-all sent after orders cancels them', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const answers = (await pipelined(v, [
      request('POST', '/api/v1/orders', t.creds, order('pipe-2')),
      request('POST', '/api/v1/orders', t.creds, order('pipe-3')),
      request('DELETE', '/api/v1/orders/active/all', t.creds),
    ])) as [{ order: { order_id: string } }, { order: { order_id: string } }, { cancel_requested_orders: { order_id: string }[] }];
    expect(answers[2].cancel_requested_orders.map((o) => o.order_id).sort()).toEqual([answers[0].order.order_id, answers[1].order.order_id].sort());
    expect(await activeOrders(v, t)).toEqual([]);
  });

  // RFC 9112 9.6: a server that answers with Connection: close must not act on requests after it. The venue closed
  // the connection after refusing a body, yet placed the order pipelined behind it: the client never heard of that
  // order, and a client that retries unanswered requests (as 9.3.2 says) placed it twice.
  it('an order sent after a request answered with Connection: close is not placed', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const refused = request('POST', '/api/v1/orders', t.creds).replace('\r\n\r\n', '\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nabc');
    const answers = await pipelined(v, [refused, request('POST', '/api/v1/orders', t.creds, order('pipe-4'))]);
    expect(answers).toEqual([{ error: { code: 'InvalidArgument', message: expect.stringContaining('E0106') as unknown } }]);
    expect(await activeOrders(v, t)).toEqual([]);
  });
});

// A request Node's parser refuses, or a CONNECT, pipelined behind an order: the refusal was written and the
// connection destroyed at once, while the order's answer was still on its way. The order was placed, but its
// client heard only the refusal (as if it answered the order) and would send the order again.
describe('a request refused before routing, pipelined behind an order', () => {
  it.each([
    ['an unknown method', 'FOO /products HTTP/1.1\r\nHost: venue\r\n\r\n', 400, 'E0101_InvalidArgument'],
    ['bytes that are not HTTP', 'hello there\r\n\r\n', 400, 'E0101_InvalidArgument'],
    ['a CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 404, 'E0105_RouteNotFound'],
    ['headers over 16 KiB', `GET /products HTTP/1.1\r\nHost: venue\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`, 431, 'E0103_BodyTooLarge'],
  ])('%s is answered after the order, whose answer is sent', async (_what, second, status, ref) => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const text = await rawExchange(v.baseUrl, request('POST', '/api/v1/orders', t.creds, order(`refused-${status}`)) + second, { halfClose: false });
    const [placed, refused, ...more] = responses(text);
    expect(placed?.status, text).toBe(200);
    expect((placed?.body as { order: { client_order_id: string } }).order.client_order_id).toBe(`refused-${status}`);
    expect(refused?.status, text).toBe(status);
    expect((refused?.body as { error: { message: string } }).error.message, text).toMatch(new RegExp(`^${ref}: `));
    expect(more).toEqual([]);
  });
});

// A request whose own bytes Node's parser refuses (its chunked body broken off): the refusal is its answer. Made to
// wait for the answer in flight, it waited for this very request's, which waits for a body that never comes: no
// answer, and the connection held open for good.
describe('a request whose chunked body is broken', () => {
  const chunked = (creds: Credentials) =>
    `POST /api/v1/orders HTTP/1.1\r\nHost: venue\r\nNOVA-KEY: ${creds.key}\r\nNOVA-SECRET: ${creds.secret}\r\n` +
    'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
  const refusal = (answer: { status: number; body: unknown } | undefined) => [answer?.status, (answer?.body as { error?: { message: string } }).error?.message.split(':')[0]];

  it.each([
    ['an invalid chunk size', '5\r\n{"pro\r\nzz\r\n'],
    ['a chunk not ending in CRLF', '2\r\n{}XX'],
  ])('(%s) is answered 400 E0101 and the connection closed', async (_what, body) => {
    const v = venue();
    const text = await rawExchange(v.baseUrl, chunked(v.admin.creds) + body, { halfClose: false });
    expect(responses(text).map(refusal), text).toEqual([[400, 'E0101_InvalidArgument']]);
  });

  it('behind an order, is answered after the order', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const text = await rawExchange(v.baseUrl, request('POST', '/api/v1/orders', t.creds, order('before-broken')) + chunked(t.creds) + '2\r\n{}XX', { halfClose: false });
    const [placed, refused, ...more] = responses(text);
    expect([placed?.status, (placed?.body as { order?: { client_order_id: string } }).order?.client_order_id], text).toEqual([200, 'before-broken']);
    expect(refusal(refused), text).toEqual([400, 'E0101_InvalidArgument']);
    expect(more).toEqual([]);
  });

  // Answered before its body was read (a key the venue does not know), the request has had its answer: its broken
  // body then only closes the connection. A second answer, the 400, was read as the answer to a request not sent.
  it('refused before its body was read, has that answer alone', async () => {
    const v = venue();
    const { port } = new URL(v.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(chunked({ key: 'not-a-key', secret: 'nope' }));
    await eventually(() => (text.endsWith('}}') ? true : undefined), 'the 401', 3_000);
    socket.write('2\r\n{}XX');
    await closed;
    expect(responses(text).map(refusal), text).toEqual([[401, 'E0001_AuthRequired']]);
  });
});
