// The simulator's reference prices go to the store's meta table when they have moved enough to matter, or now and
// then, not with every step: a restart still resumes within two basis points of where the market stood.
import { afterEach, expect, it } from 'vitest';
import { isReason, toUnits } from '../../../src-shared/protocol/decimal';
import { SIM_REFERENCES_META_KEY } from '../../../src-main/venue/sim/market-simulator';
import { openSimulatedVenue, type SimulatedVenue } from './sim-harness';

const open: SimulatedVenue[] = [];

afterEach(async () => {
  for (const v of open.splice(0)) await v.close();
});

/** Counts the commits that write the references, as the store is asked for them. */
function countReferenceWrites(v: SimulatedVenue): () => number {
  let writes = 0;
  const { store } = v.venue;
  const commit = store.commit.bind(store);
  store.commit = (changes, now) => {
    if (changes.meta?.[SIM_REFERENCES_META_KEY] !== undefined) writes += 1;
    return commit(changes, now);
  };
  return () => writes;
}

function ticksOf(v: SimulatedVenue): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of v.sim.status().products) {
    const market = v.venue.exchange.markets.get(p.product_id);
    if (market === undefined) throw new Error(`no market ${p.product_id}`);
    const ticks = toUnits(p.reference_price, market.rules.spec.priceIncrement);
    if (isReason(ticks)) throw new Error(ticks.reason);
    out.set(p.product_id, ticks);
  }
  return out;
}

it('a market standing still writes its references once; a moving one far fewer times than it steps', async () => {
  const still = await openSimulatedVenue({ seed: 6, volatility: 0 });
  open.push(still);
  const stillWrites = countReferenceWrites(still);
  await still.run(100);
  // The first step stores them (nothing was stored on a fresh folder); they never move after.
  expect(stillWrites()).toBe(1);

  const moving = await openSimulatedVenue({ seed: 6, volatility: 1 });
  open.push(moving);
  const movingWrites = countReferenceWrites(moving);
  await moving.run(200);
  expect(movingWrites()).toBeGreaterThan(1);
  expect(movingWrites()).toBeLessThan(100);
});

it('a restart resumes every product within two basis points of its reference, and one that never moved exactly', async () => {
  for (const volatility of [0, 1, 10]) {
    const first = await openSimulatedVenue({ seed: 9, volatility });
    await first.run(87);
    const before = ticksOf(first);
    await first.close({ keepData: true });
    const again = await openSimulatedVenue({ seed: 9, volatility }, first.dataDir);
    open.push(again);
    for (const [productId, ticks] of ticksOf(again)) {
      const was = before.get(productId) as number;
      if (volatility === 0) expect(ticks, productId).toBe(was);
      else expect(Math.abs(ticks - was) * 10_000, `${productId} at volatility ${volatility}: ${was} then ${ticks}`).toBeLessThanOrEqual(2 * was);
    }
  }
});
