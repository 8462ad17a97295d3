// A folder written while the system clock ran ahead (a wrong time zone, a clock corrected since): the venue stamps
// its own events no earlier than the folder's newest (clock-behind.test.ts), but what clients send from their own
// clocks (the auth timestamp, a key's expiration_time) is measured against the clock as it is, or every WebSocket
// auth would be refused as stale and every new expiry taken for past until the real time caught up.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startVenue } from '../../src-main/venue/server';
import { Venue } from '../../src-main/venue/venue';
import { callVenue } from './harness';
import { TestSocket, signature } from './ws/ws-client';

const dir = mkdtempSync(join(tmpdir(), 'nova-clock-ahead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('authenticates a WebSocket and makes a key that expires in a day, on a folder whose newest time is a year ahead', async () => {
  const yearAhead = BigInt(Date.now() + 365 * 86_400_000) * 1_000_000n;
  let ahead = yearAhead;
  const first = await Venue.open({ dataDir: dir, now: () => (ahead += 1_000n) });
  await first.close();

  const running = await startVenue({ port: 0, dataDir: dir });
  try {
    expect(running.venue.now()).toBeGreaterThan(yearAhead);
    const boot = JSON.parse(readFileSync(join(dir, 'bootstrap.json'), 'utf8')) as { api_key: string; api_secret: string };
    const socket = await TestSocket.open(running.wsUrl);
    try {
      const timestamp = Math.floor(Date.now() / 1000);
      socket.send({ op: 'auth', data: { key: boot.api_key, timestamp, signature: signature(boot.api_key, boot.api_secret, timestamp) } });
      expect(await socket.next((f) => f['channel'] === 'auth' || f['type'] === 'error')).toMatchObject({ channel: 'auth', type: 'authenticated' });
    } finally {
      socket.close();
    }
    const expiration = (BigInt(Date.now() + 86_400_000) * 1_000_000n).toString();
    const created = await callVenue<{ api_key: { api_key: string; api_secret: string } }>(running.baseUrl, 'POST', '/api-keys', {
      key: { key: boot.api_key, secret: boot.api_secret },
      body: { name: 'a day', expiration_time: expiration },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { api_key, api_secret } = created.body.api_key;
    const account = await callVenue(running.baseUrl, 'GET', '/api/v1/orders/active', { key: { key: api_key, secret: api_secret } });
    expect(account.status, JSON.stringify(account.body)).toBe(200);
  } finally {
    await running.close();
  }
});
