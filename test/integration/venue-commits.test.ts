// How Venue.run groups commands into commits: the commands of one turn of the event loop together, and a long
// burst in slices, so the first orders of a burst are made durable while the rest are still being matched.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../src-shared/protocol/orders';
import { Venue } from '../../src-main/venue/venue';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function openVenue(commitEvery?: number): Promise<{ venue: Venue; trader: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'nova-venue-commits-'));
  const venue = await Venue.open({ dataDir: dir, ...(commitEvery === undefined ? {} : { commitEvery }) });
  cleanups.push(async () => {
    await venue.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const trader = await venue.run(() => {
    const user = venue.exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
    venue.exchange.deposit(user.id, 'VND', 10n ** 15n);
    return user.id;
  });
  return { venue, trader };
}

function bid(venue: Venue, i: number) {
  const request = parseCreateOrder({ product_id: 'BTC-VND', side: 'BUY', limit_price: String((200_000 + i) * 10_000), base_size: '0.0001' }, { now: venue.now() });
  if (request instanceof ApiError) throw request;
  return request;
}

/** Places `count` orders in one turn and returns how many distinct orders each commit carried, in commit order. */
async function burst(venue: Venue, trader: string, count: number): Promise<number[]> {
  const perCommit: number[] = [];
  const stop = venue.onCommitted((batch) => perCommit.push(new Set(batch.orders.map((e) => e.row.orderId)).size));
  const placed = Array.from({ length: count }, (_, i) => venue.run(() => venue.exchange.place(trader, bid(venue, i))));
  const orders = await Promise.all(placed);
  stop();
  expect(new Set(orders.map((o) => o.submitted.orderId)).size).toBe(count);
  return perCommit;
}

describe('Venue.run commits', () => {
  it('commits a turn that runs fewer commands than commitEvery once, at its end', async () => {
    const { venue, trader } = await openVenue(10);
    expect(await burst(venue, trader, 7)).toEqual([7]);
  });

  it('hands a long burst over every commitEvery commands, in order, and every caller hears of its own commit', async () => {
    const { venue, trader } = await openVenue(10);
    const before = venue.store.stats().batches;
    expect(await burst(venue, trader, 35)).toEqual([10, 10, 10, 5]);
    expect(venue.store.stats().batches - before).toBe(4);
    // Each slice is durable and the restart-relevant state agrees: every order rests.
    expect(venue.store.load().openOrders).toHaveLength(35);
  });

  it('refuses a commitEvery that is not a positive integer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nova-venue-commits-'));
    cleanups.push(() => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    });
    await expect(Venue.open({ dataDir: dir, commitEvery: 0 })).rejects.toThrow('commitEvery must be a positive integer');
  });
});

describe('the book sequence', () => {
  it('is taken by a turn’s first book change, so the book read before the turn is published already carries the number of its update', async () => {
    const { venue, trader } = await openVenue();
    const market = venue.exchange.markets.get('BTC-VND');
    if (market === undefined) throw new Error('no BTC-VND');
    const updates: { sequence: number; changes: number }[] = [];
    const unwatch = venue.watchBook('BTC-VND');
    const stop = venue.onCommitted((batch) => updates.push(...batch.books.map((b) => ({ sequence: b.sequence, changes: b.changes.length }))));
    const before = market.sequence;

    // Read in the same turn as the change, as a REST request handled before the turn ends would.
    let readMidTurn = -1;
    await venue.run(() => {
      venue.exchange.place(trader, bid(venue, 1));
      readMidTurn = market.sequence;
    });
    expect(readMidTurn).toBe(before + 1);
    expect(updates).toEqual([{ sequence: before + 1, changes: 1 }]);

    // Changes that cancel out within a turn still take a number and publish it (empty), so a client sees no gap.
    await venue.run(() => {
      const placed = venue.exchange.place(trader, bid(venue, 2));
      venue.exchange.cancel(trader, { orderId: placed.processed.row.orderId });
    });
    expect(updates).toEqual([
      { sequence: before + 1, changes: 1 },
      { sequence: before + 2, changes: 0 },
    ]);
    stop();
    unwatch();
  });
});
