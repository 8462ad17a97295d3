/**
 * Cancel all from a window: on Production the trader is asked first, naming it, and every call names the
 * environment the window shows, so a click made before a switch cancels nothing on the next one.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';
import { cancelAll } from '../../../src-renderer/stores/desk-actions';
import { useDesk } from '../../../src-renderer/stores/desk-store';

const sent: { method: string; request: unknown }[] = [];

vi.mock('../../../src-renderer/bridge', () => ({
  BridgeError: class extends Error {},
  call: (method: string, request: unknown) => {
    sent.push({ method, request });
    return Promise.resolve(method === 'orders.cancelAll' ? { cancelRequested: 1 } : []);
  },
  callOnSession: (method: string, request: unknown) => {
    sent.push({ method, request });
    return Promise.resolve({ value: [] });
  },
}));

const status = (environment: ConnectionStatus['environment']): ConnectionStatus => ({ environment, production: environment === 'production', state: 'live', apiKey: 'k', userId: 'u', detail: '' });
let answer = false;
const asked: string[] = [];

beforeEach(() => {
  sent.length = 0;
  asked.length = 0;
  vi.stubGlobal('window', { confirm: (question: string) => (asked.push(question), answer) });
});
afterEach(() => vi.unstubAllGlobals());

describe('cancel all from a window', () => {
  it('on Production asks first, naming it, and sends nothing on a no', async () => {
    useDesk.getState().setConnection(status('production'));
    answer = false;
    await cancelAll('BTC-VND');
    expect(asked).toEqual([expect.stringMatching(/^PRODUCTION \(real money\): cancel every open BTC-VND order on Production/)]);
    expect(sent.filter((c) => c.method === 'orders.cancelAll')).toEqual([]);
    answer = true;
    await cancelAll();
    expect(sent.filter((c) => c.method === 'orders.cancelAll')).toEqual([{ method: 'orders.cancelAll', request: { environment: 'production' } }]);
  });

  it('elsewhere goes at once, naming the environment the window shows', async () => {
    useDesk.getState().setConnection(status('local'));
    await cancelAll('ETH-VND');
    expect(asked).toEqual([]);
    expect(sent.filter((c) => c.method === 'orders.cancelAll')).toEqual([{ method: 'orders.cancelAll', request: { product_id: 'ETH-VND', environment: 'local' } }]);
  });

  it('asks about Production the window shows from the environments list before any connection status came', async () => {
    useDesk.setState({
      connection: undefined,
      environments: { active: 'production', environments: [], secretStorage: { kind: 'keychain' } },
    });
    answer = false;
    await cancelAll();
    expect(asked).toEqual([expect.stringMatching(/^PRODUCTION \(real money\): cancel every open order on Production/)]);
    expect(sent.filter((c) => c.method === 'orders.cancelAll')).toEqual([]);
    answer = true;
    await cancelAll();
    expect(sent.filter((c) => c.method === 'orders.cancelAll')).toEqual([{ method: 'orders.cancelAll', request: { environment: 'production' } }]);
  });
});
