/**
 * A product's reference price: the "fair value" the simulated makers quote around. It follows a geometric random
 * walk whose size is set by an annualised volatility, as traders quote it (0.8 = 80 % a year), and whose log has
 * no drift: a move up by some factor is as likely as the move down by it, so the price a trader typically sees
 * stays where it started however long the market runs.
 *
 * The walk needs fractions of a tick to accumulate (a calm SOL market moves a fifth of a tick per step), so the
 * level is kept as a whole number of millionths of a tick. The Gaussian noise is floating point, but it only
 * decides where the level goes: every price the simulator quotes is whole ticks.
 */
const MICRO = 1_000_000;
const SECONDS_PER_YEAR = 365 * 24 * 60 * 60;
/** The highest reference whose millionths of a tick are still a safe integer. */
export const MAX_REFERENCE_TICKS = Math.floor(Number.MAX_SAFE_INTEGER / MICRO);

export class ReferencePrice {
  private micro: number;

  /** `minTicks` and `maxTicks` bound the walk; both must leave room for a quote ladder on either side. */
  constructor(
    ticks: number,
    readonly minTicks: number,
    readonly maxTicks: number,
  ) {
    if (!(minTicks >= 1 && maxTicks >= minTicks && maxTicks <= MAX_REFERENCE_TICKS)) {
      throw new RangeError(`reference price bounds ${minTicks}..${maxTicks} ticks are unusable`);
    }
    this.micro = this.clamp(ticks * MICRO);
  }

  get ticks(): number {
    return Math.round(this.micro / MICRO);
  }

  set(ticks: number): void {
    this.micro = this.clamp(ticks * MICRO);
  }

  /**
   * One step of `seconds` with standard normal `z`. No -σ²/2 term: it held the expected price but pulled the
   * typical one down by e^(-σ²t/2), and at volatility 10 a few hours at speed 100 took most markets to the floor.
   */
  walk(volatility: number, seconds: number, z: number): void {
    const sigma = volatility * Math.sqrt(seconds / SECONDS_PER_YEAR);
    this.micro = this.clamp(Math.round(this.micro * Math.exp(sigma * z)));
  }

  private clamp(micro: number): number {
    return Math.min(this.maxTicks * MICRO, Math.max(this.minTicks * MICRO, micro));
  }
}
