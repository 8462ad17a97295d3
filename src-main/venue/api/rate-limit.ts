import { ApiError } from '../../../src-shared/errors/api-error';
/**
 * Per-key rate limits (venue contract: --request-rate, --order-rate per second). A token bucket per key and
 * kind: a burst of up to one second's worth, refilled continuously. An exhausted bucket tells the caller how
 * many whole seconds to wait, for the Retry-After header.
 */
interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** `perSecond` 0 disables the limit. */
  constructor(private readonly perSecond: number) {}

  forget(key: string): void {
    this.buckets.delete(key);
  }

  /**
   * Undefined when allowed; otherwise the seconds to wait before a retry can succeed. A clock stepped back refills
   * nothing until it moves on: counted as negative time, it drained the bucket and locked the key out as long.
   */
  take(key: string, nowMs: number = Date.now()): number | undefined {
    if (this.perSecond <= 0) return undefined;
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: this.perSecond, at: nowMs };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + (Math.max(0, nowMs - bucket.at) / 1000) * this.perSecond);
    bucket.at = nowMs;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }

  /**
   * Runs `act`, for which a token was just taken, and gives the token back if `act` refuses with an ApiError: an
   * order the exchange will not place (a stop already met, a client order id in use, the open-order cap) takes
   * nothing from the order budget, as one refused by the parse does not. Any other error is a fault, not a
   * refusal, and what it did before it stays counted.
   */
  refundIfRefused<T>(key: string, act: () => T): T {
    try {
      return act();
    } catch (err) {
      const bucket = this.buckets.get(key);
      if (err instanceof ApiError && bucket !== undefined) bucket.tokens = Math.min(this.perSecond, bucket.tokens + 1);
      throw err;
    }
  }
}

/** A refusal for rate; the seconds go into the Retry-After header (interface 7.3). */
export class RateLimitError extends ApiError {
  constructor(
    ref: 'E0501_RateLimitExceeded' | 'E0503_OrderRateLimitExceeded',
    readonly retryAfterSeconds: number,
  ) {
    super(ref, `rate limit exceeded; retry in ${retryAfterSeconds} s`);
  }
}
