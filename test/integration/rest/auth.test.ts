// Authentication and scopes (interface section 5, 7.2), POST /api-keys (4.1) and account ownership (4.9).
import { describe, expect, it } from 'vitest';
import {
  BTC,
  eventually,
  expectApiKeyRecord,
  expectError,
  expectOk,
  getAccount,
  limit,
  nanosFromNow,
  placeOrder,
  px,
  useVenue,
  type Credentials,
  type Method,
  type Trader,
} from '../harness';
import { TestSocket } from '../ws/ws-client';

const venue = useVenue({ cleanBooks: true });

async function createKey(owner: Credentials, body?: unknown) {
  const reply = await venue().call<{ api_key: unknown }>('POST', '/api-keys', { key: owner, ...(body === undefined ? {} : { body }) });
  return expectApiKeyRecord(expectOk(reply).api_key, true);
}

function credsOf(record: { api_key: string; api_secret?: string }): Credentials {
  if (record.api_secret === undefined) throw new Error('no api_secret in the creation answer');
  return { key: record.api_key, secret: record.api_secret };
}

/** Every authenticated endpoint, with a request that would succeed given the right credentials and scope. */
function authenticatedRequests(trader: Trader): { method: Method; path: string; body?: unknown; query?: Record<string, string> }[] {
  return [
    { method: 'GET', path: `/accounts/${trader.userId}` },
    { method: 'POST', path: '/api-keys', body: {} },
    { method: 'POST', path: '/api/v1/orders', body: limit('BUY', px(-100), '0.001') },
    { method: 'GET', path: '/api/v1/orders/active' },
    { method: 'DELETE', path: '/api/v1/order/active', query: { client_order_id: 'nothing-here' } },
    { method: 'DELETE', path: '/api/v1/orders/active', body: { product_ids: [BTC] } },
    { method: 'DELETE', path: '/api/v1/orders/active/all' },
    { method: 'GET', path: '/api/v1/orders/archived' },
    { method: 'GET', path: '/api/v1/order/archived', query: { order: 'nothing-here' } },
    { method: 'DELETE', path: '/api-keys/nk_000000000000000000000000' },
  ];
}

describe('credentials (interface 5.1, 5.5)', () => {
  it('missing headers, an unknown key or a wrong secret are 401 AUTH_REQUIRED on every authenticated endpoint', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000' });
    const wrong: { name: string; headers: Record<string, string> }[] = [
      { name: 'no headers', headers: {} },
      { name: 'key only', headers: { 'NOVA-KEY': trader.creds.key } },
      { name: 'secret only', headers: { 'NOVA-SECRET': trader.creds.secret } },
      { name: 'unknown key', headers: { 'NOVA-KEY': 'nk_000000000000000000000000', 'NOVA-SECRET': trader.creds.secret } },
      { name: 'wrong secret', headers: { 'NOVA-KEY': trader.creds.key, 'NOVA-SECRET': `${trader.creds.secret}x` } },
      { name: "another key's secret", headers: { 'NOVA-KEY': trader.creds.key, 'NOVA-SECRET': v.admin.creds.secret } },
    ];
    for (const request of authenticatedRequests(trader)) {
      for (const w of wrong) {
        const reply = await v.call(request.method, request.path, {
          headers: w.headers,
          ...(request.body === undefined ? {} : { body: request.body }),
          ...(request.query === undefined ? {} : { query: request.query }),
        });
        expect(reply.status, `${request.method} ${request.path} with ${w.name}`).toBe(401);
        expectError(reply, 401, 'E0001_AuthRequired', 'AUTH_REQUIRED');
      }
    }
    // Nothing was placed by any of those attempts.
    expect((await getAccount(v, trader)).stats.order_stats.total_orders).toBe('0');
  });

  it('come before the body: without them a malformed, unsupported or oversized body is still 401, and a read-only key 403', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000' });
    const readOnly = credsOf(await createKey(trader.creds, { name: 'viewer', read_only: true }));
    const bodies: { name: string; rawBody: string; headers: Record<string, string> }[] = [
      { name: 'malformed JSON', rawBody: '{"product_id":', headers: { 'content-type': 'application/json' } },
      { name: 'text/plain', rawBody: 'hello', headers: { 'content-type': 'text/plain' } },
      { name: 'a body over the limit', rawBody: JSON.stringify({ pad: 'x'.repeat(70 * 1024) }), headers: { 'content-type': 'application/json' } },
    ];
    for (const b of bodies) {
      const without = await v.call('POST', '/api/v1/orders', { rawBody: b.rawBody, headers: b.headers });
      expectError(without, 401, 'E0001_AuthRequired', 'AUTH_REQUIRED');
      const viewer = await v.call('POST', '/api/v1/orders', { key: readOnly, rawBody: b.rawBody, headers: b.headers });
      expectError(viewer, 403, 'E0004_InsufficientScope', 'INSUFFICIENT_SCOPE');
    }
    // With credentials that may trade, the body is read and judged.
    expectError(await v.call('POST', '/api/v1/orders', { key: trader.creds, rawBody: '{"product_id":', headers: { 'content-type': 'application/json' } }), 400, 'E0102_MalformedJson');
  });

  it('public endpoints need no credentials', async () => {
    const v = venue();
    for (const path of ['/products', '/assets', `/products/${BTC}/orderbook`, `/products/${BTC}/trades`, '/v1/error-codes']) {
      expect((await v.call('GET', path)).status, path).toBe(200);
    }
  });

  it('an expired key is 401 AUTH_REQUIRED once its expiration time passes', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000' });
    const record = await createKey(trader.creds, { name: 'short-lived', expiration_time: nanosFromNow(1_500) });
    const short = credsOf(record);
    expect(BigInt(record.expired_at)).toBeGreaterThan(0n);
    expect((await v.call('GET', `/accounts/${trader.userId}`, { key: short })).status).toBe(200);

    const refused = await eventually(async () => {
      const reply = await v.call('GET', `/accounts/${trader.userId}`, { key: short });
      return reply.status === 200 ? undefined : reply;
    }, 'the key to expire');
    expectError(refused, 401, 'E0002_ApiKeyExpired', 'AUTH_REQUIRED');
    const order = await v.call('POST', '/api/v1/orders', { key: short, body: limit('BUY', px(-100), '0.001') });
    expectError(order, 401, 'E0002_ApiKeyExpired', 'AUTH_REQUIRED');
    // The user's other key is untouched.
    expect((await v.call('GET', `/accounts/${trader.userId}`, { key: trader.creds })).status).toBe(200);
  });
});

