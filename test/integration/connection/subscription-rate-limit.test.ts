// A venue that limits WebSocket frames per connection (the local venue's messagesPerSecond, here 6) answers the
// subscriptions past its limit with E0501. That refusal is for now, not for the product: taken as one, the
// product's book, tape and ticker went to REST polling for good, spending the REST budget orders share, while
// the stream would have been served a second later. The subscription is sent again once the limit allows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueSession } from '../../../src-main/connection/venue-session';
import { startVenue, type RunningVenue } from '../../../src-main/venue/server';

let running: RunningVenue;
let dataDir: string;
let credentials: { apiKey: string; apiSecret: string };

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-sub-rate-'));
  running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0, ws: { messagesPerSecond: 6 } });
  const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8')) as { api_key: string; api_secret: string };
  credentials = { apiKey: boot.api_key, apiSecret: boot.api_secret };
});

afterAll(async () => {
  await running.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('market-data subscriptions refused for the connection’s frame rate', () => {
  it('are sent again and streamed, not switched to polling', async () => {
    const session = new VenueSession({ baseUrl: running.baseUrl, wsUrl: running.wsUrl, credentials, pollIntervalMs: 100 });
    try {
      await session.start();
      const products = ['BTC-VND', 'ETH-VND'];
      const streamedTickers = new Set<string>();
      // The first of: a product switched to polling, or both products' tickers streamed (each sub's first ticker).
      const outcome = new Promise<string>((resolve) => {
        session.onDidSwitchToPolling(({ productId, reason }) => resolve(`${productId} switched to polling (${reason.ref})`));
        session.onDidChangeTicker((ticker) => {
          streamedTickers.add(ticker.product_id);
          if (products.every((p) => streamedTickers.has(p))) resolve('streamed');
        });
      });
      // Two products' three channels at once, after auth and orders: past the six frames a second.
      await Promise.all(products.map((p) => session.watchMarket(p)));
      expect(await outcome).toBe('streamed');
      expect(session.polledProducts()).toEqual([]);
    } finally {
      session.dispose();
    }
  });
});
