// The desk's events reach a window's store through the bridge's `on`, which reads each payload with the contract's
// schema for it: a malformed one is dropped, with the reason logged, instead of going into the store every panel
// reads (an order without its fields stood in the open orders, and one without trades threw in the feed).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { restingOrder } from './fixtures';

const listeners = new Map<string, Set<(payload: unknown) => void>>();
const tell = (name: string, payload: unknown): void => listeners.get(name)?.forEach((listen) => listen(payload));

beforeAll(() => {
  const nova = new Proxy(
    {
      on: (name: string, listener: (payload: unknown) => void) => {
        const set = listeners.get(name) ?? new Set();
        listeners.set(name, set.add(listener));
        return () => set.delete(listener);
      },
    },
    {
      get: (target, method: string) =>
        method === 'on' ? target.on : () => Promise.resolve({ ok: false, error: { ref: 'E0902_ServiceUnavailable', message: 'E0902_ServiceUnavailable: not scripted' } }),
    },
  );
  vi.stubGlobal('window', { nova, location: { protocol: 'http:', host: 'test' } });
});

afterEach(() => vi.restoreAllMocks());
afterAll(() => vi.unstubAllGlobals());

describe("the bridge's events", () => {
  it('drops a malformed event with its reason logged, and passes a well-formed one on', async () => {
    const { on } = await import('../../../src-renderer/bridge');
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { startFeed } = await import('../../../src-renderer/stores/feed');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    useDesk.getState().clearAccountData();
    const stop = startFeed(on);
    try {
      tell('orders.changed', [{ order_id: 'broken', status: 'ACTIVE' }]);
      tell('account.changed', { id: 'u', asset_balances: 'none' });
      expect(Object.keys(useDesk.getState().openOrders)).toEqual([]);
      expect(useDesk.getState().account).toBeUndefined();
      expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(/^nova: dropped a malformed event \(orders\.changed: 0\.\w+: /),
        expect.stringMatching(/^nova: dropped a malformed event \(account\.changed: .*asset_balances: Invalid input: expected array/),
      ]);

      tell('orders.changed', [restingOrder('fine')]);
      expect(Object.keys(useDesk.getState().openOrders)).toEqual(['fine']);
    } finally {
      stop();
    }
  });
});