describe('read-only keys (interface 5.3, 5.6)', () => {
  it('can read but every trading call is 403 INSUFFICIENT_SCOPE and changes nothing', async () => {
    const v = venue();
    const trader = await v.newTrader({ BTC: '1', VND: '100000000' });
    const resting = await placeOrder(v, trader, limit('BUY', px(-100), '0.001', { client_order_id: 'ro-target' }));
    const readOnly = credsOf(await createKey(trader.creds, { name: 'viewer', read_only: true }));

    for (const path of [`/accounts/${trader.userId}`, '/api/v1/orders/active', '/api/v1/orders/archived']) {
      expect((await v.call('GET', path, { key: readOnly })).status, path).toBe(200);
    }
    expect((await v.call('GET', '/api/v1/order/archived', { key: readOnly, query: { order: resting.order_id } })).status).toBe(200);

    const trading: { method: Method; path: string; body?: unknown; query?: Record<string, string> }[] = [
      { method: 'POST', path: '/api/v1/orders', body: limit('BUY', px(-100), '0.001') },
      { method: 'DELETE', path: '/api/v1/order/active', query: { order_id: resting.order_id } },
      { method: 'DELETE', path: '/api/v1/orders/active', body: { order_ids: [resting.order_id] } },
      { method: 'DELETE', path: '/api/v1/orders/active/all' },
      // A read-only key must not mint itself a trading key.
      { method: 'POST', path: '/api-keys', body: { name: 'escalate' } },
    ];
    for (const r of trading) {
      const reply = await v.call(r.method, r.path, {
        key: readOnly,
        ...(r.body === undefined ? {} : { body: r.body }),
        ...(r.query === undefined ? {} : { query: r.query }),
      });
      expectError(reply, 403, 'E0004_InsufficientScope', 'INSUFFICIENT_SCOPE');
    }
    const after = await getAccount(v, trader);
    expect(after.stats.order_stats.total_orders).toBe('1');
    expect(after.stats.order_stats.total_open_orders).toBe('1');
  });
});

describe('GET /accounts/{user_id} ownership (interface 5.7)', () => {
  it("another user's account is 403, even for the admin", async () => {
    const v = venue();
    const a = await v.newTrader({ VND: '1000' });
    const b = await v.newTrader({ VND: '1000' });
    expectError(await v.call('GET', `/accounts/${b.userId}`, { key: a.creds }), 403, 'E0003_PermissionDenied');
    expectError(await v.call('GET', `/accounts/${a.userId}`, { key: v.admin.creds }), 403, 'E0003_PermissionDenied');
    expectError(await v.call('GET', '/accounts/00000000-0000-0000-0000-000000000000', { key: a.creds }), 403, 'E0003_PermissionDenied');
    expect((await getAccount(v, a)).id).toBe(a.userId);
  });
});

