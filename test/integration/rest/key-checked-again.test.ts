// A key is checked as a request arrives (before its body, access.ts) and again once the body is in and the
// request is about to act: a body can take up to a minute to arrive, and a key revoked or expired meanwhile is
// rejected (interface 5.4) whatever its headers were when they came.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { eventually, expectError, expectOk, limit, nanosFromNow, px, useVenue, type Credentials, type TestVenue } from '../harness';

const venue = useVenue({ cleanBooks: true });

/**
 * A request whose headers (with `Expect: 100-continue`) are sent first: it resolves once the venue has read them
 * (its 100 Continue), with a function that sends the body and resolves with the whole answer.
 */
async function headersFirst(v: TestVenue, method: string, path: string, creds: Credentials, body: string): Promise<() => Promise<{ status: number; body: unknown }>> {
  const { port } = new URL(v.baseUrl);
  const socket = net.connect(Number(port), '127.0.0.1');
  let text = '';
  let onData: () => void = () => undefined;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
    onData();
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    `${method} ${path} HTTP/1.1\r\nHost: venue\r\nNOVA-KEY: ${creds.key}\r\nNOVA-SECRET: ${creds.secret}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
  );
  await new Promise<void>((resolve, reject) => {
    onData = () => {
      if (text.includes('\r\n\r\n')) resolve();
    };
    socket.on('error', reject);
  });
  expect(text, 'the venue read the headers first').toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
  return async () => {
    text = '';
    socket.write(body);
    await closed;
    const split = text.indexOf('\r\n\r\n');
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), body: JSON.parse(text.slice(split + 4)) as unknown };
  };
}

describe('a key revoked while its request’s body was on its way', () => {
  it('places no order: 401 E0005, and the account holds nothing', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000' });
    const created = expectOk(await v.call<{ api_key: { api_key: string; api_secret: string } }>('POST', '/api-keys', { key: trader.creds, body: { name: 'doomed' } }));
    const doomed = { key: created.api_key.api_key, secret: created.api_key.api_secret };

    const finish = await headersFirst(v, 'POST', '/api/v1/orders', doomed, JSON.stringify(limit('BUY', px(-100), '0.001', { wait: true })));
    expectOk(await v.call('DELETE', `/api-keys/${doomed.key}`, { key: trader.creds }));
    const answer = await finish();
    expectError({ status: answer.status, headers: new Headers(), body: answer.body }, 401, 'E0005_ApiKeyRevoked', 'AUTH_REQUIRED');

    const active = expectOk(await v.call<{ orders: unknown[] }>('GET', '/api/v1/orders/active', { key: trader.creds }));
    expect(active.orders).toEqual([]);
    const archived = expectOk(await v.call<{ orders: unknown[] }>('GET', '/api/v1/orders/archived', { key: trader.creds }));
    expect(archived.orders).toEqual([]);
  });

  it('creates no key and cancels nothing either', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000' });
    const created = expectOk(await v.call<{ api_key: { api_key: string; api_secret: string } }>('POST', '/api-keys', { key: trader.creds, body: { name: 'doomed' } }));
    const doomed = { key: created.api_key.api_key, secret: created.api_key.api_secret };
    const resting = expectOk(await v.call<{ order: { order_id: string } }>('POST', '/api/v1/orders', { key: trader.creds, body: limit('BUY', px(-100), '0.001', { wait: true }) }));

    const mint = await headersFirst(v, 'POST', '/api-keys', doomed, '{"name":"child"}');
    const cancel = await headersFirst(v, 'DELETE', '/api/v1/orders/active', doomed, JSON.stringify({ order_ids: [resting.order.order_id] }));
    expectOk(await v.call('DELETE', `/api-keys/${doomed.key}`, { key: trader.creds }));
    for (const finish of [mint, cancel]) {
      const answer = await finish();
      expectError({ status: answer.status, headers: new Headers(), body: answer.body }, 401, 'E0005_ApiKeyRevoked', 'AUTH_REQUIRED');
    }
    const active = expectOk(await v.call<{ orders: { order_id: string }[] }>('GET', '/api/v1/orders/active', { key: trader.creds }));
    expect(active.orders.map((o) => o.order_id)).toEqual([resting.order.order_id]);
  });

  it('a key that expired meanwhile places no order either: 401 E0002', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000' });
    const created = expectOk(
      await v.call<{ api_key: { api_key: string; api_secret: string } }>('POST', '/api-keys', { key: trader.creds, body: { name: 'brief', expiration_time: nanosFromNow(1_000) } }),
    );
    const brief = { key: created.api_key.api_key, secret: created.api_key.api_secret };
    const finish = await headersFirst(v, 'POST', '/api/v1/orders', brief, JSON.stringify(limit('BUY', px(-100), '0.001', { wait: true })));
    await eventually(async () => ((await v.call('GET', '/api/v1/orders/active', { key: brief })).status === 401 ? true : undefined), 'the key to expire');
    const answer = await finish();
    expectError({ status: answer.status, headers: new Headers(), body: answer.body }, 401, 'E0002_ApiKeyExpired', 'AUTH_REQUIRED');
    const archived = expectOk(await v.call<{ orders: unknown[] }>('GET', '/api/v1/orders/archived', { key: trader.creds }));
    expect(archived.orders).toEqual([]);
  });
});
