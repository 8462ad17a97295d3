// The local user's orders meet the simulated liquidity as they would a real market's: a market order walks the
// book, and a limit order inside the spread rests until a simulated taker fills it.
import { afterEach, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import type { LiveOrder } from '../../../src-main/venue/exchange/live-order';
import type { OrderRow } from '../../../src-main/venue/store';
import { openSimulatedVenue, type SimulatedVenue } from './sim-harness';

let v: SimulatedVenue | undefined;

afterEach(async () => {
  await v?.close();
  v = undefined;
});

function localUser(venue: SimulatedVenue): string {
  const id = venue.venue.localCredentials()?.user_id;
  if (id === undefined) throw new Error('a fresh venue has a local user');
  return id;
}

async function place(venue: SimulatedVenue, body: Record<string, unknown>): Promise<LiveOrder> {
  const request = parseCreateOrder(body, { now: venue.venue.now() });
  if (request instanceof ApiError) throw request;
  const { processed } = await venue.venue.run(() => venue.venue.exchange.place(localUser(venue), request));
  return processed;
}

it("a local user's market buy walks several levels of the simulated asks and fills", async () => {
  v = await openSimulatedVenue({ seed: 21 });
  await v.run(50);
  const market = v.venue.exchange.markets.get('BTC-VND');
  if (market === undefined) throw new Error('no BTC-VND');
  const levels = market.book.depth('SELL', 3);
  expect(levels).toHaveLength(3);
  const lots = levels.reduce((sum, level) => sum + level.lots, 0);

  const order = await place(v, { type: 'MARKET', side: 'BUY', product_id: 'BTC-VND', base_size: market.size(lots) });

  expect(order.row).toMatchObject({ status: 'DONE', doneReason: 'FILLED', filledBaseSize: market.size(lots) });
  expect(new Set(order.trades.map((t) => t.price))).toEqual(new Set(levels.map((l) => market.price(l.priceTicks))));
  const sims = new Set(v.sim.users().filter((u) => u.role === 'maker').map((u) => u.userId));
  for (const trade of order.trades) expect(sims.has(trade.makerUserId)).toBe(true);
});

it('a limit order inside the spread rests, and a simulated taker later fills it', async () => {
  // No volatility: the makers' ladder stays put, so the order stays the best bid until a taker sells.
  v = await openSimulatedVenue({ seed: 33, volatility: 0 });
  await v.run(20);
  const market = v.venue.exchange.markets.get('SOL-VND');
  const bid = market?.book.bestBid();
  const ask = market?.book.bestAsk();
  if (market === undefined || bid === undefined || ask === undefined) throw new Error('no SOL-VND quotes');
  expect(ask - bid).toBeGreaterThan(1);

  const order = await place(v, { type: 'LIMIT', side: 'BUY', product_id: 'SOL-VND', limit_price: market.price(ask - 1), base_size: '0.5' });
  expect(order.row.status).toBe('ACTIVE');
  expect(order.trades).toEqual([]);
  expect(market.book.bestBid()).toBe(ask - 1);

  const done: OrderRow[] = [];
  v.venue.exchange.onOrderEvent((event) => {
    if (event.row.orderId === order.row.orderId && event.row.status === 'DONE') done.push(event.row);
  });
  for (let second = 0; second < 60 && done.length === 0; second++) await v.run(10);

  expect(done).toHaveLength(1);
  expect(done[0]).toMatchObject({ doneReason: 'FILLED', filledBaseSize: '0.5' });
  const takers = new Set(v.sim.users().filter((u) => u.role === 'taker').map((u) => u.userId));
  expect(order.trades.length).toBeGreaterThan(0);
  for (const trade of order.trades) {
    expect(trade.makerOrderId).toBe(order.row.orderId);
    expect(trade.price).toBe(market.price(ask - 1));
    expect(takers.has(trade.takerUserId)).toBe(true);
  }
});

/** Each change of one order as the exchange reported it, in order. */
function watch(venue: SimulatedVenue, orderId: string): OrderRow[] {
  const seen: OrderRow[] = [];
  venue.venue.exchange.onOrderEvent((event) => {
    if (event.row.orderId === orderId) seen.push(event.row);
  });
  return seen;
}

const partiallyFilled = (row: OrderRow): boolean =>
  row.status === 'ACTIVE' && Number(row.filledBaseSize) > 0 && Number(row.filledBaseSize) < Number(row.baseSize);

it('a large resting bid is filled a piece at a time by simulated takers, and shows partially filled meanwhile', async () => {
  // No volatility: the makers' ladder stays put, so the bid stays the best one until it is filled.
  v = await openSimulatedVenue({ seed: 33, volatility: 0 });
  await v.run(20);
  const market = v.venue.exchange.markets.get('BTC-VND');
  const ask = market?.book.bestAsk();
  if (market === undefined || ask === undefined) throw new Error('no BTC-VND quotes');

  // Five clips: more than any single typical taker trades, so it takes several of them.
  const order = await place(v, { type: 'LIMIT', side: 'BUY', product_id: 'BTC-VND', limit_price: market.price(ask - 1), base_size: '0.2' });
  expect(order.row).toMatchObject({ status: 'ACTIVE', filledBaseSize: '0' });
  const changes = watch(v, order.row.orderId);
  // What a client reading the order between steps sees.
  const read: OrderRow[] = [];
  for (let second = 0; second < 120 && order.row.status !== 'DONE'; second++) await v.run(10, 100, () => read.push({ ...order.row }));

  expect(changes.at(-1)).toMatchObject({ status: 'DONE', doneReason: 'FILLED', filledBaseSize: '0.2' });
  const done = changes.findIndex((row) => row.status === 'DONE');
  expect(changes.slice(0, done).some(partiallyFilled), JSON.stringify(changes.map((r) => [r.status, r.filledBaseSize]))).toBe(true);
  expect(read.some(partiallyFilled)).toBe(true);
  expect(new Set(order.trades.map((t) => t.takerOrderId)).size).toBeGreaterThan(1);
});

it("a local user's marketable limit sell walks the simulated bids down to its limit and rests the rest, partially filled", async () => {
  v = await openSimulatedVenue({ seed: 21, volatility: 0 });
  await v.run(50);
  const market = v.venue.exchange.markets.get('BTC-VND');
  if (market === undefined) throw new Error('no BTC-VND');
  const levels = market.book.depth('BUY', 2);
  expect(levels).toHaveLength(2);
  const [best, second] = levels as [(typeof levels)[0], (typeof levels)[0]];
  const crossed = best.lots + second.lots;
  // More than the two levels it may sell into hold: it takes both and keeps the rest on the book at its limit.
  const lots = crossed * 2;

  const order = await place(v, { type: 'LIMIT', side: 'SELL', product_id: 'BTC-VND', limit_price: market.price(second.priceTicks), base_size: market.size(lots) });

  expect(order.row).toMatchObject({ status: 'ACTIVE', filledBaseSize: market.size(crossed) });
  expect(partiallyFilled(order.row)).toBe(true);
  expect(order.row.restingLots).toBe(lots - crossed);
  expect(new Set(order.trades.map((t) => t.price))).toEqual(new Set([market.price(best.priceTicks), market.price(second.priceTicks)]));
  expect(market.book.bestAsk()).toBe(second.priceTicks);
  expect(market.book.bestBid() ?? 0).toBeLessThan(second.priceTicks);
  const makers = new Set(v.sim.users().filter((u) => u.role === 'maker').map((u) => u.userId));
  for (const trade of order.trades) expect(makers.has(trade.makerUserId)).toBe(true);
});

it("a bid resting through the makers' asks is sold into by the makers, and the ask side comes back", async () => {
  v = await openSimulatedVenue({ seed: 5 });
  await v.run(50);
  const market = v.venue.exchange.markets.get('BTC-VND');
  const ask = market?.book.bestAsk();
  if (market === undefined || ask === undefined) throw new Error('no BTC-VND quotes');
  // 5 % above the market and four times what the asks hold: it takes them all and rests the rest above every ask
  // the makers would quote. Makers used to leave that side empty rather than quote through it, and the bid waited
  // for the takers' sells, a few hundredths of a bitcoin a second.
  const limit = Math.round((ask * 105) / 100);
  const order = await place(v, { type: 'LIMIT', side: 'BUY', product_id: 'BTC-VND', limit_price: market.price(limit), base_size: '1' });
  expect(order.row.status).toBe('ACTIVE');
  expect(market.book.bestAsk()).toBeUndefined();

  await v.run(20);

  expect(order.row).toMatchObject({ status: 'DONE', doneReason: 'FILLED', filledBaseSize: '1' });
  const makers = new Set(v.sim.users().filter((u) => u.role === 'maker').map((u) => u.userId));
  expect(order.trades.some((t) => makers.has(t.takerUserId))).toBe(true);
  const bestAsk = market.book.bestAsk();
  expect(bestAsk).toBeDefined();
  expect(bestAsk ?? 0).toBeLessThan(limit);
  expect(market.book.depth('SELL', 100).length).toBeGreaterThanOrEqual(10);
});

it("a paused market restarted quotes around the trader's bid through its asks but does not trade with it", async () => {
  const first = await openSimulatedVenue({ seed: 5 });
  await first.run(50);
  const market = first.venue.exchange.markets.get('BTC-VND');
  const ask = market?.book.bestAsk();
  if (market === undefined || ask === undefined) throw new Error('no BTC-VND quotes');
  const order = await place(first, { type: 'LIMIT', side: 'BUY', product_id: 'BTC-VND', limit_price: market.price(Math.round((ask * 105) / 100)), base_size: '1' });
  const filled = order.row.filledBaseSize;
  await first.sim.pause();
  await first.close({ keepData: true });

  v = await openSimulatedVenue({ seed: 5 }, first.dataDir);

  // Frozen: the makers quote once at setup, and a level the bid crosses stays empty rather than being sold into it.
  expect(v.venue.exchange.liveOrder(order.row.orderId)?.row).toMatchObject({ status: 'ACTIVE', filledBaseSize: filled });
  expect(v.venue.exchange.markets.get('BTC-VND')?.book.depth('BUY', 100).length).toBeGreaterThanOrEqual(10);
});