describe('POST /api-keys (interface 4.1)', () => {
  it('creates a key with the defaults when the body is empty or absent', async () => {
    const v = venue();
    const trader = await v.newTrader({});
    for (const body of [{}, undefined]) {
      const record = await createKey(trader.creds, body);
      expect(record).toMatchObject({ name: '', expired_at: '0', is_read_only: false });
      expect(record.api_key).not.toBe(trader.creds.key);
      expect(record.api_secret).not.toBe('');
      expect(Object.keys(record).sort()).toEqual(['api_key', 'api_secret', 'created_at', 'expired_at', 'is_read_only', 'name']);
    }
  });

  it('takes name, read_only and expiration_time, and the new key acts as its user', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000' });
    const expiry = nanosFromNow(3_600_000);
    const record = await createKey(trader.creds, { name: 'desk key', read_only: false, expiration_time: expiry });
    expect(record).toMatchObject({ name: 'desk key', is_read_only: false, expired_at: expiry });
    const created = BigInt(record.created_at);
    expect(created).toBeGreaterThan(0n);
    expect(created).toBeLessThan(BigInt(expiry));

    const key = credsOf(record);
    expect((await getAccount(v, { userId: trader.userId, creds: key })).id).toBe(trader.userId);
    const order = await placeOrder(v, { userId: trader.userId, creds: key }, limit('BUY', px(-100), '0.001'));
    expect(order.user_id).toBe(trader.userId);

    const readOnly = await createKey(trader.creds, { read_only: true });
    expect(readOnly.is_read_only).toBe(true);
  });

  it('each key has its own secret, and a secret only works with its own key', async () => {
    const v = venue();
    const trader = await v.newTrader({});
    const one = credsOf(await createKey(trader.creds, { name: 'one' }));
    const two = credsOf(await createKey(trader.creds, { name: 'two' }));
    expect(one.secret).not.toBe(two.secret);
    expectError(await v.call('GET', `/accounts/${trader.userId}`, { key: { key: one.key, secret: two.secret } }), 401, 'E0001_AuthRequired', 'AUTH_REQUIRED');
  });

  it('a key that expires cannot create one that outlives it: never or later is 400 E0110, and nothing is created', async () => {
    const v = venue();
    const trader = await v.newTrader({});
    const expiry = nanosFromNow(3_600_000);
    const short = credsOf(await createKey(trader.creds, { name: 'short-lived', expiration_time: expiry }));
    const keysBefore = v.running.venue.keys.keysOf(trader.userId).length;
    for (const body of [undefined, {}, { name: 'forever' }, { expiration_time: '0' }, { expiration_time: (BigInt(expiry) + 1n).toString() }, { expiration_time: nanosFromNow(7_200_000) }]) {
      const reply = await v.call('POST', '/api-keys', { key: short, ...(body === undefined ? {} : { body }) });
      expectError(reply, 400, 'E0110_ValueOutOfRange', 'OutOfRange');
      // The limit is named, so the client can ask again within it.
      expect(JSON.stringify(reply.body), JSON.stringify(body)).toContain(expiry);
    }
    expect(v.running.venue.keys.keysOf(trader.userId)).toHaveLength(keysBefore);

    // At or before its own expiry is fine, and a key without expiry still creates keys that never expire.
    expect((await createKey(short, { expiration_time: expiry })).expired_at).toBe(expiry);
    const sooner = nanosFromNow(60_000);
    expect((await createKey(short, { expiration_time: sooner })).expired_at).toBe(sooner);
    expect((await createKey(trader.creds, {})).expired_at).toBe('0');
  });

  it.each([
    ['name is not a string', { name: 42 }, 'E0101_InvalidArgument'],
    ['read_only is not a boolean', { read_only: 'true' }, 'E0101_InvalidArgument'],
    ['expiration_time is a number', { expiration_time: 1_900_000_000_000_000_000 }, 'E0101_InvalidArgument'],
    ['expiration_time is not an integer', { expiration_time: 'tomorrow' }, 'E0101_InvalidArgument'],
    ['expiration_time is in the past', { expiration_time: '1000000000000000000' }, 'E0110_ValueOutOfRange'],
    ['the body is an array', [], 'E0101_InvalidArgument'],
  ])('refuses a body where %s with 400', async (_what, body, ref) => {
    const v = venue();
    expectError(await v.call('POST', '/api-keys', { key: v.admin.creds, body }), 400, ref);
  });
});

