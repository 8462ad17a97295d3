// A fill alert asked for on one environment must not be spent on the next one's fills: after a switch the window
// reads the new account's fills afresh, and every one of them is new to it, its whole history included. The bridge
// is scripted: each environment's fills are a list, and a read of them can be held.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, EnvironmentId, Fill } from '../../../src-shared/ipc/contract';
import { readOn, restingOrder, scriptedWindow, toldEvents } from './fixtures';

const status = (environment: EnvironmentId, state: ConnectionStatus['state'] = 'live'): ConnectionStatus =>
  ({ environment, production: environment === 'production', state, apiKey: `k-${environment}`, readOnly: false, detail: '' });
const fill = (id: string): Fill => ({
  tradeId: id, orderId: `o-${id}`, clientOrderId: '', productId: 'BTC-VND', side: 'BUY', price: '2400000000', size: '0.001',
  liquidity: 'TAKER', feeAsset: 'BTC', feeAmount: '0.000002', time: '1',
});

let on: EnvironmentId = 'local';
const fills: Record<EnvironmentId, Fill[]> = { local: [fill('a1')], development: [fill('b1'), fill('b2'), fill('b3')], production: [] };
/** While set, a fills read waits for it, and answers with the fills of the environment the desk was on when asked. */
let held: Promise<void> | undefined;

beforeAll(() => {
  scriptedWindow({
    'orders.active': () => [],
    'orders.history': () => [],
    'account.get': () => ({ balances: [] }),
    'connection.status': () => status(on),
    'orders.fills': async () => {
      const environment = on;
      const answer = fills[on];
      await held;
      return readOn({ environment }, answer);
    },
  });
  vi.stubGlobal('location', { search: '' });
  vi.stubGlobal('localStorage', { getItem: () => 'off', setItem: () => undefined });
});

afterAll(() => vi.unstubAllGlobals());

describe('a fill alert across a switch of environment', () => {
  it('does not tell the new environment\'s past fills as fills just made', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { startFeed } = await import('../../../src-renderer/stores/feed');
    const { subscribe, tell } = toldEvents();
    const filled = (): number => useDesk.getState().notices.filter((n) => n.title === 'Filled').length;
    useDesk.getState().setConnection(status('local', 'reconnecting'));
    const stop = startFeed(subscribe);
    try {
      // Live on Local: its fills are read, none told.
      tell('connection.changed', status('local'));
      await vi.waitFor(() => expect(useDesk.getState().fills.map((f) => f.tradeId)).toEqual(['a1']));
      expect(filled()).toBe(0);

      // Two of Local's orders fill: the first read is on its way, the second asks for one more after it.
      let release = (): void => undefined;
      held = new Promise<void>((done) => (release = done));
      fills.local = [fill('a2'), fill('a1')];
      const traded = [restingOrder('o-a2', { trades: [{ trade_id: 'a2' }] as never })];
      tell('orders.changed', traded);
      tell('orders.changed', traded);
      // Meanwhile the desk switches to Development, whose account has filled before.
      on = 'development';
      tell('connection.changed', status('development'));
      held = undefined;
      release();
      // The read that brought Development's fills is the one that would have told them, as they were taken.
      await vi.waitFor(() => expect(useDesk.getState().fills.map((f) => f.tradeId)).toEqual(['b1', 'b2', 'b3']));
      expect(useDesk.getState().notices.filter((n) => n.title === 'Filled').map((n) => n.detail)).toEqual([]);

      // A fill made on Development now is told.
      fills.development = [fill('b4'), ...fills.development];
      tell('orders.changed', [restingOrder('o-b4', { trades: [{ trade_id: 'b4' }] as never })]);
      await vi.waitFor(() => expect(filled()).toBe(1));
      expect(useDesk.getState().notices.find((n) => n.title === 'Filled')?.detail).toMatch(/^BUY 0\.001 BTC-VND/);
    } finally {
      stop();
    }
  });
});
