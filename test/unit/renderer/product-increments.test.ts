// The ladder, tape and chart count and write prices and sizes in the increments of the venue the desk is on, which
// for Development or Production may differ from the built-in products' (or list products the local venue lacks).
import { describe, expect, it } from 'vitest';
import { buildLadder, groupingSteps } from '../../../src-renderer/features/ladder/ladder-levels';
import { assetsOf, formatToIncrement, productIncrements } from '../../../src-renderer/features/ladder/increments';
import type { Product } from '../../../src-shared/protocol/records';

const listed = (id: string, price: string, size: string): Product => ({
  id, base_asset_id: id.split('-')[0] ?? '', quote_asset_id: id.split('-')[1] ?? '', price_increment: price, size_increment: size,
  min_size: size, max_size: '1000', min_notional: '10', status: 'online',
});

describe('a product\'s increments on the venue shown', () => {
  it('keeps every level of a book whose prices and sizes are finer than the built-in product\'s', () => {
    // Development lists BTC-VND at 1000 VND and 0.00001 BTC; the built-in one is 10000 and 0.0001.
    const products = [listed('BTC-VND', '1000', '0.00001')];
    const ladder = buildLadder({
      productId: 'BTC-VND', step: '1000', depth: 10, orders: [], increments: productIncrements('BTC-VND', products),
      bids: [{ price: '2499999000', size: '0.00005', order_count: 1 }, { price: '2499990000', size: '0.1', order_count: 1 }],
      asks: [{ price: '2500001000', size: '0.12345', order_count: 1 }],
    });
    expect(ladder.bids.map((r) => [r.price, r.size, r.total])).toEqual([['2499999000', '0.00005', '0.00005'], ['2499990000', '0.1', '0.10005']]);
    expect(ladder.asks.map((r) => r.price)).toEqual(['2500001000']);
    expect(ladder.spread).toBe('2000');
    expect(groupingSteps('BTC-VND', productIncrements('BTC-VND', products))).toEqual(['1000', '10000', '100000', '1000000']);
  });

  it('draws a product only the venue lists', () => {
    const increments = productIncrements('XRP-USDT', [listed('XRP-USDT', '0.0001', '0.1')]);
    const ladder = buildLadder({ productId: 'XRP-USDT', step: '0.0001', depth: 10, orders: [], increments, bids: [{ price: '0.5123', size: '100.5', order_count: 2 }], asks: [] });
    expect(ladder.bids.map((r) => [r.price, r.size])).toEqual([['0.5123', '100.5']]);
  });

  it('takes the built-in increments while the venue\'s list is not read, and none it cannot count in', () => {
    expect(productIncrements('SOL-VND', [])).toEqual({ price: '100', size: '0.01' });
    expect(productIncrements('SOL-VND', [listed('SOL-VND', '0', 'x')])).toEqual({ price: '100', size: '0.01' });
    expect(productIncrements('XRP-USDT', [])).toBeUndefined();
  });

  it('writes each figure with the decimals of its increment, never rounding one finer', () => {
    // BTC sizes at 0.0001, ETH's at 0.001, SOL's at 0.01: one column, one precision.
    expect(formatToIncrement('0.1', '0.0001')).toBe('0.1000');
    expect(formatToIncrement('1', '0.001')).toBe('1.000');
    expect(formatToIncrement('12.5', '0.01')).toBe('12.50');
    expect(formatToIncrement('2500000000', '10000')).toBe('2\u202f500\u202f000\u202f000');
    expect(formatToIncrement('0.50', '0.0100')).toBe('0.50');
    expect(formatToIncrement('0.12345', '0.0001')).toBe('0.12345');
    expect(formatToIncrement('0.1', undefined)).toBe('0.1');
  });

  it("names a product's assets as the venue lists them, else by the halves of its id", () => {
    expect(assetsOf('BTC-VND', [{ ...listed('BTC-VND', '10000', '0.0001'), quote_asset_id: 'USDT' }])).toEqual({ base: 'BTC', quote: 'USDT' });
    expect(assetsOf('ETH-VND', [])).toEqual({ base: 'ETH', quote: 'VND' });
    expect(assetsOf('ODD', [])).toEqual({ base: 'ODD', quote: '' });
  });
});
