// A folder written while the system clock ran ahead (a wrong time zone, a clock corrected since): the venue stamps
// its own events no earlier than the folder's newest (clock-behind.test.ts). The WebSocket auth's timestamp, which
// the client signs with its own clock, is measured against the clock as it is, or every auth would be refused as
// stale until the real time caught up. Expiry is not: a key that expired while the clock ran ahead stays expired.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startVenue } from '../../src-main/venue/server';
import { Venue } from '../../src-main/venue/venue';
import { callVenue } from './harness';
import { TestSocket, signature } from './ws/ws-client';

const dir = mkdtempSync(join(tmpdir(), 'nova-clock-ahead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('on a folder whose newest time is a year ahead: a WebSocket authenticates, and a key that expired then stays expired', async () => {
  const yearAhead = BigInt(Date.now() + 365 * 86_400_000) * 1_000_000n;
  let ahead = yearAhead;
  const first = await Venue.open({ dataDir: dir, now: () => (ahead += 1_000n) });
  const boot = first.localCredentials();
  if (boot === undefined) throw new Error('a fresh venue has its local user');
  // A key of one second, made and expired while the clock ran ahead.
  const shortLived = await first.run(() => first.keys.create(boot.user_id, { name: 'a second', readOnly: false, expiredAt: ahead + 1_000_000_000n }, first.now()));
  // Something happens after it expired (here an account opens), so the folder holds a time past its expiry.
  ahead += 2_000_000_000n;
  await first.run(() => first.exchange.createUser({ isAdmin: false, makerFeeRate: '0', takerFeeRate: '0' }));
  await first.close();

  const running = await startVenue({ port: 0, dataDir: dir });
  try {
    expect(running.venue.now()).toBeGreaterThan(yearAhead);
    const socket = await TestSocket.open(running.wsUrl);
    try {
      const timestamp = Math.floor(Date.now() / 1000);
      socket.send({ op: 'auth', data: { key: boot.api_key, timestamp, signature: signature(boot.api_key, boot.api_secret, timestamp) } });
      expect(await socket.next((f) => f['channel'] === 'auth' || f['type'] === 'error')).toMatchObject({ channel: 'auth', type: 'authenticated' });
    } finally {
      socket.close();
    }
    const expired = await callVenue<{ error: { message: string } }>(running.baseUrl, 'GET', '/api/v1/orders/active', { key: { key: shortLived.row.apiKey, secret: shortLived.secret } });
    expect(expired.status, JSON.stringify(expired.body)).toBe(401);
    expect(expired.body.error.message).toMatch(/^E0002_ApiKeyExpired: /);
  } finally {
    await running.close();
  }
});
