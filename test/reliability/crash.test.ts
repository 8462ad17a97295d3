// The venue killed with SIGKILL under load, twenty times, and restarted on the same folder: nothing acknowledged
// is lost or doubled, a retried order never doubles, money is conserved and the books stay uncrossed.
// The long form is `npm run test:crash -- --cycles 200`.
import { describe, expect, it } from 'vitest';
import { runCrashCycles } from './crash-harness';

describe('crash recovery of the local venue', () => {
  it('survives 20 random SIGKILLs under REST and WebSocket load', async () => {
    const seed = Date.now() % 2 ** 31;
    const report = await runCrashCycles({ cycles: 20, seed });
    expect(report.failures, `seed ${seed}`).toEqual([]);
    expect(report.cycles).toHaveLength(20);
    expect(report.acknowledged).toBeGreaterThan(0);
  }, 120_000);
});
