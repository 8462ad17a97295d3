import { describe, expect, it } from 'vitest';
import type { Settings } from '../../../src-shared/ipc/contract';
import { dispatchingBridge, type DispatchingBridge } from './dispatching-bridge';
import { limitsChange, limitsEdited, limitsRefusal, saveLimits } from '../../../src-renderer/features/environments/pre-trade-limits';

const SETTINGS: Settings = { preTrade: { maxDeviationPercent: '10', maxNotional: '' }, confirmOrders: { local: false, development: false, production: true } };

/** The bridge as a window meets it: the real dispatcher's parsing and refusal, a desk that applies the change. */
function bridge(): DispatchingBridge<'settings.update'> {
  let settings = structuredClone(SETTINGS);
  return dispatchingBridge('settings.update', (change) => {
    settings = { ...settings, preTrade: { ...settings.preTrade, ...change.preTrade } };
    return settings;
  });
}

describe('pre-trade limits', () => {
  it('sends the boxes that changed, trimmed, through settings.update, and takes the desk\'s settings back', async () => {
    const desk = bridge();
    const outcome = await saveLimits({ maxDeviationPercent: ' 2.5 ', maxNotional: '' }, SETTINGS.preTrade, desk.send);
    expect(desk.sent).toEqual([{ preTrade: { maxDeviationPercent: '2.5' } }]);
    expect(outcome).toEqual({ settings: { ...SETTINGS, preTrade: { maxDeviationPercent: '2.5', maxNotional: '' } } });
    expect(limitsChange({ maxDeviationPercent: '10', maxNotional: '50000000' }, SETTINGS.preTrade)).toEqual({ preTrade: { maxNotional: '50000000' } });
  });

  it('turns a check off with an empty box, and has nothing to save when nothing changed', async () => {
    const desk = bridge();
    expect(await saveLimits({ maxDeviationPercent: '', maxNotional: '' }, SETTINGS.preTrade, desk.send)).toMatchObject({ settings: { preTrade: { maxDeviationPercent: '' } } });
    expect(limitsEdited({ maxDeviationPercent: '10', maxNotional: ' ' }, SETTINGS.preTrade)).toBe(false);
    expect(limitsEdited({ maxDeviationPercent: '11', maxNotional: '' }, SETTINGS.preTrade)).toBe(true);
  });

  it('puts the bridge\'s refusal beside the box it is about, in its words', async () => {
    const desk = bridge();
    const zero = await saveLimits({ maxDeviationPercent: '10', maxNotional: '0' }, SETTINGS.preTrade, desk.send);
    expect(zero).toEqual({ errors: { maxNotional: 'must be above 0; leave it empty to turn the check off' }, ref: 'E0101_InvalidArgument' });
    const both = await saveLimits({ maxDeviationPercent: '5%', maxNotional: 'abc' }, SETTINGS.preTrade, desk.send);
    expect(both).toEqual({ errors: { maxDeviationPercent: 'must be a plain decimal like "0.5"', maxNotional: 'must be a plain decimal like "0.5"' }, ref: 'E0101_InvalidArgument' });
    expect(desk.sent).toEqual([]);
  });

  it('places a refusal by the field it names, not by its wording', () => {
    const reworded = 'E0101_InvalidArgument: the limits were not taken (1 problem)';
    expect(limitsRefusal(reworded, [{ path: 'preTrade.maxNotional', message: 'too big' }])).toEqual({ errors: { maxNotional: 'too big' } });
    expect(limitsRefusal(reworded, [{ path: '', message: 'expected an object' }])).toEqual({ errors: {}, other: 'the limits were not taken (1 problem)' });
  });

  it('keeps a refusal whole when some of it names no box, not only the part it could place', () => {
    const mixed = 'E0101_InvalidArgument: settings.update: preTrade.maxNotional: too big; confirmOrders.local: expected a boolean';
    expect(limitsRefusal(mixed, [{ path: 'preTrade.maxNotional', message: 'too big' }, { path: 'confirmOrders.local', message: 'expected a boolean' }])).toEqual({
      errors: { maxNotional: 'too big' },
      other: 'preTrade.maxNotional: too big; confirmOrders.local: expected a boolean',
    });
  });

  it('keeps a refusal that names no box whole', () => {
    expect(limitsRefusal('E0901_InternalError: settings.update: the desk file could not be written')).toEqual({ errors: {}, other: 'the desk file could not be written' });
  });
});
