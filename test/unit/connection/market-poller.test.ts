// MarketPoller against the real local venue (a fresh data folder, port 0): a product polled from the public REST
// endpoints passes on every trade, even when more were made between two polls than one poll's page holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketPoller } from '../../../src-main/connection/market-poller';
import type { PublicTrade } from '../../../src-shared/protocol/records';
import { LocalVenue } from '../../integration/connection/local-venue';

let venue: LocalVenue;

beforeAll(async () => {
  venue = await LocalVenue.start();
}, 60_000);

afterAll(async () => {
  await venue.dispose();
});

describe('market poller', () => {
  it('passes on all the trades made between two polls, beyond one page of them', { timeout: 60_000 }, async () => {
    const seller = await venue.newAccount({ SOL: '100', VND: '0' });
    const buyer = await venue.newAccount({ VND: '100000000000' });
    const passed: PublicTrade[] = [];
    const poller = new MarketPoller(venue.client(), 'SOL-VND', 60_000, {
      book: () => undefined,
      trades: (trades) => passed.push(...trades),
      failed: (err) => {
        throw err;
      },
    });
    try {
      // One poll to know the tape (empty: a fresh venue)...
      await poller.poll();
      // ...then 150 trades before the next: one buy taking 150 resting sells of a lot each. A page is 100.
      for (let i = 0; i < 150; i++) await venue.client(seller).placeOrder({ product_id: 'SOL-VND', side: 'SELL', limit_price: '4000000', base_size: '0.01', wait: true });
      const taken = await venue.client(buyer).placeOrder({ product_id: 'SOL-VND', side: 'BUY', limit_price: '4000000', base_size: '1.5', wait: true });
      expect(taken.status).toBe('DONE');
      await poller.poll();
      const made = (await venue.client().listTrades('SOL-VND', 1000)).map((t) => t.id);
      expect(made).toHaveLength(150);
      // Passed on oldest first, each once.
      expect(passed.map((t) => t.id)).toEqual([...made].reverse());
    } finally {
      poller.dispose();
    }
  });
});
