import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import { Exchange, FEE_ACCOUNT_ID } from '../../../src-main/venue/exchange/exchange';

const MINUTE = 60_000_000_000n;

describe('candles', () => {
  it('are kept from every trade, watched or not, one per minute with open, high, low, close and volume', () => {
    let clock = 100n * MINUTE + 5n;
    let ids = 0;
    const exchange = new Exchange({ now: () => clock, newId: () => `id-${++ids}`, maxOpenOrders: 100 });
    exchange.createUser({ isAdmin: false, makerFeeRate: '0', takerFeeRate: '0', id: FEE_ACCOUNT_ID });
    const maker = exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
    const taker = exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
    exchange.fund(maker.id, 'BTC', 100_000_000n);
    exchange.fund(taker.id, 'VND', 100_000_000_000n);
    const trade = (price: string, size: string): void => {
      for (const [user, side] of [[maker.id, 'SELL'], [taker.id, 'BUY']] as const) {
        const request = parseCreateOrder({ product_id: 'BTC-VND', side, limit_price: price, base_size: size }, { now: clock });
        if (request instanceof ApiError) throw request;
        exchange.place(user, request);
      }
    };
    trade('2500000000', '0.01');
    trade('2510000000', '0.02');
    trade('2490000000', '0.01');
    clock += MINUTE;
    trade('2505000000', '0.03');

    const candles = exchange.markets.get('BTC-VND')?.candles.recent();
    expect(candles).toEqual([
      { start: String(100n * MINUTE), open: '2500000000', high: '2510000000', low: '2490000000', close: '2490000000', volume: '0.04' },
      { start: String(101n * MINUTE), open: '2505000000', high: '2505000000', low: '2505000000', close: '2505000000', volume: '0.03' },
    ]);
  });
});
