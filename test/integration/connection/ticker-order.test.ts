// A trader is never shown an older price as the newest: the desk's socket passes tickers on as the venue sends
// them, and the venue sends a connection none older than one it sent, its subscription's first included
// (test/integration/ws/ticker-order.test.ts holds the venue alone). Once, the first ticker was read ahead of
// commits still being written and older ones followed it (last 2,500,100,000, then 2,500,460,000).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TickerEvent } from '../../../src-shared/protocol/ws';
import { nextEvent } from '../../../src-main/connection/events';
import { VenueSocket } from '../../../src-main/connection/venue-socket';
import type { VenueCredentials } from '../../../src-main/connection/rest-client';
import { BTC, LocalVenue, px } from './local-venue';

let venue: LocalVenue;
const sockets: VenueSocket[] = [];

beforeAll(async () => {
  venue = await LocalVenue.start();
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await venue.dispose();
});

async function opened(credentials?: VenueCredentials): Promise<VenueSocket> {
  const socket = new VenueSocket({ url: venue.wsUrl, ...(credentials === undefined ? {} : { credentials }), requestTimeoutMs: 5_000 });
  sockets.push(socket);
  const open = nextEvent(socket.onDidChangeStatus, (s) => s.state === 'open');
  socket.connect();
  await open;
  return socket;
}

describe('tickers while the market trades', () => {
  it('are passed on newest last: none older than the one a subscription started with', async () => {
    const rich = { BTC: '1000', VND: '100000000000000' };
    const seller = await opened((await venue.newAccount(rich)).credentials);
    const buyer = await opened((await venue.newAccount(rich)).credentials);
    // Someone else watches the ticker throughout, so every commit that trades publishes one.
    await (await opened()).subscribe('ticker', [BTC]);
    let trading = true;
    const traffic = (async () => {
      for (let round = 0; trading; round++) {
        const orders: Promise<unknown>[] = [];
        for (let k = 0; k < 40; k++) {
          const price = px((round * 7 + k) % 50);
          orders.push(seller.createOrder({ type: 'limit', side: 'sell', product_id: BTC, price, size: '0.001' }).catch(() => undefined));
          orders.push(buyer.createOrder({ type: 'limit', side: 'buy', product_id: BTC, price, size: '0.001' }).catch(() => undefined));
        }
        await Promise.all(orders);
      }
    })();

    const watcher = await opened();
    const backwards: string[] = [];
    let heard = 0;
    try {
      for (let i = 0; i < 60; i++) {
        const seen: TickerEvent[] = [];
        const listening = watcher.onDidReceiveTicker((t) => seen.push(t));
        await watcher.subscribe('ticker', [BTC]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        await watcher.unsubscribe('ticker', [BTC]);
        listening.dispose();
        heard += seen.length;
        seen.forEach((t, j) => {
          const before = seen[j - 1];
          if (before !== undefined && BigInt(t.time) < BigInt(before.time)) backwards.push(`${before.price}@${before.time} then ${t.price}@${t.time}`);
        });
      }
    } finally {
      trading = false;
      await traffic;
    }
    expect(heard).toBeGreaterThan(60);
    expect(backwards).toEqual([]);
  }, 60_000);
});
