// The pieces the simulated market is built from: the seeded random stream, the reference price's walk and the
// makers' ladder.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { productRules } from '../../../src-shared/protocol/product-rules';
import { idealGrid, ladderSizes, levelPrice, settleGrid, tradableLots } from '../../../src-main/venue/sim/quote-ladder';
import { SeededRandom } from '../../../src-shared/seeded-random';
import { ReferencePrice } from '../../../src-main/venue/sim/reference-price';

describe('SeededRandom', () => {
  it('gives the same stream for the same seed, and stays in range', () => {
    const a = new SeededRandom(42);
    const b = new SeededRandom(42);
    const drawn = Array.from({ length: 1000 }, () => a.next());
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(drawn);
    for (const x of drawn) expect(x >= 0 && x < 1).toBe(true);
    const r = new SeededRandom(7);
    for (let i = 0; i < 1000; i++) {
      const n = r.int(3, 9);
      expect(Number.isInteger(n) && n >= 3 && n <= 9).toBe(true);
      expect(r.poisson(2, 5)).toBeLessThanOrEqual(5);
    }
  });

  it('draws Poisson counts with about the asked mean', () => {
    const r = new SeededRandom(1);
    let total = 0;
    for (let i = 0; i < 20_000; i++) total += r.poisson(0.2, 50);
    expect(total / 20_000).toBeGreaterThan(0.18);
    expect(total / 20_000).toBeLessThan(0.22);
  });
});

describe('ReferencePrice', () => {
  it('does not move without volatility and stays within its bounds with it', () => {
    const still = new ReferencePrice(40_000, 1000, 80_000);
    for (let i = 0; i < 100; i++) still.walk(0, 0.1, 2.5);
    expect(still.ticks).toBe(40_000);
    const wild = new ReferencePrice(40_000, 1000, 80_000);
    const r = new SeededRandom(9);
    for (let i = 0; i < 10_000; i++) {
      wild.walk(10, 3600, r.gaussian());
      expect(wild.ticks >= 1000 && wild.ticks <= 80_000).toBe(true);
    }
    wild.set(1);
    expect(wild.ticks).toBe(1000);
  });
});

describe('quote ladder', () => {
  it('puts every bid below and every ask above the reference by at least the half spread, on the grid', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 5_000_000 }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 9 }),
        (reference, volatility, offsetPercent, level) => {
          const grid = idealGrid(reference, volatility);
          const offset = Math.floor((grid.step * offsetPercent) / 100);
          const bid = levelPrice('BUY', reference, grid, offset, level, 10_000_000);
          const ask = levelPrice('SELL', reference, grid, offset, level, 10_000_000);
          if (bid !== undefined) {
            expect(bid).toBeLessThanOrEqual(reference - grid.halfSpread);
            expect((((bid - offset) % grid.step) + grid.step) % grid.step).toBe(0);
          }
          expect(ask).toBeDefined();
          expect(ask as number).toBeGreaterThanOrEqual(reference + grid.halfSpread);
          expect(((ask as number) - offset) % grid.step).toBe(0);
          // The best level is the nearest grid line past the half spread.
          if (level === 0) expect((ask as number) - (reference + grid.halfSpread)).toBeLessThan(grid.step);
        },
      ),
    );
  });

  it('widens the spread and the gaps with volatility, and keeps a grid that is close enough', () => {
    const calm = idealGrid(250_000, 0.2);
    const wild = idealGrid(250_000, 5);
    expect(wild.halfSpread).toBeGreaterThan(calm.halfSpread * 5);
    expect(wild.step).toBeGreaterThan(calm.step);
    expect(settleGrid(calm, idealGrid(251_000, 0.2))).toBe(calm);
    expect(settleGrid(calm, wild)).toBe(wild);
  });

  it('thins each level away from the mid and keeps sizes tradable', () => {
    const sizes = ladderSizes(400, 10);
    expect(sizes).toHaveLength(10);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThan(sizes[i - 1] as number);
    const sol = productRules('SOL-VND');
    if (sol === undefined) throw new Error('no SOL-VND');
    // 1 lot at 1000 ticks is 1000 VND, under the 10000 VND minimum notional: raised to 10 lots.
    expect(tradableLots(sol, 1000, 1)).toBe(10);
    expect(tradableLots(sol, 40_000, 0)).toBe(sol.minLots);
    expect(tradableLots(sol, 40_000, sol.maxLots + 5)).toBe(sol.maxLots);
  });
});
