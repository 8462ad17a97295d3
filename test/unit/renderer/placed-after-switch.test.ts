/**
 * An order placed from the ticket whose answer arrives after the window moved to another environment or key is
 * the previous venue's: it must not stand in the new one's open orders.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Order } from '../../../src-shared/protocol/records';
import { currentView, nextView, showPlacedOrder } from '../../../src-renderer/stores/desk-actions';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('../../../src-renderer/bridge', () => ({ BridgeError: class extends Error {}, call: () => Promise.resolve([]) }));

function order(id: string): Order {
  return {
    order_id: id, client_order_id: `c-${id}`, user_id: 'u', status: 'ACTIVE', done_reason: '', product_id: 'BTC-VND', side: 'BUY',
    type: 'LIMIT', time_in_force: 'GTC', post_only: 'false', stp: 'CANCEL_TAKER', limit_price: '2400000000', base_size: '0.1',
    quote_size: '0', exact_quote_size: '0', average_fill_price: '0', filled_base_size: '0', filled_quote_size: '0',
    maker_fee_rate: '0.001', taker_fee_rate: '0.002', fee_asset_id: 'VND', created_at: '1', updated_at: '1',
    cancel_requested_at: '0', expired_at: '0', scheduled_at: '0', trades: [],
  };
}

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
