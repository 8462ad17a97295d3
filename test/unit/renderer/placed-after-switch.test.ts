/**
 * An order placed from the ticket whose answer arrives after the window moved to another environment or key is
 * the previous venue's: it must not stand in the new one's open orders.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Order } from '../../../src-shared/protocol/records';
import { currentView, nextView, showPlacedOrder } from '../../../src-renderer/stores/desk-actions';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { restingOrder } from './fixtures';

vi.mock('../../../src-renderer/bridge', () => ({ BridgeError: class extends Error {}, call: () => Promise.resolve([]) }));

const order = (id: string): Order => restingOrder(id);

describe('an order placed from this window', () => {
  it('is shown when its answer comes to the view it was sent from, and not after a switch', () => {
    useDesk.getState().clearAccountData();
    expect(showPlacedOrder(order('here'), currentView())).toBe(true);
    expect(Object.keys(useDesk.getState().openOrders)).toEqual(['here']);

    const sentIn = currentView();
    // The desk switched environment (feed.ts moves the view on and clears the account's data) before the answer.
    nextView();
    useDesk.getState().clearAccountData();
    expect(showPlacedOrder(order('previous-venue'), sentIn)).toBe(false);
    expect(useDesk.getState().openOrders).toEqual({});
  });
});
