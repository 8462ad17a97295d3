// A window opening on a busy account: each orders.changed carrying trades asks the fills again, and a request
// made while a fills read is out runs one more read after it. loadEverything waited for that whole run, and the
// feed starts only after it (main.tsx): on an account whose orders fill more often than a fills read takes (a
// market maker's quotes), the window never finished opening. It waits for one fills read begun after it asked.
// Scripted bridge, answering at once: every fills read but the last brings another fill while it is out.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';
import { readOn, restingOrder, scriptedWindow, toldEvents } from './fixtures';

const status: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k', userId: 'u', readOnly: false, detail: '' };
const session = { environment: 'local' as const, apiKey: 'k' };
/** Fills reads that each bring one more fill while they are out: as many as a busy account keeps a window opening. */
const BUSY_READS = 100;
let fillReads = 0;
const told = toldEvents();
const filled = restingOrder('mm-1', { trades: [{ id: 't', price: '1', size: '1', liquidity_indicator: 'MAKER', time: '1', fee_asset: 'VND', fee_amount: '0' }] });

beforeAll(() => {
  scriptedWindow({
    'connection.status': () => status,
    'market.products': () => [],
    'orders.active': () => readOn(session, []),
    'orders.history': () => readOn(session, []),
    'orders.fills': () => {
      fillReads += 1;
      if (fillReads < BUSY_READS) told.tell('orders.changed', [filled]);
      return readOn(session, []);
    },
    'account.get': () => readOn(session, { id: 'u', asset_balances: [] }),
    'market.watch': () => ({ productId: 'BTC-VND', sequence: 1, time: '1', source: 'rest', bids: [], asks: [] }),
    'market.candles': () => [],
    'market.trades': () => [],
  });
});
afterAll(() => vi.unstubAllGlobals());

describe('a window opening on an account whose orders keep filling', () => {
  it('opens after one fills read, not after every fills read the fills meanwhile asked for', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { loadEverything, listenWhileOpening } = await import('../../../src-renderer/stores/feed');
    useDesk.getState().setLayout({ ...useDesk.getState().layout, productId: 'BTC-VND', panels: [] });
    const stop = listenWhileOpening(told.subscribe);
    try {
      await loadEverything();
      // Its own read, and those the fills told began while its other reads were out: not the whole run.
      expect(fillReads).toBeLessThan(BUSY_READS / 10);
      // The fills asked for are still read, each burst once more.
      await vi.waitFor(() => expect(fillReads).toBe(BUSY_READS));
    } finally {
      stop();
    }
  });
});
