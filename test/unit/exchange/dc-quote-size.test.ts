// The WebSocket's stp DC on a market order sized by quote_size: what the lots DC cuts against the trader's own
// resting order would have cost or raised, fee included, is taken off quote_size, as the lots are off base_size
// for an order sized by base (docs/api.md, Outcomes).
import { describe, expect, it } from 'vitest';
import { exchangeWorld, placed } from './exchange-world';

function world() {
  const w = exchangeWorld();
  return { ...w, place: (userId: string, data: Record<string, unknown>) => placed(w.placeWs(userId, data)) };
}

describe('a WebSocket market order by quote_size with stp DC that meets its own resting order', () => {
  it('buy: quote_size is lowered by what the cut lots would have cost with fee, and what it spent fits in what is left', () => {
    const w = world();
    const [trader, other] = [w.user(), w.user()];
    // Its own 0.0003 at 2,500,000,000 (750,000 VND, 751,500 with the 0.2% taker fee) first, another's ask behind.
    const own = w.place(trader, { type: 'limit', side: 'sell', price: '2500000000', size: '0.0003' });
    w.place(other, { type: 'limit', side: 'sell', price: '2500100000', size: '0.0010' });

    const buy = w.place(trader, { type: 'market', side: 'buy', quote_size: '1500000', stp: 'DC' });
    // Observed: DONE FILLED with quote_size still 1500000, having spent 501,020 of it, and nothing saying why.
    expect(own).toMatchObject({ status: 'DONE', doneReason: 'CANCELED', rejectReason: 'E0204_SelfTradePrevented' });
    expect(buy).toMatchObject({ status: 'DONE', doneReason: 'FILLED', quoteSize: '748500', filledBaseSize: '0.0002', filledQuoteSize: '500020' });
    expect(BigInt(buy.filledQuoteSize) + BigInt(buy.feeTotal)).toBeLessThanOrEqual(BigInt(buy.quoteSize));
  });

  it('sell: quote_size is lowered by what the cut lots would have raised after fee, and what it raised reaches what is left', () => {
    const w = world();
    const [trader, other] = [w.user(), w.user()];
    // Its own 0.0003 at 2,500,000,000 (750,000 VND, 748,500 after the 0.2% taker fee) first, another's bid behind.
    const own = w.place(trader, { type: 'limit', side: 'buy', price: '2500000000', size: '0.0003' });
    w.place(other, { type: 'limit', side: 'buy', price: '2499900000', size: '0.0010' });

    const sell = w.place(trader, { type: 'market', side: 'sell', quote_size: '1000000', stp: 'DC' });
    expect(own).toMatchObject({ status: 'DONE', doneReason: 'CANCELED', rejectReason: 'E0204_SelfTradePrevented' });
    expect(sell).toMatchObject({ status: 'DONE', doneReason: 'FILLED', quoteSize: '251500', filledBaseSize: '0.0002', filledQuoteSize: '499980' });
    expect(BigInt(sell.filledQuoteSize) - BigInt(sell.feeTotal)).toBeGreaterThanOrEqual(BigInt(sell.quoteSize));
  });

  it('an order DC leaves at zero keeps its quote_size: it is CANCELED E0204, as one sized by base is', () => {
    const w = world();
    const trader = w.user();
    w.place(trader, { type: 'limit', side: 'sell', price: '2500000000', size: '0.0100' });
    const buy = w.place(trader, { type: 'market', side: 'buy', quote_size: '1500000', stp: 'DC' });
    expect(buy).toMatchObject({ status: 'DONE', doneReason: 'CANCELED', rejectReason: 'E0204_SelfTradePrevented', quoteSize: '1500000', filledBaseSize: '0' });
  });
});
