// POST /api-keys: at most MAX_KEYS_CREATED_PER_DAY keys a user creates in any 24 hours, revoked and expired ones
// counted. The cap on active keys alone let a create-then-revoke loop (or keys that expire a second after their
// creation) store rows without end, each loaded at every start (review-6 p4-key-churn: 250 pairs, 251 rows).
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACTIVE_KEYS_PER_USER, MAX_KEYS_CREATED_PER_DAY } from '../../../src-main/venue/accounts/key-ring';
import { startVenue, type RunningVenue } from '../../../src-main/venue/server';
import { callVenue, expectApiKeyRecord, expectError, expectOk, type Credentials, type Reply } from '../harness';

const SECOND_NS = 1_000_000_000n;
const DAY_NS = 86_400n * SECOND_NS;

describe('the cap on the API keys a user creates in a day', () => {
  let dataDir: string;
  let running: RunningVenue;
  // The venue's clock, moved on by the test so a day passes without waiting for it.
  let ahead = 0n;
  const now = () => BigInt(Date.now()) * 1_000_000n + ahead;
  let admin: Credentials;

  const start = async (): Promise<void> => {
    running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0, now });
    const local = running.venue.localCredentials();
    if (local === undefined) throw new Error('no local credentials');
    admin = { key: local.api_key, secret: local.api_secret };
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'nova-key-churn-'));
    await start();
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

  function storedKeysOf(userId: string): number {
    const db = new Database(join(dataDir, 'venue.sqlite'), { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM api_keys WHERE user_id = ?').get(userId) as { n: number }).n;
    } finally {
      db.close();
    }
  }

  function expectDayCapped(reply: Reply, nextAt: bigint): void {
    expectError(reply, 400, 'E0110_ValueOutOfRange', 'OutOfRange');
    expect((reply.body as { error: { message: string } }).error.message).toBe(
      `E0110_ValueOutOfRange: you have created ${MAX_KEYS_CREATED_PER_DAY} API keys in the last 24 hours (revoked and expired ones count), the most a user may: the next can be created from ${nextAt} (UNIX ns)`,
    );
  }

  it('stops a create-then-revoke loop and keys that expire at once, over a restart, until a day has passed', async () => {
    expect(MAX_KEYS_CREATED_PER_DAY).toBeGreaterThan(MAX_ACTIVE_KEYS_PER_USER);
    const user = await newUser();
    const firstCreatedAt = running.venue.keys.keysOf(user.userId)[0]?.createdAt;
    if (firstCreatedAt === undefined) throw new Error('no first key');
    // The key /sim/users gave it is the first of the day. Half the rest revoked at once, half expiring a minute on,
    // the venue's clock then moved past it: an expiry a second on by the wall clock could be past before its
    // request was read on a loaded machine.
    let refused: Reply | undefined;
    let attempts = 0;
    for (; attempts < MAX_KEYS_CREATED_PER_DAY + 50 && refused === undefined; attempts += 1) {
      const body = attempts % 2 === 0 ? { name: `churn ${attempts}` } : { expiration_time: (now() + 60n * SECOND_NS).toString() };
      const reply = await call('POST', '/api-keys', user.creds, body);
      if (reply.status !== 200) {
        refused = reply;
        // Said here, before the count below, so that any other refusal shows as itself.
        expectDayCapped(refused, firstCreatedAt + DAY_NS);
        break;
      }
      const key = expectApiKeyRecord((reply.body as { api_key: unknown }).api_key, true).api_key;
      if (attempts % 2 === 0) expectOk(await call('DELETE', `/api-keys/${key}`, user.creds));
      else ahead += 61n * SECOND_NS;
    }
    expect(attempts).toBe(MAX_KEYS_CREATED_PER_DAY - 1);
    if (refused === undefined) throw new Error('never refused');
    expectDayCapped(refused, firstCreatedAt + DAY_NS);
    // Refused with nothing created.
    expect(running.venue.keys.keysOf(user.userId)).toHaveLength(MAX_KEYS_CREATED_PER_DAY);

    await running.close();
    expect(storedKeysOf(user.userId)).toBe(MAX_KEYS_CREATED_PER_DAY);
    await start();
    expectDayCapped(await call('POST', '/api-keys', user.creds), firstCreatedAt + DAY_NS);
    // Another user is not held back by this one.
    expectOk(await call('POST', '/api-keys', (await newUser()).creds));

    // A day after the first key, one place is free again: a trader who rotates keys often is slowed, never locked out.
    ahead += firstCreatedAt + DAY_NS - now();
    expectOk(await call('POST', '/api-keys', user.creds, { name: 'a day later' }));
    await running.close();
    expect(storedKeysOf(user.userId)).toBe(MAX_KEYS_CREATED_PER_DAY + 1);
    await start();
  });
});
