/**
 * Waiting between attempts. Reconnects and retries use exponential backoff with full jitter (a random delay
 * between 0 and the capped exponential), so that many desks dropped by the same venue restart do not all
 * come back in the same millisecond.
 */

export interface BackoffPolicy {
  /** The cap of the first delay. */
  readonly initialMs: number;
  /** The largest delay. */
  readonly maxMs: number;
}

/** `attempt` counts from 0. */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * cap);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
