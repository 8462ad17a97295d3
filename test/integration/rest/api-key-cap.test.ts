// POST /api-keys: at most MAX_ACTIVE_KEYS_PER_USER keys per user that still work (neither revoked nor expired).
// The interface names no cap; without one a script could create keys without end, each stored for good.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACTIVE_KEYS_PER_USER } from '../../../src-main/venue/accounts/key-ring';
import { startVenue, type RunningVenue } from '../../../src-main/venue/server';
import { callVenue, expectApiKeyRecord, expectError, expectOk, type Credentials, type Reply } from '../harness';

const HOUR_NS = 3_600_000_000_000n;

describe('the cap on a user\'s active API keys', () => {
  let dataDir: string;
  let running: RunningVenue;
  // The venue's clock, moved on by the test so a key expires without waiting for it.
  let ahead = 0n;
  const now = () => BigInt(Date.now()) * 1_000_000n + ahead;
  let admin: Credentials;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'nova-key-cap-'));
    running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0, now });
    const local = running.venue.localCredentials();
    if (local === undefined) throw new Error('no local credentials');
    admin = { key: local.api_key, secret: local.api_secret };
  });
  afterAll(async () => {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (method: 'POST' | 'DELETE' | 'GET', path: string, key: Credentials, body?: unknown): Promise<Reply> =>
    callVenue(running.baseUrl, method, path, { key, ...(body === undefined ? {} : { body }) });

  async function newUser(): Promise<{ userId: string; creds: Credentials }> {
    const reply = expectOk(await call('POST', '/sim/users', admin, { balances: {} })) as { user_id: string; api_key: { api_key: string; api_secret: string } };
    return { userId: reply.user_id, creds: { key: reply.api_key.api_key, secret: reply.api_key.api_secret } };
  }

  async function create(owner: Credentials, body: unknown = {}): Promise<string> {
    const created = expectOk(await call('POST', '/api-keys', owner, body)) as { api_key: unknown };
    return expectApiKeyRecord(created.api_key, true).api_key;
  }

  async function listKeys(owner: Credentials): Promise<{ api_key: string; name: string; expired_at: string; is_read_only: boolean }[]> {
    const listed = expectOk(await call('GET', '/api-keys', owner)) as { api_keys: unknown[] };
    expect(Object.keys(listed)).toEqual(['api_keys']);
    // Never a secret: it is shown once, in the answer that created the key.
    return listed.api_keys.map((record) => expectApiKeyRecord(record, false));
  }

  function expectCapped(reply: Reply): void {
    expectError(reply, 400, 'E0110_ValueOutOfRange', 'OutOfRange');
    const message = (reply.body as { error: { message: string } }).error.message;
    expect(message).toBe(
      `E0110_ValueOutOfRange: you already have ${MAX_ACTIVE_KEYS_PER_USER} active API keys (neither revoked nor expired), the most a user may have: revoke one (GET /api-keys lists them, DELETE /api-keys/{api_key} revokes one) to create another`,
    );
  }

  it('creates the cap-th key, refuses the next with nothing created, and makes room when one is revoked', async () => {
    expect(MAX_ACTIVE_KEYS_PER_USER).toBe(100);
    const user = await newUser();
    // The key /sim/users gave it is the first.
    const made: string[] = [];
    for (let n = 2; n <= MAX_ACTIVE_KEYS_PER_USER; n += 1) made.push(await create(user.creds, { name: `key ${n}` }));
    expect(running.venue.keys.keysOf(user.userId)).toHaveLength(MAX_ACTIVE_KEYS_PER_USER);

    expectCapped(await call('POST', '/api-keys', user.creds, { name: 'one too many' }));
    expectCapped(await call('POST', '/api-keys', user.creds, { name: 'one too many', read_only: true, expiration_time: (now() + HOUR_NS).toString() }));
    expect(running.venue.keys.keysOf(user.userId)).toHaveLength(MAX_ACTIVE_KEYS_PER_USER);

    // GET /api-keys names the keys that hold the places, so a client that lost track of them can free one.
    const listed = await listKeys(user.creds);
    expect(listed.map((k) => k.api_key)).toEqual([user.creds.key, ...made]);
    // Revoking one makes room for exactly one more.
    expectOk(await call('DELETE', `/api-keys/${made[0]}`, user.creds));
    await create(user.creds, { name: 'in its place' });
    expectCapped(await call('POST', '/api-keys', user.creds));

    // The cap is per user: another user still creates keys.
    await create((await newUser()).creds);
  });

  it('GET /api-keys lists the caller\'s keys that still work, oldest first, without secrets, to any of its keys', async () => {
    const user = await newUser();
    const other = await newUser();
    const expiry = (now() + HOUR_NS).toString();
    const viewer = await create(user.creds, { name: 'viewer', read_only: true });
    const expiring = await create(user.creds, { name: 'expiring', expiration_time: expiry });
    const revoked = await create(user.creds, { name: 'revoked' });
    expectOk(await call('DELETE', `/api-keys/${revoked}`, user.creds));
    const listed = await listKeys(user.creds);
    expect(listed.map((k) => [k.api_key, k.name, k.is_read_only, k.expired_at])).toEqual([
      [user.creds.key, 'simulated', false, '0'],
      [viewer, 'viewer', true, '0'],
      [expiring, 'expiring', false, expiry],
    ]);
    expect(JSON.stringify(await call('GET', '/api-keys', user.creds))).not.toContain(user.creds.secret);
    expect((await listKeys(other.creds)).map((k) => k.api_key)).toEqual([other.creds.key]);

    const made = expectOk(await call('POST', '/api-keys', user.creds, { read_only: true })) as { api_key: { api_key: string; api_secret: string } };
    const readOnly = { key: made.api_key.api_key, secret: made.api_key.api_secret };
    // A read, as every GET is: a read-only key sees the key ids and names, never a secret.
    expect((await listKeys(readOnly)).map((k) => k.api_key)).toEqual([user.creds.key, viewer, expiring, readOnly.key]);
    expectError(await call('GET', '/api-keys', { key: user.creds.key, secret: 'wrong' }), 401, 'E0001_AuthRequired', 'AUTH_REQUIRED');

    ahead += 2n * HOUR_NS;
    expect((await listKeys(user.creds)).map((k) => k.api_key)).toEqual([user.creds.key, viewer, readOnly.key]);
  });

  it('lets exactly one of several creates sent at once take the last place', async () => {
    const user = await newUser();
    for (let n = 2; n < MAX_ACTIVE_KEYS_PER_USER; n += 1) await create(user.creds);
    const replies = await Promise.all(Array.from({ length: 5 }, () => call('POST', '/api-keys', user.creds)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status !== 200)) expectCapped(reply);
    expect(running.venue.keys.activeKeysOf(user.userId, now())).toHaveLength(MAX_ACTIVE_KEYS_PER_USER);
  });

  it('does not count a key that has expired', async () => {
    const user = await newUser();
    const expiring = (now() + HOUR_NS).toString();
    await create(user.creds, { name: 'expires', expiration_time: expiring });
    for (let n = 3; n <= MAX_ACTIVE_KEYS_PER_USER; n += 1) await create(user.creds);
    expectCapped(await call('POST', '/api-keys', user.creds));

    ahead += 2n * HOUR_NS;
    await create(user.creds, { name: 'after the expiry' });
    expectCapped(await call('POST', '/api-keys', user.creds));
  });

  it('keeps the cap over a restart, and /v1/error-codes still holds the reference it answers with', async () => {
    const user = await newUser();
    for (let n = 2; n <= MAX_ACTIVE_KEYS_PER_USER; n += 1) await create(user.creds);
    await running.close();
    running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0, now });
    expectCapped(await call('POST', '/api-keys', user.creds));

    const codes = await callVenue(running.baseUrl, 'GET', '/v1/error-codes', { query: { ref: 'E0110_ValueOutOfRange' } });
    expect(JSON.stringify(expectOk(codes))).toContain('"http_status":400');
  });
});
