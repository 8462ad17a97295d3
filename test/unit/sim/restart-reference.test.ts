// A running simulated market restarted on its folder carries on from the reference price it had, not from
// whatever the last trade happened to be.
import { afterEach, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import { openSimulatedVenue, type SimulatedVenue } from './sim-harness';

const open: SimulatedVenue[] = [];

afterEach(async () => {
  for (const v of open.splice(0)) await v.close();
});

function product(v: SimulatedVenue, productId: string): { reference_price: string; last_trade: string | null } | undefined {
  return v.sim.status().products.find((p) => p.product_id === productId);
}

it('a trade far from the reference just before a restart does not move the whole market there', async () => {
  const first = await openSimulatedVenue({ seed: 5, volatility: 0 });
  await first.run(50);
  const market = first.venue.exchange.markets.get('BTC-VND');
  const ask = market?.book.bestAsk();
  const local = first.venue.localCredentials()?.user_id;
  if (market === undefined || ask === undefined || local === undefined) throw new Error('no BTC-VND quotes');
  // The trader bids 5 % above the asks; the makers sell into it at its price, the last trade of the market, and it
  // still rests, partly filled, when the venue stops.
  const limit = market.price(Math.round((ask * 105) / 100));
  const request = parseCreateOrder({ type: 'LIMIT', side: 'BUY', product_id: 'BTC-VND', limit_price: limit, base_size: '1' }, { now: first.venue.now() });
  if (request instanceof ApiError) throw request;
  await first.venue.run(() => first.venue.exchange.place(local, request));
  await first.run(1);
  const before = product(first, 'BTC-VND');
  expect(before?.last_trade).toBe(limit);
  await first.close({ keepData: true });

  const again = await openSimulatedVenue({ seed: 5, volatility: 0 }, first.dataDir);
  open.push(again);
  // It restarted at the trader's price: every quote 5 % up from where the market stood, in a market set not to move.
  expect(product(again, 'BTC-VND')?.reference_price).toBe(before?.reference_price);
  await again.run(1);
  const bids = again.venue.exchange.markets.get('BTC-VND')?.book.depth('BUY', 100) ?? [];
  expect(bids.filter((level) => level.priceTicks > ask).map((level) => market.price(level.priceTicks))).toEqual([limit]);
});
