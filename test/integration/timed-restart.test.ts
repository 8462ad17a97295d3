// Orders the clock moves on, across a stop and start on the same folder while time went on: what fell due while
// the venue was down happens before anything can trade with it (and after the last run's simulated quotes are
// gone), and a TWAP does not make up its missed slices in a burst. The venue's clock is the test's, so nothing
// here waits on real time but the simulator's first quotes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../src-shared/protocol/orders';
import type { OrderEvent } from '../../src-main/venue/exchange/exchange';
import { startVenue, type RunningVenue } from '../../src-main/venue/server';
import { SIM_REFERENCES_META_KEY } from '../../src-main/venue/sim/market-simulator';
import type { Venue } from '../../src-main/venue/venue';
import { eventually } from './eventually';

const SECOND = 1_000_000_000n;
const PRICE = 2_500_000_000;
let clock = BigInt(Date.now()) * 1_000_000n;
const dirs: string[] = [];
const running = new Map<Venue, RunningVenue>();

afterEach(async () => {
  for (const server of running.values()) await server.close();
  running.clear();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The venue as `npm run venue` starts it (its clock the test's), on this folder. */
async function openVenue(dir: string, simulate = false): Promise<Venue> {
  const server = await startVenue({ port: 0, dataDir: dir, now: () => clock, simulate });
  running.set(server.venue, server);
  return server.venue;
}

/** Pause the venue's simulator as the trader does, through POST /sim/pause with the admin's key. */
async function pauseSimulator(venue: Venue): Promise<void> {
  const server = running.get(venue);
  const local = venue.localCredentials();
  if (server === undefined || local === undefined) throw new Error('no running venue with a local user');
  const reply = await fetch(`${server.baseUrl}/sim/pause`, { method: 'POST', headers: { 'NOVA-KEY': local.api_key, 'NOVA-SECRET': local.api_secret } });
  expect(reply.status).toBe(200);
}

async function closeVenue(venue: Venue): Promise<void> {
  await running.get(venue)?.close();
  running.delete(venue);
}

async function freshVenue(): Promise<{ dir: string; venue: Venue; maker: string; taker: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'nova-timed-restart-'));
  dirs.push(dir);
  const venue = await openVenue(dir);
  const [maker, taker] = await venue.run(() =>
    [0, 1].map(() => {
      const user = venue.exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
      venue.exchange.deposit(user.id, 'BTC', 10n ** 12n);
      venue.exchange.deposit(user.id, 'VND', 10n ** 18n);
      return user.id;
    }),
  );
  return { dir, venue, maker: maker as string, taker: taker as string };
}

async function place(venue: Venue, userId: string, fields: Record<string, string>): Promise<string> {
  const parsed = parseCreateOrder({ product_id: 'BTC-VND', ...fields }, { now: venue.now() });
  if (parsed instanceof ApiError) throw parsed;
  return (await venue.run(() => venue.exchange.place(userId, parsed))).processed.row.orderId;
}

function statusOf(venue: Venue, userId: string, orderId: string): string {
  const row = venue.store.orderById(userId, orderId);
  return `${row?.status ?? 'missing'} ${row?.doneReason ?? ''}`.trim();
}

describe('a venue started again after time went on', () => {
  it('expires a GTT order, and a GTT stop, that expired while it was down before anything trades with them', async () => {
    const fresh = await freshVenue();
    const { dir, maker, taker } = fresh;
    let { venue } = fresh;
    const expiredAt = String(clock + SECOND);
    const gtt = await place(venue, maker, { side: 'SELL', limit_price: String(PRICE), base_size: '0.01', time_in_force: 'GTT', expired_at: expiredAt });
    await place(venue, maker, { side: 'SELL', limit_price: String(PRICE + 10_000), base_size: '0.01' });
    await place(venue, taker, { side: 'BUY', limit_price: String(PRICE - 10_000_000), base_size: '0.01' });
    const stop = await place(venue, maker, {
      type: 'STOP', side: 'SELL', order_stop_type: 'STOP_LOSS', stop_trigger_price: String(PRICE - 5_000_000), limit_price: String(PRICE - 20_000_000),
      base_size: '0.01', time_in_force: 'GTT', expired_at: expiredAt,
    });
    expect(statusOf(venue, maker, stop)).toBe('SCHEDULED');
    await closeVenue(venue);

    clock += 5n * SECOND;
    venue = await openVenue(dir);
    expect(statusOf(venue, maker, gtt)).toBe('DONE EXPIRED');
    expect(statusOf(venue, maker, stop)).toBe('DONE EXPIRED');
    // The buy trades with the ask that lives on, not the expired one in front of it.
    const buy = await place(venue, taker, { type: 'MARKET', side: 'BUY', limit_price: '0', base_size: '0.01', time_in_force: 'IOC' });
    const [trade] = venue.store.tradesOfOrders([buy]);
    expect(trade?.price).toBe(String(PRICE + 10_000));
    // A sell through the stop's trigger (into the other trader's bid) finds no stop left to fire.
    await place(venue, maker, { type: 'MARKET', side: 'SELL', limit_price: '0', base_size: '0.001', time_in_force: 'IOC' });
    expect(statusOf(venue, maker, stop)).toBe('DONE EXPIRED');
  });

  it('starts a stop whose scheduled_at came, so trades after the start can trigger it', async () => {
    const fresh = await freshVenue();
    const { dir, maker, taker } = fresh;
    let { venue } = fresh;
    await place(venue, taker, { side: 'BUY', limit_price: String(PRICE - 10_000_000), base_size: '0.1' });
    const stop = await place(venue, maker, {
      type: 'STOP', side: 'SELL', order_stop_type: 'STOP_LOSS', stop_trigger_price: String(PRICE - 5_000_000), limit_price: String(PRICE - 20_000_000),
      base_size: '0.01', scheduled_at: String(clock + SECOND / 10n),
    });
    clock += SECOND / 5n;
    await venue.run(() => venue.exchange.tick());
    expect(statusOf(venue, maker, stop)).toBe('SCHEDULED');
    await closeVenue(venue);

    clock += 5n * SECOND;
    venue = await openVenue(dir);
    // The first trade after the start is through the trigger: the stop sells into the bid.
    await place(venue, maker, { type: 'MARKET', side: 'SELL', limit_price: '0', base_size: '0.001', time_in_force: 'IOC' });
    expect(statusOf(venue, maker, stop)).toBe('DONE FILLED');
  });

  it('leaves an order that started at its scheduled_at off the clock after a restart, as it was before', async () => {
    const fresh = await freshVenue();
    const { dir, maker } = fresh;
    let { venue } = fresh;
    const order = await place(venue, maker, { side: 'SELL', limit_price: String(PRICE), base_size: '0.01', scheduled_at: String(clock + SECOND / 10n) });
    expect(venue.exchange.waitingOnClock).toBe(1);
    clock += SECOND / 5n;
    await venue.run(() => venue.exchange.tick());
    expect(statusOf(venue, maker, order)).toBe('ACTIVE');
    expect(venue.exchange.waitingOnClock).toBe(0);
    await closeVenue(venue);

    venue = await openVenue(dir);
    expect(statusOf(venue, maker, order)).toBe('ACTIVE');
    // Before, every tick walked it again for as long as it rested.
    expect(venue.exchange.waitingOnClock).toBe(0);
  });

  it('takes the last run\'s simulated quotes off before an order that fell due starts: they priced an old market', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nova-timed-restart-'));
    dirs.push(dir);
    let venue = await openVenue(dir, true);
    const market = venue.exchange.markets.get('BTC-VND');
    const bestAsk = await eventually(() => market?.book.depth('SELL', 1)[0], 'a simulated ask');
    const local = venue.localCredentials()?.user_id ?? '';
    const buy = await place(venue, local, { side: 'BUY', limit_price: market?.price(bestAsk.priceTicks) ?? '', base_size: '0.0001', scheduled_at: String(clock + SECOND) });
    expect(statusOf(venue, local, buy)).toBe('SCHEDULED');
    await closeVenue(venue);

    clock += 5n * SECOND;
    venue = await openVenue(dir);
    expect(statusOf(venue, local, buy)).toBe('ACTIVE');
    expect(venue.store.tradesOfOrders([buy])).toEqual([]);
  });

  it.each([
    ['running', false],
    ['paused', true],
  ])('with the simulator (%s), an order that fell due meets fresh quotes around the reference, not a trader\'s far-off ask', async (_, paused) => {
    const dir = mkdtempSync(join(tmpdir(), 'nova-timed-restart-'));
    dirs.push(dir);
    let venue = await openVenue(dir, true);
    const market = venue.exchange.markets.get('BTC-VND');
    if (market === undefined) throw new Error('no BTC-VND');
    const storedReference = (): number | undefined => {
      const stored = venue.store.getMeta(SIM_REFERENCES_META_KEY);
      return stored === undefined ? undefined : Number((JSON.parse(stored) as Record<string, string>)['BTC-VND']);
    };
    await eventually(() => market.book.bestAsk(), 'a simulated ask');
    const reference = await eventually(storedReference, 'the stored references');
    const [seller, buyer] = await venue.run(() =>
      [0, 1].map(() => {
        const user = venue.exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
        venue.exchange.deposit(user.id, 'BTC', 10n ** 12n);
        venue.exchange.deposit(user.id, 'VND', 10n ** 18n);
        return user.id;
      }),
    );
    // The one ask that outlives the run: a trader's, 10 % over the market.
    const farAsk = Math.round((reference * 1.1) / 10_000) * 10_000;
    await place(venue, seller as string, { side: 'SELL', limit_price: String(farAsk), base_size: '0.05' });
    const buy = await place(venue, buyer as string, { type: 'MARKET', side: 'BUY', limit_price: '0', base_size: '0.001', time_in_force: 'IOC', scheduled_at: String(clock + SECOND) });
    if (paused) await pauseSimulator(venue);
    await closeVenue(venue);

    clock += 5n * SECOND;
    venue = await openVenue(dir, true);
    // What the restarted simulator quotes around (a step may have moved it a little since the order was placed).
    const restartedAt = storedReference() ?? reference;
    expect(statusOf(venue, buyer as string, buy)).toBe('DONE FILLED');
    const trades = venue.store.tradesOfOrders([buy]);
    expect(trades.length).toBeGreaterThan(0);
    for (const trade of trades) expect(Math.abs(Number(trade.price) / restartedAt - 1)).toBeLessThan(0.01);
    // And the market is there from the start, before the simulator's first step as after it.
    const restarted = venue.exchange.markets.get('BTC-VND');
    const bestAsk = restarted?.book.bestAsk();
    expect(bestAsk).toBeDefined();
    expect(Math.abs(Number(restarted?.price(bestAsk ?? 0)) / restartedAt - 1)).toBeLessThan(0.01);
  });

  it('spreads what a TWAP has left over what is left of its window, not in a burst of missed slices', async () => {
    const fresh = await freshVenue();
    const { dir, maker, taker } = fresh;
    let { venue } = fresh;
    await place(venue, taker, { side: 'BUY', limit_price: String(PRICE), base_size: '1' });
    const start = clock;
    const twap = await place(venue, maker, { type: 'TWAP', side: 'SELL', limit_price: '0', base_size: '0.02', expired_at: String(start + 20n * SECOND) });
    for (let s = 1n; s <= 2n; s++) {
      clock = start + s * SECOND;
      await venue.run(() => venue.exchange.tick());
    }
    const slicesBefore = venue.store.tradesOfOrders([twap]).length;
    expect(slicesBefore).toBe(3);
    await closeVenue(venue);

    // Down for six seconds: 12 of 20 seconds are left for 17 of 20 slices' worth.
    clock = start + 8n * SECOND;
    venue = await openVenue(dir);
    const events: OrderEvent[] = [];
    venue.exchange.onOrderEvent((event) => void (event.row.orderId === twap && events.push(event)));
    for (let i = 0; i < 3; i++) await venue.run(() => venue.exchange.tick());
    expect(venue.store.tradesOfOrders([twap]).length).toBe(slicesBefore + 1);

    // Then a slice a second until the whole size is sold as the window ends, each slice reported once (the
    // last as filled); the one made at the start came before the listener.
    for (let s = 9n; s <= 20n; s++) {
      clock = start + s * SECOND;
      await venue.run(() => venue.exchange.tick());
    }
    const trades = venue.store.tradesOfOrders([twap]);
    expect(trades.length).toBe(slicesBefore + 12);
    expect(events.length).toBe(11);
    expect(new Set(events.map((e) => `${e.row.filledBaseSize} ${e.row.status}`)).size).toBe(events.length);
    expect(statusOf(venue, maker, twap)).toBe('DONE FILLED');
    expect(venue.store.orderById(maker, twap)?.filledBaseSize).toBe('0.02');
  });
});
