// The simulated users' history is kept for an hour, not for ever (about 120 MB an hour at the default speed): their
// done orders and the trades among them go, and nothing another row or a restart needs goes with them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import { Venue } from '../../../src-main/venue/venue';

const dir = mkdtempSync(join(tmpdir(), 'nova-forget-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function place(venue: Venue, user: string, side: 'BUY' | 'SELL', size: string, price = '2500000000'): Promise<string> {
  const request = parseCreateOrder({ product_id: 'BTC-VND', side, limit_price: price, base_size: size }, { now: venue.now() });
  if (request instanceof ApiError) throw request;
  return (await venue.run(() => venue.exchange.place(user, request))).processed.row.orderId;
}

const history = (venue: Venue, user: string): string[] =>
  venue.store.archivedOrders(user, { limit: 1000, sort: 'created_at' }).map((o) => o.orderId);

it("deletes the done orders of the users named and the trades among them, and keeps open orders' fills and other users' trades", async () => {
  let now = 1_800_000_000_000_000_000n;
  const venue = await Venue.open({ dataDir: dir, now: () => (now += 1_000n) });
  const [maker, taker, trader] = await venue.run(() =>
    [0, 1, 2].map(() => {
      const user = venue.exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
      venue.exchange.deposit(user.id, 'BTC', 10n ** 12n);
      venue.exchange.deposit(user.id, 'VND', 10n ** 18n);
      return user.id;
    }),
  ) as [string, string, string];
  // Between the two simulated users, done on both sides: forgotten.
  const soldAway = await place(venue, maker, 'SELL', '0.001');
  const boughtAway = await place(venue, taker, 'BUY', '0.001');
  // A simulated order the trader traded with: kept, as is the trader's.
  const soldToTrader = await place(venue, maker, 'SELL', '0.001');
  const traderBuy = await place(venue, trader, 'BUY', '0.001');
  // Still resting, part filled by the other simulated user: its fill is what a restart rebuilds it from.
  const resting = await place(venue, maker, 'SELL', '0.003', '2500010000');
  const partTaker = await place(venue, taker, 'BUY', '0.001', '2500010000');
  // A simulated order cancelled without trading: forgotten.
  const cancelled = await place(venue, taker, 'BUY', '0.001', '2400000000');
  await venue.run(() => venue.exchange.cancel(taker, { orderId: cancelled }));
  // The trader's, and the newest order: a restart carries the order seq on from the newest stored, so that one stays.
  const traderResting = await place(venue, trader, 'BUY', '0.001', '2300000000');
  await venue.store.caughtUp();

  const users = [maker, taker];
  const products = ['BTC-VND'];
  // A product's newest trades stay whatever their age (a restart reads them back as its tape and last price), and
  // so do the orders they name: only the cancelled order goes while the three trades are among the newest ten.
  expect(await venue.store.forgetHistory({ users, products, before: now + 1n, keepTrades: 10 })).toEqual({ orders: 1, trades: 0 });
  expect(history(venue, taker)).toEqual([boughtAway, partTaker]);
  const forgotten = await venue.store.forgetHistory({ users, products, before: now + 1n, keepTrades: 1 });
  expect(forgotten).toEqual({ orders: 2, trades: 1 });
  expect(history(venue, maker)).toEqual([soldToTrader, resting]);
  expect(history(venue, taker)).toEqual([partTaker]);
  expect(history(venue, trader)).toEqual([traderBuy, traderResting]);
  expect(venue.store.tradesOfOrders([soldAway, boughtAway])).toEqual([]);
  expect(venue.store.tradesOfOrders([traderBuy])).toHaveLength(1);
  expect(venue.store.tradesOfOrders([resting])).toHaveLength(1);
  expect(venue.store.integrityCheck()).toBe('ok');
  // Nothing done at or after `before` goes: two simulated orders that trade with each other from here on stay.
  const before = now + 1n;
  const laterSell = await place(venue, maker, 'SELL', '0.001', '2400000000');
  const laterBuy = await place(venue, taker, 'BUY', '0.001', '2400000000');
  expect(await venue.store.forgetHistory({ users, products, before, keepTrades: 1 })).toEqual({ orders: 0, trades: 0 });
  expect(history(venue, maker)).toContain(laterSell);
  expect(history(venue, taker)).toContain(laterBuy);
  expect(venue.store.tradesOfOrders([laterSell])).toHaveLength(1);
  // The newest order stays even when it is a simulated user's, done and old.
  const newest = await place(venue, taker, 'BUY', '0.001', '2300000000');
  await venue.run(() => venue.exchange.cancel(taker, { orderId: newest }));
  expect(await venue.store.forgetHistory({ users, products, before: now + 1n, keepTrades: 1 })).toEqual({ orders: 0, trades: 0 });
  expect(history(venue, taker)).toContain(newest);
  await venue.close();

  const again = await Venue.open({ dataDir: dir, now: () => (now += 1_000n) });
  try {
    const order = again.exchange.liveOrder(resting);
    expect(order?.filledLots).toBe(again.exchange.markets.get('BTC-VND')?.lotsOf('0.001'));
    expect(order?.row.filledBaseSize).toBe('0.001');
  } finally {
    await again.close();
  }
});

it('forgets what was acknowledged before it was asked, with no wait for the tables first', async () => {
  const folder = mkdtempSync(join(dir, 'acknowledged-'));
  let now = 1_800_000_000_000_000_000n;
  const venue = await Venue.open({ dataDir: folder, now: () => (now += 1_000n) });
  try {
    const [maker, taker] = await venue.run(() =>
      [0, 1].map(() => {
        const user = venue.exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
        venue.exchange.deposit(user.id, 'BTC', 10n ** 12n);
        venue.exchange.deposit(user.id, 'VND', 10n ** 18n);
        return user.id;
      }),
    ) as [string, string];
    const sold = await place(venue, maker, 'SELL', '0.001');
    await place(venue, taker, 'BUY', '0.001');
    // The product's newest trade stays, and the orders it names.
    await place(venue, maker, 'SELL', '0.001');
    await place(venue, taker, 'BUY', '0.001');
    expect(await venue.store.forgetHistory({ users: [maker, taker], products: ['BTC-VND'], before: now + 1n, keepTrades: 1 })).toEqual({ orders: 2, trades: 1 });
    expect(venue.store.tradesOfOrders([sold])).toEqual([]);
  } finally {
    await venue.close();
  }
});