describe('DELETE /api-keys/{api_key} (this venue’s way to revoke a key; interface 5.4 rejects revoked keys)', () => {
  it('revokes one of the caller’s keys: from then on 401 E0005 everywhere, over a restart too, and on the WebSocket', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000' });
    const spare = credsOf(await createKey(trader.creds, { name: 'spare' }));
    const socket = await TestSocket.open(v.running.wsUrl);
    try {
      expect(await socket.auth(spare.key, spare.secret)).toMatchObject({ channel: 'auth', type: 'authenticated' });
      const reply = expectOk(await v.call<{ api_key: Record<string, unknown> }>('DELETE', `/api-keys/${spare.key}`, { key: trader.creds }));
      expect(reply.api_key).toMatchObject({ api_key: spare.key, name: 'spare', revoked: true });
      expect(reply.api_key).not.toHaveProperty('api_secret');

      for (const request of authenticatedRequests(trader)) {
        const refused = await v.call(request.method, request.path, {
          key: spare,
          ...(request.body === undefined ? {} : { body: request.body }),
          ...(request.query === undefined ? {} : { query: request.query }),
        });
        expectError(refused, 401, 'E0005_ApiKeyRevoked', 'AUTH_REQUIRED');
      }
      // The connection it signed in stops trading with it, and it cannot sign in again.
      const order = await socket.request({ op: 'create_order', data: { type: 'limit', side: 'buy', product_id: BTC, price: px(-100), size: '0.001' } }, (f) => f['type'] === 'error');
      expect(order).toMatchObject({ code: 401 });
      const again = await TestSocket.open(v.running.wsUrl);
      try {
        expect(await again.auth(spare.key, spare.secret)).toMatchObject({ type: 'error', code: 401 });
      } finally {
        again.terminate();
      }
      expect((await v.call('GET', `/accounts/${trader.userId}`, { key: trader.creds })).status, 'the other key is untouched').toBe(200);

      await v.restart();
      expectError(await v.call('GET', `/accounts/${trader.userId}`, { key: spare }), 401, 'E0005_ApiKeyRevoked', 'AUTH_REQUIRED');
      expect((await v.call('GET', `/accounts/${trader.userId}`, { key: trader.creds })).status).toBe(200);
    } finally {
      socket.terminate();
    }
  });

  it('answers another user’s key as one that does not exist, 404 E0305, and it keeps working', async () => {
    const v = venue();
    const mallory = await v.newTrader({});
    const alice = await v.newTrader({ VND: '100000000' });
    expectError(await v.call('DELETE', `/api-keys/${alice.creds.key}`, { key: mallory.creds }), 404, 'E0305_ApiKeyNotFound');
    expectError(await v.call('DELETE', '/api-keys/nk_000000000000000000000000', { key: mallory.creds }), 404, 'E0305_ApiKeyNotFound');
    expect((await v.call('GET', `/accounts/${alice.userId}`, { key: alice.creds })).status).toBe(200);
  });

  it('refuses the local key the venue hands to the desk and bootstrap.json (403 E0003), which keeps working', async () => {
    const v = venue();
    expectError(await v.call('DELETE', `/api-keys/${v.admin.creds.key}`, { key: v.admin.creds }), 403, 'E0003_PermissionDenied', 'PermissionDenied');
    // To anyone else it is a key like any other of someone else's: one that does not exist.
    const other = await v.newTrader({});
    expectError(await v.call('DELETE', `/api-keys/${v.admin.creds.key}`, { key: other.creds }), 404, 'E0305_ApiKeyNotFound');
    expect((await v.call('GET', `/accounts/${v.admin.userId}`, { key: v.admin.creds })).status).toBe(200);
  });

  it('is refused to a read-only key (403 E0004), which cannot revoke even itself', async () => {
    const v = venue();
    const trader = await v.newTrader({});
    const viewer = credsOf(await createKey(trader.creds, { name: 'viewer', read_only: true }));
    expectError(await v.call('DELETE', `/api-keys/${viewer.key}`, { key: viewer }), 403, 'E0004_InsufficientScope', 'INSUFFICIENT_SCOPE');
    expect((await v.call('GET', `/accounts/${trader.userId}`, { key: viewer })).status).toBe(200);
  });
});
