// A window's reads of the account refused on another session than the one it shows: the desk switched to an
// environment with no key, and the window has not heard yet. The refusal ("no API key for Development") was shown
// as a notice, and as the account's problem, under the environment the window still showed, and a window opening
// then did not read again. The desk names the session a refusal was tried on; the window drops those of another.
// Scripted bridge.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, EnvironmentId } from '../../../src-shared/ipc/contract';
import { readOn, refusedOn, restingOrder, scriptedWindow } from './fixtures';

const status = (environment: EnvironmentId): ConnectionStatus =>
  environment === 'local'
    ? { environment, production: false, state: 'live', apiKey: 'k', userId: 'u', readOnly: false, detail: '' }
    : { environment, production: false, state: 'no_key', readOnly: false, detail: 'no API key for Development' };
/** Where the desk is; the test moves it. */
let desk: EnvironmentId = 'local';
let switchAfterStatus = false;
const onDesk = <T>(value: T): unknown => (desk === 'local' ? readOn({ environment: 'local', apiKey: 'k' }, value) : refusedOn({ environment: desk }, 'E0001_AuthRequired', 'no API key for Development'));

beforeAll(() => {
  scriptedWindow({
    'connection.status': () => {
      const answer = status(desk);
      if (switchAfterStatus) desk = 'development';
      return answer;
    },
    'market.products': () => [],
    'orders.active': () => onDesk([restingOrder('open-1')]),
    'orders.history': () => onDesk([]),
    'orders.fills': () => onDesk([]),
    'account.get': () => onDesk({ id: 'u', asset_balances: [] }),
  });
});
afterAll(() => vi.unstubAllGlobals());

describe('a read of the account refused on another session', () => {
  it('is not shown under the environment the window shows', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { attemptOnShownSession, refreshOrders } = await import('../../../src-renderer/stores/desk-actions');
    useDesk.setState({ connection: status('local'), notices: [] });
    desk = 'development';
    await refreshOrders();
    expect(await attemptOnShownSession('orders.history', { limit: 10 })).toBeUndefined();
    expect(useDesk.getState().notices).toEqual([]);
    desk = 'local';
  });

  it('is told as a refusal when it is of the session the window shows', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { refreshOrders } = await import('../../../src-renderer/stores/desk-actions');
    useDesk.setState({ connection: status('development'), notices: [] });
    desk = 'development';
    await refreshOrders();
    expect(useDesk.getState().notices.map((n) => n.detail)).toContain('no API key for Development');
    desk = 'local';
  });

  it('makes a window opening read again, on the environment the desk switched to', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { loadEverything } = await import('../../../src-renderer/stores/feed');
    useDesk.setState({ connection: undefined, notices: [] });
    useDesk.getState().setLayout({ ...useDesk.getState().layout, productId: 'BTC-VND', panels: [] });
    switchAfterStatus = true;
    await loadEverything();
    const s = useDesk.getState();
    expect(s.connection?.environment).toBe('development');
    expect(s.openOrders).toEqual({});
  });
});
