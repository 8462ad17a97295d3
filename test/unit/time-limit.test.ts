import { expect, it } from 'vitest';
import { withinTime } from '../../src-shared/time-limit';

it('says done when the work settles in time, overran when it does not, and passes its failure on', async () => {
  expect(await withinTime(Promise.resolve(), 1_000)).toBe('done');
  expect(await withinTime(new Promise<void>(() => undefined), 1)).toBe('overran');
  await expect(withinTime(Promise.reject(new Error('disk full')), 1_000)).rejects.toThrow('disk full');
});
