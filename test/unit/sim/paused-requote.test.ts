// A paused market is frozen, not lopsided: its makers requote around a reference moved while paused on both sides
// even when a trader's order rests where one side's ladder would go, and a reference set just before a pause is
// the one the frozen book stands around.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import type { Market } from '../../../src-main/venue/exchange/market';
import { openSimulatedVenue, type SimulatedVenue } from './sim-harness';

const open: SimulatedVenue[] = [];

afterEach(async () => {
  for (const v of open.splice(0)) await v.close();
});

async function simulated(seed: number): Promise<SimulatedVenue> {
  const v = await openSimulatedVenue({ seed });
  open.push(v);
  return v;
}

function marketOf(v: SimulatedVenue, productId: string): Market {
  const market = v.venue.exchange.markets.get(productId);
  if (market === undefined) throw new Error(`no ${productId}`);
  return market;
}

function referenceTicks(v: SimulatedVenue, productId: string): number {
  const market = marketOf(v, productId);
  const price = v.sim.status().products.find((p) => p.product_id === productId)?.reference_price;
  if (price === undefined) throw new Error(`no status for ${productId}`);
  return Number(price) / Number(market.rules.spec.priceIncrement);
}

async function placeLocal(v: SimulatedVenue, body: Record<string, unknown>): Promise<string> {
  const userId = v.venue.localCredentials()?.user_id;
  if (userId === undefined) throw new Error('a fresh venue has a local user');
  const request = parseCreateOrder(body, { now: v.venue.now() });
  if (request instanceof ApiError) throw request;
  const { processed } = await v.venue.run(() => v.venue.exchange.place(userId, request));
  expect(processed.row.status).toBe('ACTIVE');
  return processed.row.orderId;
}

/** Levels of a side, each within `percent` of the reference. */
function levelsNear(market: Market, side: 'BUY' | 'SELL', reference: number, percent: number): number {
  return market.book.depth(side, 100).filter((l) => Math.abs(l.priceTicks - reference) * 100 <= reference * percent).length;
}

describe('a paused market whose reference is moved past a trader\'s resting order', () => {
  for (const [side, move] of [['BUY', -1], ['SELL', 1]] as const) {
    it(`keeps the side the ${side === 'BUY' ? 'bid' : 'ask'} crosses quoted, behind it, trading nothing; resumed, the makers trade into it`, async () => {
      const v = await simulated(41);
      await v.run(20);
      await v.sim.pause();
      const market = marketOf(v, 'ETH-VND');
      const reference = referenceTicks(v, 'ETH-VND');
      const traderPrice = reference;
      const orderId = await placeLocal(v, { type: 'LIMIT', side, product_id: 'ETH-VND', limit_price: market.price(traderPrice), base_size: '0.01' });
      const trades = v.trades.length;

      // 1 % away: every level of the side facing the trader's order would now cross it.
      const moved = Math.round((reference * (100 + move)) / 100);
      await v.sim.setReferencePrice('ETH-VND', market.price(moved));

      const facing = side === 'BUY' ? 'SELL' : 'BUY';
      const levels = market.book.depth(facing, 100);
      expect(levels.length, `${facing} levels while paused`).toBeGreaterThanOrEqual(5);
      // Behind the trader's order, not through it: the book is not crossed and nothing traded.
      if (side === 'BUY') expect(market.book.bestAsk()).toBe(traderPrice + 1);
      else expect(market.book.bestBid()).toBe(traderPrice - 1);
      expect(v.trades.length).toBe(trades);
      expect(v.venue.exchange.liveOrder(orderId)?.row.status).toBe('ACTIVE');
      // The other side stands around the new reference.
      expect(levelsNear(market, side, moved, 1)).toBeGreaterThanOrEqual(5);

      // Resumed: the makers trade into the order as a running market does, and quote around the reference again.
      await v.sim.resume();
      await v.run(3);
      expect(v.venue.exchange.liveOrder(orderId)).toBeUndefined();
      const now = referenceTicks(v, 'ETH-VND');
      expect(levelsNear(market, 'BUY', now, 1)).toBeGreaterThanOrEqual(5);
      expect(levelsNear(market, 'SELL', now, 1)).toBeGreaterThanOrEqual(5);
      expect(v.sim.status().errors).toBe(0);
    });
  }
});

describe('a reference set while running, then paused before the next step', () => {
  it('is the one the frozen book stands around, quoted at the pause without trading', async () => {
    const v = await simulated(43);
    await v.run(20);
    const market = marketOf(v, 'BTC-VND');
    const trades = v.trades.length;
    // Running: the quotes would follow at the next step, which the pause comes before.
    await v.sim.setReferencePrice('BTC-VND', '2600000000');
    await v.sim.pause();
    const reference = referenceTicks(v, 'BTC-VND');
    expect(market.price(reference)).toBe('2600000000');
    expect(levelsNear(market, 'BUY', reference, 1)).toBeGreaterThanOrEqual(5);
    expect(levelsNear(market, 'SELL', reference, 1)).toBeGreaterThanOrEqual(5);
    expect(v.trades.length).toBe(trades);
    // Paused steps change nothing.
    const events = v.orderEvents();
    await v.run(5);
    expect(v.orderEvents()).toBe(events);
    expect(v.sim.status().errors).toBe(0);
  });
});
