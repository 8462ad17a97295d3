// A venue started with a small --max-open-orders and --simulate: each maker can rest only that many quotes, and
// they must still make a two-sided market rather than spend the whole allowance on one side.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
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

/**
 * A simulator told the venue's cap: every maker's ladder fits in it from the first step, so the venue refuses none
 * of its quotes for the cap. Counted where the exchange refuses: E0210 thrown from place for a simulated user.
 */
async function capRefusals(cap: number): Promise<{ refusals: number; oneSided: string[]; venue: Venue; sim: MarketSimulator }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-sim-cap-'));
  let clock = START_NANOS;
  const venue = await Venue.open({ dataDir, now: () => clock, maxOpenOrders: cap });
  const sim = new MarketSimulator(venue, { seed: 4 });
  cleanup = async () => {
    await sim.stop();
    await venue.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  let refusals = 0;
  const place = venue.exchange.place.bind(venue.exchange);
  venue.exchange.place = (userId, request) => {
    try {
      return place(userId, request);
    } catch (err) {
      if (err instanceof ApiError && err.ref === 'E0210_OrderLimitExceeded') refusals += 1;
      throw err;
    }
  };
  await sim.setup();
  const oneSided: string[] = [];
  for (let i = 0; i < 40; i++) {
    clock += 100_000_000n;
    await sim.step(100);
    for (const market of venue.exchange.markets.values()) {
      if (market.book.bestBid() === undefined || market.book.bestAsk() === undefined) oneSided.push(`${market.id} after step ${i}`);
    }
  }
  return { refusals, oneSided, venue, sim };
}

for (const cap of [1, 2, 5, 10]) {
  it(`told a cap of ${cap} open orders an account, the makers send no order the cap refuses and every book stays two-sided`, async () => {
    const { refusals, oneSided, venue, sim } = await capRefusals(cap);
    expect(refusals).toBe(0);
    expect(sim.status().errors).toBe(0);
    expect(oneSided).toEqual([]);
    const makers = sim.users().filter((u) => u.role === 'maker');
    for (const market of venue.exchange.markets.values()) {
      for (const maker of makers.filter((m) => m.productId === market.id)) {
        const quotes = venue.exchange.activeOrders(maker.userId, { productIds: [market.id] });
        expect(quotes.length, `${market.id} maker ${maker.slot}`).toBeLessThanOrEqual(cap);
        // Room for a bid and an ask: each maker quotes both sides (takers may just have eaten a level or two).
        if (cap >= 2) for (const side of ['BUY', 'SELL'] as const) expect(quotes.filter((q) => q.side === side).length, `${market.id} maker ${maker.slot} ${side}`).toBeGreaterThanOrEqual(1);
      }
    }
  });
}
