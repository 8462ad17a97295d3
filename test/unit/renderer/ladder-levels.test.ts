import { describe, expect, it } from 'vitest';
import { buildLadder, groupingSteps } from '../../../src-renderer/features/ladder/ladder-levels';
import type { Order } from '../../../src-shared/protocol/records';

const bids = [
  { price: '2499990000', size: '0.5', order_count: 1 },
  { price: '2499950000', size: '0.25', order_count: 2 },
  { price: '2499890000', size: '1', order_count: 1 },
];
const asks = [
  { price: '2500010000', size: '0.1', order_count: 1 },
  { price: '2500050000', size: '0.2', order_count: 1 },
  { price: '2500110000', size: '2', order_count: 3 },
];

function order(patch: Partial<Order>): Order {
  return {
    order_id: 'o1', client_order_id: '', user_id: 'u', status: 'ACTIVE', done_reason: '', product_id: 'BTC-VND', side: 'BUY',
    type: 'LIMIT', time_in_force: 'GTC', post_only: 'false', stp: 'CANCEL_TAKER', limit_price: '2499950000', base_size: '0.2',
    quote_size: '0', exact_quote_size: '0', average_fill_price: '0', filled_base_size: '0.05', filled_quote_size: '0',
    maker_fee_rate: '0.001', taker_fee_rate: '0.002', fee_asset_id: 'VND', created_at: '1', updated_at: '1',
    cancel_requested_at: '0', expired_at: '0', scheduled_at: '0', trades: [], ...patch,
  };
}

describe('depth ladder', () => {
  it('keeps levels as they are at the product increment, with running totals and bar ratios', () => {
    const ladder = buildLadder({ productId: 'BTC-VND', bids, asks, step: '10000', depth: 10, orders: [] });
    expect(ladder.bids.map((r) => [r.price, r.size, r.total])).toEqual([
      ['2499990000', '0.5', '0.5'],
      ['2499950000', '0.25', '0.75'],
      ['2499890000', '1', '1.75'],
    ]);
    expect(ladder.asks[2]?.barRatio).toBe(1);
    expect(ladder.asks[0]?.barRatio).toBe(0.05);
    expect(ladder.spread).toBe('20000');
  });

  it('groups bids down and asks up to the step and sums sizes exactly', () => {
    const ladder = buildLadder({ productId: 'BTC-VND', bids, asks, step: '100000', depth: 10, orders: [] });
    // The spread is the book's, not the buckets' (which round it wider).
    expect(ladder.spread).toBe('20000');
    expect(ladder.bids.map((r) => [r.price, r.size, r.orderCount])).toEqual([
      ['2499900000', '0.75', 3],
      ['2499800000', '1', 1],
    ]);
    expect(ladder.asks.map((r) => [r.price, r.size])).toEqual([
      ['2500100000', '0.3'],
      ['2500200000', '2'],
    ]);
  });

  it('stops at the requested depth', () => {
    expect(buildLadder({ productId: 'BTC-VND', bids, asks, step: '10000', depth: 2, orders: [] }).bids).toHaveLength(2);
  });

  it('marks the trader\'s open orders on their level with what is left to fill', () => {
    const ladder = buildLadder({
      productId: 'BTC-VND', bids, asks, step: '10000', depth: 10,
      orders: [order({}), order({ order_id: 'done', status: 'DONE' }), order({ order_id: 'eth', product_id: 'ETH-VND' }), order({ order_id: 'stop', status: 'SCHEDULED', type: 'STOP' })],
    });
    expect(ladder.bids[1]?.mine).toEqual([{ orderId: 'o1', size: '0.15' }]);
    expect(ladder.bids.flatMap((r) => r.mine)).toHaveLength(1);
  });

  it('marks no TWAP at its cap, nor an IOC or FOK order: none of them rests on the book', () => {
    const ladder = buildLadder({
      productId: 'BTC-VND', bids, asks, step: '10000', depth: 10,
      orders: [
        order({ order_id: 'twap', type: 'TWAP', time_in_force: 'GTT', base_size: '1', filled_base_size: '0.1', expired_at: '1900000000000000000' }),
        order({ order_id: 'ioc', time_in_force: 'IOC' }),
        order({ order_id: 'fok', time_in_force: 'FOK' }),
        order({ order_id: 'resting' }),
      ],
    });
    expect(ladder.bids.flatMap((r) => r.mine.map((m) => m.orderId))).toEqual(['resting']);
  });

  it('offers steps of the product increment', () => {
    expect(groupingSteps('SOL-VND')).toEqual(['100', '1000', '10000', '100000']);
  });
});
