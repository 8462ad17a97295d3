// WebSocket create_order data for stop orders, placed on the exchange: a trigger makes the order a STOP, a
// stop-limit at `price` for type limit and a stop-market for type market (docs/api.md, WebSocket create_order).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { exchangeWorld } from './exchange-world';

function world() {
  const w = exchangeWorld();
  return { ...w, place: w.placeWs };
}

describe('a WebSocket stop order', () => {
  it('of type limit needs its price: without one it is refused, not made a stop-market that sells at any price', () => {
    const w = world();
    const [trader, other] = [w.user(), w.user()];
    // A last trade at 2,500,000,000, and the only bid far below it.
    w.place(other, { type: 'limit', side: 'sell', price: '2500000000', size: '0.0001' });
    w.place(trader, { type: 'limit', side: 'buy', price: '2500000000', size: '0.0001' });
    w.place(other, { type: 'limit', side: 'buy', price: '1000000000', size: '0.01' });

    const refused = w.place(trader, { type: 'limit', side: 'sell', size: '0.001', stop_trigger_price: '2490000000' });
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toMatch(/^E0101_InvalidArgument: price: /);
    expect(w.exchange.activeOrders(trader, {})).toEqual([]);

    const stopLimit = w.place(trader, { type: 'limit', side: 'sell', price: '2480000000', size: '0.001', stop_trigger_price: '2490000000' });
    expect(stopLimit).toMatchObject({ type: 'STOP', status: 'SCHEDULED', limitPrice: '2480000000', timeInForce: 'GTC', stopType: 'STOP_LOSS' });
    const stopMarket = w.place(trader, { type: 'market', side: 'sell', size: '0.001', stop_trigger_price: '2490000000' });
    expect(stopMarket).toMatchObject({ type: 'STOP', status: 'SCHEDULED', limitPrice: '0', timeInForce: 'IOC', stopType: 'STOP_LOSS' });
  });

  it('of type market by quote_size is refused saying a stop takes a size, not that quote_size is for market orders', () => {
    const w = world();
    const trader = w.user();
    const refused = w.place(trader, { type: 'market', side: 'buy', quote_size: '1000000', stop_trigger_price: '2600000000' });
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toBe('E0101_InvalidArgument: quote_size: not for a stop order, which takes size');
  });
});
