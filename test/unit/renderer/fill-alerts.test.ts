/**
 * A fill is told in every window's notices bar, but the desktop notification and the tone come once: from the
 * workspace, not from each popped-out panel as well.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Fill } from '../../../src-shared/ipc/contract';
import { notifyFills } from '../../../src-renderer/stores/fill-alerts';
import { useDesk } from '../../../src-renderer/stores/desk-store';

const fill: Fill = {
  tradeId: 't1', orderId: 'o1', clientOrderId: 'c1', productId: 'BTC-VND', side: 'BUY', price: '2400000000', size: '0.001',
  liquidity: 'TAKER', feeAsset: 'BTC', feeAmount: '0.000002', time: '1',
};

let raised: string[];
let tones: number;

function windowAt(search: string): void {
  vi.stubGlobal('location', { search });
  vi.stubGlobal('localStorage', { getItem: () => 'on', setItem: () => undefined });
  vi.stubGlobal('Notification', Object.assign(function (this: unknown, title: string) { raised.push(title); }, { permission: 'granted' }));
  vi.stubGlobal('AudioContext', class {
    currentTime = 0;
    destination = {};
    createOscillator() { tones += 1; return { frequency: {}, connect: (n: unknown) => n, start: () => undefined, stop: () => undefined }; }
    createGain() { return { gain: {}, connect: (n: unknown) => n }; }
    close() { return Promise.resolve(); }
  });
}

beforeEach(() => {
  raised = [];
  tones = 0;
  useDesk.setState({ notices: [] });
});
afterEach(() => vi.unstubAllGlobals());

describe('a fill told to the trader', () => {
  it('in the browser workspace: a notice, a desktop notification and the tone', () => {
    windowAt('');
    notifyFills([fill]);
    expect(useDesk.getState().notices.map((n) => n.title)).toEqual(['Filled']);
    expect(raised).toEqual(['Nova Desk: filled']);
    expect(tones).toBe(1);
  });

  it('in a popped-out panel: the notice only, the workspace rings', () => {
    windowAt('?panel=fills&kind=fills');
    notifyFills([fill]);
    expect(useDesk.getState().notices.map((n) => n.title)).toEqual(['Filled']);
    expect(raised).toEqual([]);
    expect(tones).toBe(0);
  });

  it('names the environment in the desktop notification, Production unmistakably', () => {
    windowAt('');
    useDesk.setState({ connection: { environment: 'production', production: true, state: 'live', apiKey: 'k', detail: '' } });
    notifyFills([fill]);
    useDesk.setState({ connection: { environment: 'local', production: false, state: 'live', apiKey: 'k', detail: '' } });
    notifyFills([fill]);
    useDesk.setState({ connection: undefined });
    expect(raised).toEqual(['PRODUCTION (real money): filled', 'Local: filled']);
  });
});

describe('the window a fill is told in', () => {
  it('is worked out from its address once, not on every fill', () => {
    let reads = 0;
    vi.stubGlobal('URLSearchParams', class extends URLSearchParams {
      constructor(init?: string) {
        super(init);
        reads += 1;
      }
    });
    windowAt(`?panel=ticket&kind=ticket&ticket=${encodeURIComponent(JSON.stringify({ side: 'BUY', size: '0.1' }))}`);
    for (let i = 0; i < 5; i++) notifyFills([fill]);
    expect(raised).toEqual([]);
    expect(reads).toBeLessThanOrEqual(1);
  });
});
