// The rate gate's bound holds for both of its waits: for a closed budget's Retry-After, and in the cautious
// period after a refusal, where requests go one at a time, for the request ahead of it.
import { describe, expect, it } from 'vitest';
import { RateGate, RateWaitTooLong } from '../../../src-main/connection/rate-gate';

describe('a request with a bound on its wait', () => {
  it('is refused rather than held behind the request ahead of it in the cautious period', async () => {
    // The gate's own clock, so a busy machine cannot carry the test past the cautious period.
    let now = 1_000_000;
    const gate = new RateGate({ jitterMs: 0, random: () => 0, now: () => now });
    gate.refused('orders', 20);
    // Past the Retry-After, still cautious: the first request goes, and its answer never comes in this test.
    now += 30;
    const first = await gate.admit(['orders'], now + 60_000);
    const bounded = gate.admit(['orders'], now + 50);
    await expect(bounded).rejects.toBeInstanceOf(RateWaitTooLong);
    first();
    // With time enough, a request waits for the one ahead, then goes.
    const next = await gate.admit(['orders'], now + 60_000);
    next();
  });
});
