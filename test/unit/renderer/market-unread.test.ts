// What the ladder, the tape and the chart each say while their part of a product's market could not be read.
import { describe, expect, it } from 'vitest';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { unreadOf } from '../../../src-renderer/stores/market-slice';

describe("a market panel's 'Not loaded'", () => {
  it('is its own part\'s failed read, said until the window holds that part, however it came', () => {
    const s = useDesk.getState();
    s.clearMarketData();
    s.setMarketRead('BTC-VND', 'book', 'E0902 the venue is not answering');
    s.setMarketRead('BTC-VND', 'trades', 'E0902 trades');
    s.setMarketRead('BTC-VND', 'candles', 'E0902 candles');
    expect((['book', 'trades', 'candles'] as const).map((part) => unreadOf(useDesk.getState(), 'BTC-VND', part))).toEqual(['E0902 the venue is not answering', 'E0902 trades', 'E0902 candles']);
    expect(unreadOf(useDesk.getState(), 'ETH-VND', 'book')).toBeUndefined();
    // Streamed meanwhile (another window's panel watches the product): the market, which a 'Not loaded' would belie.
    s.setBook({ productId: 'BTC-VND', sequence: 1, time: '1', source: 'stream', bids: [], asks: [] });
    expect(unreadOf(useDesk.getState(), 'BTC-VND', 'book')).toBeUndefined();
    expect(unreadOf(useDesk.getState(), 'BTC-VND', 'trades')).toBe('E0902 trades');
    s.addTrades('BTC-VND', [{ id: '1', product_id: 'BTC-VND', price: '1', size: '1', side: 'BUY', time: '1' }]);
    expect(unreadOf(useDesk.getState(), 'BTC-VND', 'trades')).toBeUndefined();
    s.addCandles('BTC-VND', []);
    expect(unreadOf(useDesk.getState(), 'BTC-VND', 'candles')).toBeUndefined();
  });
});
