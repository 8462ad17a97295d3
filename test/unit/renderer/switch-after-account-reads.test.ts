// A window opening: its reads of the account answered on Local, and the desk switches to Development while its
// market reads are still out, saying so (connection.changed) and telling the next account's balances and orders. No
// read is dropped, so loadEverything has nothing to notice; the window showed Local over Development's balances and
// both accounts' open orders until its status poll (2 s later). The feed acts on the switch told while it opened.
// Scripted bridge; the status poll never runs here (setInterval is faked and never advanced).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, EnvironmentId } from '../../../src-shared/ipc/contract';
import { readOn, restingOrder, scriptedWindow, toldEvents } from './fixtures';

const status = (environment: EnvironmentId): ConnectionStatus => ({ environment, production: false, state: 'live', apiKey: `k-${environment}`, userId: `u-${environment}`, readOnly: false, detail: '' });
let desk: EnvironmentId = 'local';
const session = () => ({ environment: desk, apiKey: `k-${desk}` });
const told = toldEvents();
const accountOf = (environment: EnvironmentId) => ({
  id: `u-${environment}`, maker_fee_rate: '0', taker_fee_rate: '0', asset_balances: [],
  stats: { order_stats: { total_orders: '0', total_done_orders: '0', total_open_orders: '0', total_pending_orders: '0', total_accepted_orders: '0' }, trading_stats: { total_trading_volume: '0' } },
});
const book = { productId: 'BTC-VND', sequence: 1, time: '1', source: 'rest', bids: [], asks: [] };
let releaseWatch: () => void = () => undefined;

beforeAll(() => {
  let answered = 0;
  /** After the window's four reads of the account have answered, the desk switches and says so. */
  const counted = <T>(value: T): T => {
    answered += 1;
    if (answered === 4) setTimeout(switchToDevelopment, 0);
    return value;
  };
  const switchToDevelopment = (): void => {
    desk = 'development';
    told.tell('connection.changed', status('development'));
    told.tell('account.changed', accountOf('development'));
    told.tell('orders.changed', [restingOrder('open-development')]);
    releaseWatch();
  };
  scriptedWindow({
    'connection.status': () => status(desk),
    'market.products': () => [],
    'orders.active': () => counted(readOn(session(), [restingOrder(`open-${desk}`)])),
    'orders.history': () => counted(readOn(session(), [])),
    'orders.fills': () => counted(readOn(session(), [])),
    'account.get': () => counted(readOn(session(), { id: `u-${desk}`, asset_balances: [] })),
    'market.candles': () => [],
    'market.trades': () => [],
    'keys.list': () => [],
    // The first watch answers once the account reads have: the trader switches (in another window) while it is out.
    'market.watch': () => (desk === 'local' ? new Promise((resolve) => (releaseWatch = () => resolve(book))) : book),
  });
});
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a window opening as the desk switches after its account reads answered', () => {
  it('shows the environment the desk switched to, with only its account', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { listenWhileOpening, loadEverything, startFeed } = await import('../../../src-renderer/stores/feed');
    useDesk.getState().setLayout({ ...useDesk.getState().layout, productId: 'BTC-VND', panels: [] });
    const stopOpening = listenWhileOpening(told.subscribe);
    const loaded = await loadEverything();
    stopOpening();
    const stop = startFeed(told.subscribe, loaded);
    try {
      expect(useDesk.getState().connection?.environment).toBe('development');
      await vi.waitFor(() => expect(useDesk.getState().account?.id).toBe('u-development'));
      await vi.waitFor(() => expect(Object.keys(useDesk.getState().openOrders)).toEqual(['open-development']));
    } finally {
      stop();
    }
  });
});
