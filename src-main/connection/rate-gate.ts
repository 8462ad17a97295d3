/**
 * The client's side of the venue's rate limits. After a refusal (HTTP 429, E0501 for requests, E0503 for
 * orders) nothing that spends that budget is sent before Retry-After has passed (plus a little jitter, so
 * several clients do not return together). For one more Retry-After period after reopening, requests go one
 * at a time, so a queue of waiting calls does not burst into the venue and earn the next refusal at once.
 */
import { sleep } from './backoff';

/** `requests` is every authenticated call (E0501); `orders` is order placement on top of it (E0503). */
export type RateBudget = 'requests' | 'orders';

export interface RateGateOptions {
  /** Upper bound of the random delay added to each Retry-After. */
  readonly jitterMs?: number;
  readonly random?: () => number;
}

export class RateGate {
  private readonly reopensAt = new Map<RateBudget, number>();
  private cautiousUntil = 0;
  /** Set while a request holds the gate in its one-at-a-time period. */
  private holder: Promise<void> | undefined;
  private readonly jitterMs: number;
  private readonly random: () => number;

  constructor(options: RateGateOptions = {}) {
    this.jitterMs = options.jitterMs ?? 250;
    this.random = options.random ?? Math.random;
  }

  /** Milliseconds until every budget in `budgets` may be spent again; 0 when open. */
  closedFor(budgets: readonly RateBudget[]): number {
    const now = Date.now();
    let wait = 0;
    for (const budget of budgets) wait = Math.max(wait, (this.reopensAt.get(budget) ?? 0) - now);
    return wait;
  }

  /** Resolves when a request spending `budgets` may be sent; call the result once its answer has arrived. */
  async admit(budgets: readonly RateBudget[]): Promise<() => void> {
    for (;;) {
      const wait = this.closedFor(budgets);
      if (wait > 0) {
        await sleep(wait);
        continue;
      }
      if (Date.now() >= this.cautiousUntil) return () => undefined;
      if (this.holder !== undefined) {
        await this.holder;
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
    const reopen = Date.now() + retryAfterMs + Math.floor(this.random() * this.jitterMs);
    this.reopensAt.set(budget, Math.max(this.reopensAt.get(budget) ?? 0, reopen));
    this.cautiousUntil = Math.max(this.cautiousUntil, reopen + retryAfterMs);
  }
}
