// A window opening reads the desk's status and then what it shows. The desk switches environment between the two
// (a few ms, as the window opens): the status names Local, the reads answer on Development. The feed, which acts on
// a switch, has not started, and listenWhileOpening takes no connection.changed: the window showed Local over
// nothing until the status poll. It notices from the reads' sessions and reads everything again. Scripted bridge.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, EnvironmentId } from '../../../src-shared/ipc/contract';
import { readOn, restingOrder, scriptedWindow } from './fixtures';

const status = (environment: EnvironmentId): ConnectionStatus => ({ environment, production: false, state: 'live', apiKey: `k-${environment}`, userId: `u-${environment}`, readOnly: false, detail: '' });
/** Where the desk is: it switches to Development once the window has read its status. */
let desk: EnvironmentId = 'local';
const session = () => ({ environment: desk, apiKey: `k-${desk}` });

beforeAll(() => {
  scriptedWindow({
    'connection.status': () => {
      const answer = status(desk);
      desk = 'development';
      return answer;
    },
    'market.products': () => [],
    'orders.active': () => readOn(session(), [restingOrder(`open-${desk}`)]),
    'orders.history': () => readOn(session(), []),
    'orders.fills': () => readOn(session(), []),
    'account.get': () => readOn(session(), { id: `u-${desk}`, asset_balances: [] }),
  });
});

afterAll(() => vi.unstubAllGlobals());

describe('a window opening as the desk switches', () => {
  it('notices a switch between its status read and its other reads, and shows the environment the desk is on', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { loadEverything } = await import('../../../src-renderer/stores/feed');
    useDesk.getState().setLayout({ ...useDesk.getState().layout, productId: 'BTC-VND', panels: [] });
    await loadEverything();
    const s = useDesk.getState();
    expect(s.connection?.environment).toBe('development');
    expect(Object.keys(s.openOrders)).toEqual(['open-development']);
    expect(s.account?.id).toBe('u-development');
  });
});
