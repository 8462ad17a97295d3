import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StopBook } from '../../../src-main/venue/engine';
import type { Side, StopType } from '../../../src-main/venue/engine';

describe('StopBook', () => {
  it('fires a STOP_LOSS sell when the last trade falls to or below its trigger', () => {
    const stops = new StopBook();
    stops.add(1, 'SELL', 'STOP_LOSS', 95);
    expect(stops.triggered(96)).toEqual([]);
    expect(stops.triggered(95)).toEqual([1]);
  });

  it('fires a STOP_LOSS buy when the last trade rises to or above its trigger', () => {
    const stops = new StopBook();
    stops.add(1, 'BUY', 'STOP_LOSS', 105);
    expect(stops.triggered(104)).toEqual([]);
    expect(stops.triggered(105)).toEqual([1]);
  });

  it('fires a TAKE_PROFIT sell when the last trade rises to or above its trigger', () => {
    const stops = new StopBook();
    stops.add(1, 'SELL', 'TAKE_PROFIT', 105);
    expect(stops.triggered(104)).toEqual([]);
    expect(stops.triggered(106)).toEqual([1]);
  });

  it('fires a TAKE_PROFIT buy when the last trade falls to or below its trigger', () => {
    const stops = new StopBook();
    stops.add(1, 'BUY', 'TAKE_PROFIT', 95);
    expect(stops.triggered(96)).toEqual([]);
    expect(stops.triggered(90)).toEqual([1]);
  });

  it('fires the stops of both directions that the range of one sweep met, and none beyond it', () => {
    const stops = new StopBook();
    stops.add(1, 'SELL', 'STOP_LOSS', 95);
    stops.add(2, 'BUY', 'STOP_LOSS', 105);
    stops.add(3, 'SELL', 'STOP_LOSS', 93);
    stops.add(4, 'BUY', 'STOP_LOSS', 107);
    expect(stops.triggered(94, 106)).toEqual([1, 2]);
    expect(stops.size).toBe(2);
  });

  it('returns every stop met in arrival order and removes them', () => {
    const stops = new StopBook();
    stops.add(4, 'SELL', 'STOP_LOSS', 100);
    stops.add(7, 'BUY', 'STOP_LOSS', 90);
    stops.add(9, 'SELL', 'STOP_LOSS', 101);
    stops.add(12, 'BUY', 'STOP_LOSS', 120);
    stops.add(15, 'BUY', 'TAKE_PROFIT', 100);
    expect(stops.triggered(100)).toEqual([4, 7, 9, 15]);
    expect(stops.size).toBe(1);
    expect(stops.has(12)).toBe(true);
    expect(stops.triggered(100)).toEqual([]);
  });

  it('removes a waiting stop so it no longer fires, and says whether it found one', () => {
    const stops = new StopBook();
    stops.add(1, 'SELL', 'STOP_LOSS', 95);
    stops.add(2, 'SELL', 'STOP_LOSS', 95);
    expect(stops.remove(1)).toBe(true);
    expect(stops.remove(1)).toBe(false);
    expect(stops.triggered(90)).toEqual([2]);
  });

  it('refuses a seq that is already waiting and a trigger that is not a positive whole number', () => {
    const stops = new StopBook();
    stops.add(1, 'SELL', 'STOP_LOSS', 95);
    expect(() => stops.add(1, 'BUY', 'STOP_LOSS', 105)).toThrow(RangeError);
    expect(() => stops.add(2, 'BUY', 'STOP_LOSS', 0)).toThrow(RangeError);
    expect(() => stops.add(3, 'BUY', 'STOP_LOSS', 10.5)).toThrow(RangeError);
  });

  it('wouldTriggerNow tells a stop already met at arrival, and never before any trade', () => {
    const stops = new StopBook();
    expect(stops.wouldTriggerNow('SELL', 'STOP_LOSS', 95, 95)).toBe(true);
    expect(stops.wouldTriggerNow('SELL', 'STOP_LOSS', 95, 96)).toBe(false);
    expect(stops.wouldTriggerNow('BUY', 'STOP_LOSS', 105, 105)).toBe(true);
    expect(stops.wouldTriggerNow('BUY', 'STOP_LOSS', 105, 104)).toBe(false);
    expect(stops.wouldTriggerNow('SELL', 'TAKE_PROFIT', 105, 105)).toBe(true);
    expect(stops.wouldTriggerNow('BUY', 'TAKE_PROFIT', 95, 96)).toBe(false);
    expect(stops.wouldTriggerNow('BUY', 'TAKE_PROFIT', 95, undefined)).toBe(false);
  });

  it('agrees with a plain scan of the rules over random adds, removes and trades', () => {
    type Cmd =
      | { kind: 'add'; side: Side; stopType: StopType; trigger: number }
      | { kind: 'remove'; pick: number }
      | { kind: 'trade'; last: number };
    const cmd = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        side: fc.constantFrom<Side>('BUY', 'SELL'),
        stopType: fc.constantFrom<StopType>('STOP_LOSS', 'TAKE_PROFIT'),
        trigger: fc.integer({ min: 90, max: 110 }),
      }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(100) }),
      fc.record({ kind: fc.constant('trade' as const), last: fc.integer({ min: 88, max: 112 }) }),
    );
    fc.assert(
      fc.property(fc.array(cmd, { maxLength: 100, size: 'large' }), (cmds: Cmd[]) => {
        const stops = new StopBook();
        const naive: { seq: number; side: Side; stopType: StopType; trigger: number }[] = [];
        let seq = 0;
        for (const c of cmds) {
          if (c.kind === 'add') {
            seq += 1;
            stops.add(seq, c.side, c.stopType, c.trigger);
            naive.push({ seq, side: c.side, stopType: c.stopType, trigger: c.trigger });
          } else if (c.kind === 'remove') {
            const target = (c.pick % (seq + 1)) + 1;
            const at = naive.findIndex((s) => s.seq === target);
            if (at !== -1) naive.splice(at, 1);
            expect(stops.remove(target)).toBe(at !== -1);
          } else {
            const met = (s: (typeof naive)[number]): boolean =>
              (s.stopType === 'STOP_LOSS') === (s.side === 'SELL') ? c.last <= s.trigger : c.last >= s.trigger;
            const expected = naive.filter(met).map((s) => s.seq);
            for (const s of expected) naive.splice(naive.findIndex((n) => n.seq === s), 1);
            expect(stops.triggered(c.last)).toEqual(expected);
          }
          expect(stops.size).toBe(naive.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});
