// A venue started with a small --max-open-orders and --simulate: each maker can rest only that many quotes, and
// they must still make a two-sided market rather than spend the whole allowance on one side.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { MarketSimulator } from '../../../src-main/venue/sim/market-simulator';
import { Venue } from '../../../src-main/venue/venue';

const START_NANOS = 1_700_000_000_000_000_000n;
let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

it('with a cap of 10 open orders an account, every book has bids and asks from both makers, and the makers stop asking past the cap', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-sim-cap-'));
  let clock = START_NANOS;
  const venue = await Venue.open({ dataDir, now: () => clock, maxOpenOrders: 10 });
  const sim = new MarketSimulator(venue, { seed: 4 });
  cleanup = async () => {
    await sim.stop();
    await venue.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  await sim.setup();
  for (let i = 0; i < 30; i++) {
    clock += 100_000_000n;
    await sim.step(100);
  }

  const makers = sim.users().filter((u) => u.role === 'maker');
  for (const market of venue.exchange.markets.values()) {
    for (const maker of makers.filter((m) => m.productId === market.id)) {
      const quotes = venue.exchange.activeOrders(maker.userId, { productIds: [market.id] });
      for (const side of ['BUY', 'SELL'] as const) {
        expect(quotes.filter((q) => q.side === side).length, `${market.id} maker ${maker.slot} ${side}`).toBeGreaterThanOrEqual(4);
      }
    }
  }
  // Trying every missing level at every step, against a cap that refuses them all, counted hundreds of refusals.
  expect(sim.status().orders_rejected).toBeLessThan(30);
});
