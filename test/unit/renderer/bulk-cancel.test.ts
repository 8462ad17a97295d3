/** Cancelling several orders at once: what the venue could not cancel is told, not left for the trader to find. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '../../../src-shared/protocol/records';
import { cancelOrders } from '../../../src-renderer/stores/desk-actions';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { restingOrder } from './fixtures';

const bulk = vi.hoisted(() => ({ answer: { cancelRequested: [] as string[], notOpened: [] as string[], alreadyRequested: [] as string[] } }));

vi.mock('../../../src-renderer/bridge', () => ({
  BridgeError: class extends Error {},
  call: (method: string) => Promise.resolve(method === 'orders.cancelBulk' ? bulk.answer : []),
  callOnSession: () => Promise.resolve({ value: [] }),
}));

const order = (id: string, clientOrderId: string): Order => restingOrder(id, { client_order_id: clientOrderId });

beforeEach(() => {
  useDesk.setState({ openOrders: {}, history: [], historyLoaded: true, notices: [] });
  useDesk.getState().setOpenOrders([order('id-a', 'bid-a'), order('id-b', 'bid-b'), order('id-c', '')]);
});

describe('cancelling the selected orders', () => {
  it('tells the trader which of them the venue found no longer open: they filled or ended before the cancel', async () => {
    bulk.answer = { cancelRequested: ['id-a'], notOpened: ['id-b', 'id-c'], alreadyRequested: [] };
    await cancelOrders(['id-a', 'id-b', 'id-c']);
    const notices = useDesk.getState().notices;
    expect(notices).toHaveLength(1);
    expect(notices[0]?.kind).toBe('error');
    expect(notices[0]?.detail).toContain('2 of 3');
    expect(notices[0]?.detail).toContain('bid-b');
    expect(notices[0]?.detail).toContain('id-c');
  });

  it('says nothing more when every one of them was canceled', async () => {
    bulk.answer = { cancelRequested: ['id-a', 'id-b'], notOpened: [], alreadyRequested: [] };
    await cancelOrders(['id-a', 'id-b']);
    expect(useDesk.getState().notices).toEqual([]);
  });
});
