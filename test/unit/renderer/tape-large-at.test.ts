/**
 * The tape's "Large at" box: 0 or a negative size marked every trade large with nothing said (review-2 s20). Such a
 * threshold is refused with a hint, and marks none.
 */
import { describe, expect, it } from 'vitest';
import { isLargeTrade, largeThreshold } from '../../../src-renderer/features/tape/large-trade';

describe('the tape\'s large trade threshold', () => {
  it.each(['0', '-1', '0.000', '-0.5'])('refuses %s with a hint, and marks no trade large', (typed) => {
    const { threshold, problem } = largeThreshold(typed);
    expect(problem).toMatch(/^above 0/);
    expect(isLargeTrade('0.0001', threshold)).toBe(false);
  });

  it('says what to type for text that is not a size', () => {
    expect(largeThreshold('lots').problem).toBe('a size, such as 0.5');
  });

  it('takes a size above 0, and an empty box (no marks) without a word', () => {
    expect(largeThreshold(' 0.5 ')).toEqual({ threshold: '0.5' });
    expect(isLargeTrade('0.5', largeThreshold('0.5').threshold)).toBe(true);
    expect(isLargeTrade('0.4', largeThreshold('0.5').threshold)).toBe(false);
    expect(largeThreshold('')).toEqual({ threshold: '' });
  });

  it('takes a size grouped as the desk writes it', () => {
    expect(largeThreshold('1\u202f000')).toEqual({ threshold: '1000' });
    expect(largeThreshold('1 000')).toEqual({ threshold: '1000' });
  });

  it.each(['0 001', '0 100', '000 100'])('does not take %s, which is not grouping, as a size', (typed) => {
    // Read as 1 and 100 before: a trader who slipped a space in set a threshold they never typed.
    expect(largeThreshold(typed)).toEqual({ threshold: '', problem: 'a size, such as 0.5' });
  });
});
