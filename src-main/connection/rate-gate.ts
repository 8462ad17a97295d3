/**
 * The client's side of the venue's rate limits. After a refusal (HTTP 429, E0501 for requests, E0503 for
 * orders) nothing that spends that budget is sent before Retry-After has passed (plus a little jitter, so
 * several clients do not return together). For one more Retry-After period after reopening, requests go one
 * at a time, so a queue of waiting calls does not burst into the venue and earn the next refusal at once.
 */
import { withinTime } from '../../src-shared/time-limit';
import { sleep } from './backoff';

/** `requests` is every authenticated call (E0501); `orders` is order placement on top of it (E0503). */
export type RateBudget = 'requests' | 'orders';

export interface RateGateOptions {
  /** Upper bound of the random delay added to each Retry-After. */
  readonly jitterMs?: number;
  readonly random?: () => number;
  /** Epoch ms; `latest` of admit() is on this clock. */
  readonly now?: () => number;
}

/** A request that may not wait as long as the rate gate stays closed: `budget` reopens in `waitMs`. */
export class RateWaitTooLong extends Error {
  override readonly name = 'RateWaitTooLong';
  constructor(
    readonly budget: RateBudget,
    readonly waitMs: number,
  ) {
    super(`the ${budget} budget reopens in ${waitMs} ms`);
  }
}

export class RateGate {
  private readonly reopensAt = new Map<RateBudget, number>();
  private cautiousUntil = 0;
  /** Set while a request holds the gate in its one-at-a-time period. */
  private holder: Promise<void> | undefined;
  private readonly jitterMs: number;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(options: RateGateOptions = {}) {
    this.jitterMs = options.jitterMs ?? 250;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  /** The budget of `budgets` that reopens last, and in how many milliseconds; undefined when all are open. */
  closedLongest(budgets: readonly RateBudget[]): { budget: RateBudget; waitMs: number } | undefined {
    const now = this.now();
    let longest: { budget: RateBudget; waitMs: number } | undefined;
    for (const budget of budgets) {
      const waitMs = (this.reopensAt.get(budget) ?? 0) - now;
      if (waitMs > 0 && (longest === undefined || waitMs > longest.waitMs)) longest = { budget, waitMs };
    }
    return longest;
  }

  /**
   * Resolves when a request spending `budgets` may be sent; call the result once its answer has arrived. No wait
   * goes past `latest` (epoch ms), for Retry-After or for the request ahead in the cautious period after one:
   * RateWaitTooLong is thrown instead. Every request has one (the rest client gives its own or rateWaitMs).
   */
  async admit(budgets: readonly RateBudget[], latest: number): Promise<() => void> {
    for (;;) {
      const closed = this.closedLongest(budgets);
      if (closed !== undefined) {
        if (this.now() + closed.waitMs > latest) throw new RateWaitTooLong(closed.budget, closed.waitMs);
        // Retry-After is at most an hour (parseRetryAfter), well inside what a timer holds.
        await sleep(closed.waitMs);
        continue;
      }
      if (this.now() >= this.cautiousUntil) return () => undefined;
      if (this.holder !== undefined) {
        // Behind a request whose answer may be slow: bounded too, or an order held here went out long after `latest`.
        const left = latest - this.now();
        if (!(left > 0 && (await withinTime(this.holder, left)) === 'done')) {
          throw new RateWaitTooLong(budgets[0] ?? 'requests', Math.max(0, this.cautiousUntil - this.now()));
        }
        continue;
      }
      let release: () => void = () => undefined;
      this.holder = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        this.holder = undefined;
        release();
      };
    }
  }

  /** The venue refused a request for rate: close the budget for `retryAfterMs`. */
  refused(budget: RateBudget, retryAfterMs: number): void {
    const reopen = this.now() + retryAfterMs + Math.floor(this.random() * this.jitterMs);
    this.reopensAt.set(budget, Math.max(this.reopensAt.get(budget) ?? 0, reopen));
    this.cautiousUntil = Math.max(this.cautiousUntil, reopen + retryAfterMs);
  }
}
