/**
 * An order placed from the ticket whose answer arrives after the window moved to another environment or key is
 * the previous venue's: it must not stand in the new one's open orders.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Order } from '../../../src-shared/protocol/records';
import { currentView, nextView, showPlacedOrder, tellHeldAfterSwitch } from '../../../src-renderer/stores/desk-actions';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { restingOrder } from './fixtures';

vi.mock('../../../src-renderer/bridge', () => ({ BridgeError: class extends Error {}, call: () => Promise.resolve([]), callOnSession: () => Promise.resolve({ value: [] }) }));

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

  it('tells the trader of an order placed as the desk switched, and of one held for a question then, which was not sent', () => {
    useDesk.setState({ notices: [] });
    const sentIn = currentView();
    nextView();
    useDesk.getState().clearAccountData();
    expect(showPlacedOrder(order('left-behind'), sentIn, 'production')).toBe(false);
    expect(useDesk.getState().openOrders).toEqual({});
    const [placed] = useDesk.getState().notices;
    expect(placed).toMatchObject({ kind: 'error', title: 'Placed as the desk switched' });
    expect(placed?.detail).toBe('BUY 0.1 BTC-VND (c-left-behind), sent on PRODUCTION (real money), was placed as the desk switched environment: it is working on the venue that took it.');
    expect(placed?.action).toBe('Look for it in the open orders here and on Production.');

    tellHeldAfterSwitch('development');
    expect(useDesk.getState().notices[0]).toMatchObject({ kind: 'error', title: 'Order not sent' });
    expect(useDesk.getState().notices[0]?.detail).toMatch(/sent on Development, for a question, and has switched environment since: it was not sent/);
  });
});
