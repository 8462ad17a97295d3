// The blotter's merge rules, with records shaped as the venue sends them: an order is held once, and a record
// only moves forward, whichever of REST and the socket speaks last.
import { describe, expect, it } from 'vitest';
import type { Order, WsOrder } from '../../../src-shared/protocol/records';
import { OrderBlotter } from '../../../src-main/connection/order-blotter';
import { compareDecimals } from '../../../src-main/connection/local-book';

function order(changes: Partial<Order> = {}): Order {
  return {
    order_id: '0190a3c4-0000-7000-8000-000000000001',
    client_order_id: 'desk-1',
    user_id: 'u1',
    status: 'ACTIVE',
    done_reason: '',
    product_id: 'BTC-VND',
    side: 'BUY',
    type: 'LIMIT',
    time_in_force: 'GTC',
    post_only: 'false',
    stp: 'CANCEL_TAKER',
    limit_price: '2500000000',
    base_size: '0.02',
    quote_size: '0',
    exact_quote_size: '0',
    average_fill_price: '0',
    filled_base_size: '0',
    filled_quote_size: '0',
    maker_fee_rate: '0.001',
    taker_fee_rate: '0.002',
    fee_asset_id: 'VND',
    created_at: '1000',
    updated_at: '1000',
    cancel_requested_at: '0',
    expired_at: '0',
    scheduled_at: '0',
    trades: [],
    ...changes,
  };
}

function wsUpdate(o: Order, status: string): WsOrder {
  const { order_id, status: _s, ...rest } = o;
  return { ...rest, id: order_id, status };
}

describe('OrderBlotter', () => {
  it('holds an order once however often it is reported', () => {
    const blotter = new OrderBlotter();
    expect(blotter.upsert(order()).kind).toBe('changed');
    expect(blotter.upsert(order()).kind).toBe('unchanged');
    expect(blotter.applyUpdate(wsUpdate(order(), 'open')).kind).toBe('unchanged');
    expect(blotter.size).toBe(1);
  });

  it('keeps a fill the socket reported when an older REST page arrives later', () => {
    const blotter = new OrderBlotter();
    const filled = order({ status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.02', updated_at: '2000' });
    blotter.applyUpdate(wsUpdate(filled, 'filled'));
    expect(blotter.upsert(order({ updated_at: '1500' })).kind).toBe('unchanged');
    expect(blotter.get(filled.order_id)).toMatchObject({ status: 'DONE', done_reason: 'FILLED' });
  });

  it('never brings a done order back, even with a later timestamp', () => {
    const blotter = new OrderBlotter();
    blotter.upsert(order({ status: 'DONE', done_reason: 'CANCELED', updated_at: '2000' }));
    expect(blotter.upsert(order({ status: 'ACTIVE', updated_at: '3000' })).kind).toBe('unchanged');
  });

  it('maps the socket’s lowercase statuses and merges a thin update onto the record it has', () => {
    const blotter = new OrderBlotter();
    blotter.upsert(order());
    const thin = { id: order().order_id, client_order_id: 'desk-1', status: 'cancelled', cancel_requested_at: '1700', updated_at: '1700' } as WsOrder;
    const result = blotter.applyUpdate(thin);
    expect(result).toMatchObject({ kind: 'changed', order: { status: 'DONE', done_reason: 'CANCELED', cancel_requested_at: '1700', base_size: '0.02' } });
    expect(blotter.applyUpdate({ ...thin, id: 'not-known' }).kind).toBe('unknown');
  });

  it('finds the orders of a client_order_id case-insensitively', () => {
    const blotter = new OrderBlotter();
    blotter.upsert(order({ order_id: 'a', client_order_id: 'Desk-X', created_at: '1' }));
    blotter.upsert(order({ order_id: 'b', client_order_id: 'desk-x', created_at: '2' }));
    blotter.upsert(order({ order_id: 'c', client_order_id: 'desk-y', created_at: '3' }));
    expect([...blotter.orderIdsWithClientOrderId('DESK-X')].sort()).toEqual(['a', 'b']);
  });

  it('finds the orders of a client_order_id without reading the rest of the blotter', () => {
    // Each placement naming a client_order_id asks this: it must not cost a pass over a day's orders.
    let reads = 0;
    const counted = (changes: Partial<Order>): Order => {
      const made = order(changes);
      const clientOrderId = made.client_order_id;
      return Object.defineProperty(made, 'client_order_id', {
        enumerable: true,
        get: () => {
          reads++;
          return clientOrderId;
        },
      });
    };
    const blotter = new OrderBlotter();
    for (let i = 0; i < 1_000; i++) blotter.upsert(counted({ order_id: `o${i}`, client_order_id: `desk-${i % 500}` }));
    reads = 0;
    expect([...blotter.orderIdsWithClientOrderId('DESK-7')].sort()).toEqual(['o507', 'o7']);
    expect([...blotter.orderIdsWithClientOrderId('nobody-used-it')]).toEqual([]);
    expect(reads).toBe(0);
  });

  it('follows an order whose newer record carries another client_order_id', () => {
    const blotter = new OrderBlotter();
    blotter.upsert(order({ order_id: 'm', client_order_id: 'first', updated_at: '1' }));
    blotter.upsert(order({ order_id: 'm', client_order_id: 'Second', updated_at: '2' }));
    expect([...blotter.orderIdsWithClientOrderId('first')]).toEqual([]);
    expect([...blotter.orderIdsWithClientOrderId('SECOND')]).toEqual(['m']);
    // A stale record is not taken, and moves nothing.
    blotter.upsert(order({ order_id: 'm', client_order_id: 'first', updated_at: '1' }));
    expect([...blotter.orderIdsWithClientOrderId('first')]).toEqual([]);
  });
});

describe('compareDecimals', () => {
  it('orders decimal strings exactly', () => {
    expect(compareDecimals('2500000000', '999999999')).toBe(1);
    expect(compareDecimals('0.0001', '0.00009')).toBe(1);
    expect(compareDecimals('1.50', '1.5')).toBe(0);
    expect(compareDecimals('12345678901234567890.1', '12345678901234567890.10000000000000000001')).toBe(-1);
  });
});
