// The simulated users' history is kept for keepHistoryMs (an hour by default), not for ever: at the default speed
// they place about 50 orders a second. Their finished orders older than that go as the simulator steps; their
// open orders, each product's newest trades and the orders those name, and whatever the trader's history refers
// to, stay.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { MarketSimulator } from '../../../src-main/venue/sim/market-simulator';
import type { OrderRow } from '../../../src-main/venue/store';
import { Venue } from '../../../src-main/venue/venue';

let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** The simulated users' done orders, once the deletions the steps asked for are done. */
async function doneOrders(venue: Venue, users: readonly string[]): Promise<OrderRow[]> {
  // A forget of nobody answers after every forget asked before it.
  await venue.store.forgetHistory({ users: [], products: [], before: 0n, keepTrades: 0 });
  return users.flatMap((user) => venue.store.archivedOrders(user, { limit: 1000, sort: 'created_at', status: 'DONE' }));
}

async function simulate(keepHistoryMs: number | undefined): Promise<{ venue: Venue; done: OrderRow[]; clock: bigint }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-sim-history-'));
  let clock = 1_700_000_000_000_000_000n;
  const venue = await Venue.open({ dataDir, now: () => clock });
  const sim = new MarketSimulator(venue, { seed: 3, ...(keepHistoryMs === undefined ? {} : { keepHistoryMs }) });
  const previous = cleanup;
  cleanup = async () => {
    await previous?.();
    await sim.stop();
    await venue.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  await sim.setup();
  // 40 s of simulated time on the venue's clock too.
  for (let i = 0; i < 400; i++) {
    clock += 100_000_000n;
    await sim.step(100);
  }
  expect(sim.status().errors).toBe(0);
  return { venue, done: await doneOrders(venue, sim.users().map((u) => u.userId)), clock };
}

it('kept 10 s: none older than that and a step interval is left, but those a kept trade names', async () => {
  const day = await simulate(undefined);
  const tenSeconds = await simulate(10_000);
  // The same seed: the same orders, of which an hour's keeping forgets none.
  expect(day.done.length).toBeGreaterThan(1000);
  expect(tenSeconds.done.length).toBeLessThan(day.done.length * 0.6);
  // What stays past 10 s (and the 5 s between two deletions) is named by a trade: one among its product's newest
  // 1,000, which a restart reads back as the tape, or one whose other order is still open (forget-history.test.ts).
  const { venue, clock } = tenSeconds;
  const old = tenSeconds.done.filter((o) => o.updatedAt < clock - 15_000_000_000n);
  expect(old.length).toBeLessThan(tenSeconds.done.length);
  for (const order of old) {
    expect(venue.store.tradesOfOrders([order.orderId]).length, `order ${order.orderId}, done ${(clock - order.updatedAt) / 1_000_000_000n} s ago`).toBeGreaterThan(0);
  }
  expect(venue.store.integrityCheck()).toBe('ok');
});
