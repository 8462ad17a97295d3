import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src-main/venue/api/rate-limit';

describe('RateLimiter', () => {
  it('allows a second’s worth at once, then refuses with the whole seconds until the next one', () => {
    const limiter = new RateLimiter(2);
    expect([limiter.take('k', 0), limiter.take('k', 0)]).toEqual([undefined, undefined]);
    expect(limiter.take('k', 0)).toBe(1);
    expect(limiter.take('k', 500)).toBeUndefined();
    expect(limiter.take('other', 500)).toBeUndefined();
  });

  it('a clock stepped back refills nothing, and locks nobody out: the next step forward refills again', () => {
    const limiter = new RateLimiter(2);
    const at = 1_000_000;
    expect([limiter.take('k', at), limiter.take('k', at)]).toEqual([undefined, undefined]);
    const stepped = at - 600_000;
    expect(limiter.take('k', stepped)).toBe(1);
    expect(limiter.take('k', stepped + 1_000)).toBeUndefined();
  });
});
