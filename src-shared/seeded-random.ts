/**
 * The simulator's only source of chance. Every decision draws from one seeded stream in a fixed order, so the
 * same seed and the same steps give the same order flow on every machine (Math.random would not).
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1): mulberry32, small and fast, and plenty for simulated order flow. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Standard normal (Box-Muller; 1 - u keeps the logarithm away from 0). */
  gaussian(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** How many events of a Poisson process with this mean happen, at most `cap` (Knuth's method: means here are small). */
  poisson(mean: number, cap: number): number {
    if (mean <= 0) return 0;
    const limit = Math.exp(-mean);
    let count = 0;
    let product = this.next();
    while (product > limit && count < cap) {
      count += 1;
      product *= this.next();
    }
    return count;
  }
}
