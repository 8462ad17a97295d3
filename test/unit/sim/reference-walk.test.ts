// The reference price's random walk: how far it goes for a given volatility, on its own and as the simulator
// drives it, and that the seed alone decides the path.
import { afterEach, describe, expect, it } from 'vitest';
import { PRODUCTS } from '../../../src-shared/protocol/products';
import { SeededRandom } from '../../../src-shared/seeded-random';
import { ReferencePrice } from '../../../src-main/venue/sim/reference-price';
import { openSimulatedVenue, type SimulatedVenue } from './sim-harness';

const SECONDS_PER_YEAR = 365 * 24 * 60 * 60;

const open: SimulatedVenue[] = [];

async function simulated(options: Parameters<typeof openSimulatedVenue>[0]): Promise<SimulatedVenue> {
  const venue = await openSimulatedVenue(options);
  open.push(venue);
  return venue;
}

afterEach(async () => {
  for (const v of open.splice(0)) await v.close();
});

function standardDeviation(xs: readonly number[]): number {
  const mean = xs.reduce((sum, x) => sum + x, 0) / xs.length;
  return Math.sqrt(xs.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (xs.length - 1));
}

/** Every product's reference price, as numbers (VND prices are far below 2^53). */
function references(v: SimulatedVenue): number[] {
  return v.sim.status().products.map((p) => Number(p.reference_price));
}

/** A minute of 100 ms steps from 250,000 ticks (BTC-VND's start), drawing the noise from `seed`. */
function minuteWalk(volatility: number, seed: number): number[] {
  const reference = new ReferencePrice(250_000, 1000, 5_000_000);
  const r = new SeededRandom(seed);
  const path: number[] = [];
  for (let i = 0; i < 600; i++) {
    reference.walk(volatility, 0.1, r.gaussian());
    path.push(reference.ticks);
  }
  return path;
}

describe('ReferencePrice.walk', () => {
  it('moves a minute by about 0.14 % at volatility 1, and in proportion to the volatility', () => {
    // The same 400 noise streams at every volatility, so the comparison sees the volatility and not the luck of
    // different draws.
    const spread = (volatility: number): number =>
      standardDeviation(Array.from({ length: 400 }, (_, seed) => Math.log((minuteWalk(volatility, seed + 1).at(-1) as number) / 250_000)));
    const half = spread(0.5);
    const one = spread(1);
    const two = spread(2);
    // docs/simulator.md: annualised, "1 means 100 % a year, so about 0.14 % in a minute".
    expect(Math.sqrt(60 / SECONDS_PER_YEAR)).toBeCloseTo(0.0014, 4);
    expect(one).toBeGreaterThan(0.0011);
    expect(one).toBeLessThan(0.0017);
    expect(two / half).toBeGreaterThan(3);
    expect(two / half).toBeLessThan(5.3);
  });

  it('walks the same path for the same seed and another for another seed', () => {
    const path = minuteWalk(1, 7);
    expect(new Set(path).size).toBeGreaterThan(100);
    expect(minuteWalk(1, 7)).toEqual(path);
    // Two walks can meet now and then (seeds 7 and 8 end on the same tick), but not run together.
    const other = minuteWalk(1, 8);
    expect(other.filter((ticks, i) => ticks !== path[i]).length).toBeGreaterThan(500);
  });
});

describe('the simulated reference price', () => {
  it("walks every product's reference from the seed: the same path for the same seed, another for another", async () => {
    const a = await simulated({ seed: 41 });
    const b = await simulated({ seed: 41 });
    const c = await simulated({ seed: 42 });
    const start = references(a);
    const paths = new Map<SimulatedVenue, number[][]>([
      [a, []],
      [b, []],
      [c, []],
    ]);
    for (const [v, path] of paths) await v.run(80, 100, () => path.push(references(v)));

    const pathA = paths.get(a) as number[][];
    expect(paths.get(b)).toEqual(pathA);
    PRODUCTS.forEach((spec, i) => {
      const walked = pathA.map((refs) => refs[i] as number);
      // A walk may come back to where it started (SOL-VND does here), so count the prices it visited.
      expect(new Set([start[i], ...walked]).size, `${spec.id} reference values`).toBeGreaterThan(10);
      const otherSeed = (paths.get(c) as number[][]).map((refs) => refs[i] as number);
      expect(walked.filter((price, step) => price !== otherSeed[step]).length, `${spec.id}: seeds 41 and 42`).toBeGreaterThan(40);
    });
  });

  it('holds still at volatility 0 while the makers and takers keep trading', async () => {
    const v = await simulated({ seed: 41, volatility: 0 });
    const start = references(v);
    const seen: number[][] = [];
    await v.run(80, 100, () => seen.push(references(v)));
    expect(v.trades.length).toBeGreaterThan(0);
    for (const refs of seen) expect(refs).toEqual(start);
  });

  it('moves further each step at higher volatility, by the annualised amount', async () => {
    // Steps of one simulated second: a move of many ticks even at volatility 0.5, so rounding to ticks does not
    // blur the comparison.
    const v = await simulated({ seed: 13, volatility: 0.5 });
    const logMoves = async (steps: number): Promise<number[][]> => {
      const moves: number[][] = PRODUCTS.map(() => []);
      let last = references(v);
      await v.run(steps, 1_000, () => {
        const now = references(v);
        now.forEach((price, i) => moves[i]?.push(Math.log(price / (last[i] as number))));
        last = now;
      });
      return moves;
    };
    const calm = await logMoves(200);
    await v.sim.setVolatility(2);
    const wild = await logMoves(200);
    expect(v.sim.status().errors).toBe(0);

    // SOL-VND moves only a few ticks a second at volatility 0.5: its rounding would blur the ratio.
    for (const productId of ['BTC-VND', 'ETH-VND']) {
      const i = PRODUCTS.findIndex((spec) => spec.id === productId);
      const calmSd = standardDeviation(calm[i] as number[]);
      const wildSd = standardDeviation(wild[i] as number[]);
      expect(wildSd / calmSd, productId).toBeGreaterThan(3);
      expect(wildSd / calmSd, productId).toBeLessThan(5.3);
      // Volatility 2 is 200 % a year: 2 × √(1 s / a year) per one-second step.
      const expected = 2 * Math.sqrt(1 / SECONDS_PER_YEAR);
      expect(wildSd / expected, productId).toBeGreaterThan(0.8);
      expect(wildSd / expected, productId).toBeLessThan(1.2);
    }
  });
});

describe('a long walk at high volatility', () => {
  it('has no direction: about as many paths end above where they started as below, and most stay off the floor', () => {
    // 1,000 simulated hours at volatility 10: ten real hours at speed 100, the most the controls allow. With the
    // -σ²/2 term in each step the expected price held but the typical one fell by e^-5.7: 19 paths in 20 ended
    // below the start, most of them on the floor of 1000 ticks (the simulator showed BTC-VND at 11,100,000 VND
    // and SOL-VND at 102,900, against 2,500,000,000 and 4,000,000).
    const start = 250_000;
    const ends: number[] = [];
    for (let seed = 1; seed <= 400; seed++) {
      const reference = new ReferencePrice(start, 1000, 5_000_000);
      const r = new SeededRandom(seed);
      for (let hour = 0; hour < 1000; hour++) reference.walk(10, 3600, r.gaussian());
      ends.push(reference.ticks);
    }
    const above = ends.filter((ticks) => ticks > start).length / ends.length;
    expect(above).toBeGreaterThan(0.4);
    expect(above).toBeLessThan(0.6);
    expect(ends.filter((ticks) => ticks === 1000).length / ends.length).toBeLessThan(0.2);
  });
});
