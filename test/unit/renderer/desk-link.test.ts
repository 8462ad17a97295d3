/**
 * Browser mode's bridge is a socket to the desk. While it is down the desk's events are lost: the window must say
 * its connection is unavailable (every panel marked stale) rather than keep showing "live", and read everything
 * again once the desk answers.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { loadEverything, startFeed } from '../../../src-renderer/stores/feed';

const live: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k', userId: 'u', detail: '', latencyMs: 3 };
let deskUp = true;
const calls: string[] = [];
const linkListeners = new Set<(state: 'lost' | 'back') => void>();

vi.mock('../../../src-renderer/bridge', () => {
  class BridgeError extends Error {
    constructor(
      readonly ref: string,
      message: string,
    ) {
      super(message);
    }
  }
  const call = (method: string): Promise<unknown> => {
    calls.push(method);
    if (!deskUp) return Promise.reject(new BridgeError('E0902_ServiceUnavailable', 'E0902_ServiceUnavailable: the desk cannot be reached'));
    if (method === 'connection.status') return Promise.resolve(live);
    if (method === 'market.watch') return Promise.resolve({ productId: 'BTC-VND', sequence: 1, time: '1', source: 'rest', bids: [], asks: [] });
    return Promise.resolve(method === 'orders.active' || method === 'orders.history' || method === 'orders.fills' || method === 'market.trades' || method === 'market.candles' ? [] : undefined);
  };
  const callOnSession = async (method: string): Promise<unknown> => ({ value: await call(method), session: { environment: 'local' } });
  const onBridgeLink = (listener: (state: 'lost' | 'back') => void): (() => void) => {
    linkListeners.add(listener);
    return () => void linkListeners.delete(listener);
  };
  return { BridgeError, call, callOnSession, onBridgeLink, refusalOf: (err: unknown) => err };
});

describe('the link to the desk in browser mode', () => {
  it('is said to be unavailable while the desk cannot be reached, and everything is read again once it answers', async () => {
    useDesk.getState().setConnection(live);
    const stop = startFeed(() => () => undefined);
    try {
      deskUp = false;
      await loadEverything();
      expect(useDesk.getState().connection).toMatchObject({ state: 'unavailable', detail: 'E0902_ServiceUnavailable: the desk cannot be reached' });
      expect(useDesk.getState().connection?.latencyMs).toBeUndefined();

      deskUp = true;
      calls.length = 0;
      await loadEverything();
      expect(useDesk.getState().connection?.state).toBe('live');
      // Once by loadEverything, once more because the connection came back live: what the lost events said.
      await vi.waitFor(() => expect(calls.filter((m) => m === 'orders.active')).toHaveLength(2));
    } finally {
      stop();
    }
  });

  it('is said to be unavailable once the link drops, and watches and reads again once it is back', async () => {
    deskUp = true;
    useDesk.getState().setConnection(live);
    const stop = startFeed(() => () => undefined);
    try {
      // Dropped with no call on its way: the next poll dials again and is answered, so only the link can say so.
      for (const listen of linkListeners) listen('lost');
      expect(useDesk.getState().connection?.state).toBe('unavailable');
      calls.length = 0;
      for (const listen of linkListeners) listen('back');
      // The desk took the new link for a window that watches nothing: the product shown is watched again.
      await vi.waitFor(() => expect(calls).toContain('market.watch'));
      await vi.waitFor(() => expect(useDesk.getState().connection?.state).toBe('live'));
      // And what the events lost meanwhile said is read again.
      await vi.waitFor(() => expect(calls).toEqual(expect.arrayContaining(['orders.active', 'orders.fills', 'account.get'])));
    } finally {
      stop();
    }
  });
});
