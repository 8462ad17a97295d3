// A desk whose clock is not the venue's: the WebSocket's auth signs a timestamp the venue takes only within 30 s
// of its own clock, so a desk 45 s behind was refused for good ("refused": log in again), its blotter no longer
// fed, while REST went on working. The venues here run 45 s ahead of this process, and 45 s behind it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueSession } from '../../../src-main/connection/venue-session';
import { startVenue, type RunningVenue } from '../../../src-main/venue/server';
import { BTC, eventually, px } from './local-venue';

describe.each([
  ['ahead of', 45_000],
  ['behind', -45_000],
])('a venue whose clock is 45 s %s the desk’s', (_, aheadMs) => {
  let dataDir: string;
  let venue: RunningVenue;
  let credentials: { apiKey: string; apiSecret: string };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-skew-'));
    venue = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0, now: () => BigInt(Date.now() + aheadMs) * 1_000_000n });
    const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8')) as { api_key: string; api_secret: string };
    credentials = { apiKey: boot.api_key, apiSecret: boot.api_secret };
  });

  afterAll(async () => {
    await venue.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is reached all the same: the socket signs by the venue’s clock and the blotter is fed by it', async () => {
    const session = new VenueSession({ baseUrl: venue.baseUrl, wsUrl: venue.wsUrl, credentials, socket: { reconnect: { initialMs: 20, maxMs: 200 } } });
    try {
      await session.start();
      expect(session.syncState).toBe('live');
      // An order placed by another client reaches this session only over its socket.
      const other = await fetch(`${venue.baseUrl}/api/v1/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'NOVA-KEY': credentials.apiKey, 'NOVA-SECRET': credentials.apiSecret },
        body: JSON.stringify({ product_id: BTC, side: 'BUY', limit_price: px(-50), base_size: '0.01', wait: true }),
      });
      const { order } = (await other.json()) as { order: { order_id: string } };
      await eventually(() => session.order(order.order_id), 'the order over the socket');
    } finally {
      session.dispose();
    }
  });
});
