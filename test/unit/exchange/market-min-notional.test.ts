// min_notional for a market order sized by base_size (docs/api.md, Rules by type and Outcomes). It has no price of
// its own to multiply by its size, as a limit order has: what it would fill walking the book, at the prices it
// would fill, must reach the minimum. Below it, one arriving is refused (400 E0110, as the limit order is) and one
// meeting the book later (scheduled, or a stop-market when it triggers) ends DONE CANCELED E0110 without trading.
// BTC-VND: 1 tick × 1 lot is 1 VND and min_notional is 10000, so 0.0001 BTC at 10000 is a trade of 1 VND (fee 0).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { NOW, exchangeWorld } from './exchange-world';

const SECOND = 1_000_000_000n;

function world() {
  const w = exchangeWorld({ BTC: 10_0000_0000n, VND: 1_000_000_000n });
  const limit = (userId: string, side: 'BUY' | 'SELL', price: string, size: string) => w.place(userId, { side, limit_price: price, base_size: size });
  const market = (userId: string, side: 'BUY' | 'SELL', size: string, extra: Record<string, unknown> = {}) =>
    w.place(userId, { type: 'MARKET', side, base_size: size, ...extra });
  return { ...w, limit, market };
}

function expectBelowMinimum(result: unknown): void {
  expect(result).toBeInstanceOf(ApiError);
  expect((result as ApiError).message).toMatch(/^E0110_ValueOutOfRange: .*below the minimum notional 10000$/);
}

describe('a MARKET order by base_size, arriving', () => {
  it('whose fill at the book’s prices is below min_notional is refused as the LIMIT order for it is: E0110, no order made', () => {
    const w = world();
    const [maker, taker] = [w.user(), w.user()];
    w.limit(maker, 'SELL', '20000', '1');
    w.limit(maker, 'BUY', '10000', '1');
    expectBelowMinimum(w.limit(taker, 'BUY', '20000', '0.0001'));
    const balances = () => [...w.exchange.ledger.balances(taker)].map(([asset, b]) => [asset, { ...b }]);
    const before = balances();

    // Observed: DONE FILLED, 0.0001 BTC for 2 VND, fee 0.
    const buy = w.market(taker, 'BUY', '0.0001');
    expectBelowMinimum(buy);
    expect((buy as ApiError).message).toBe("E0110_ValueOutOfRange: what it would fill at the book's prices (0.0001 for 2): below the minimum notional 10000");
    expectBelowMinimum(w.market(taker, 'SELL', '0.0001'));

    expect(w.exchange.user(taker)?.totalOrders).toBe(0n);
    expect(w.exchange.orderCounts(taker)).toEqual({ open: 0, pending: 0 });
    expect(w.exchange.activeOrders(maker, {}).map((o) => o.row.restingLots)).toEqual([10000, 10000]);
    expect(balances()).toEqual(before);
  });

  it('that the book can fill only in part, below min_notional, is refused; one whose walk reaches it trades', () => {
    const w = world();
    const [maker, other, taker] = [w.user(), w.user(), w.user()];
    // 2 BTC at 10000, of which another buys 1.9999: 0.0001 BTC (1 VND) is left on the book.
    w.limit(maker, 'SELL', '10000', '2');
    w.limit(other, 'BUY', '10000', '1.9999');

    expectBelowMinimum(w.market(taker, 'BUY', '1'));

    // With 1 BTC at 20000 behind it, 1 BTC costs 1 + 19998 VND.
    w.limit(maker, 'SELL', '20000', '1');
    expect(w.market(taker, 'BUY', '1')).toMatchObject({ status: 'DONE', doneReason: 'FILLED', filledBaseSize: '1', filledQuoteSize: '19999' });
  });

  it('whose fill reaches min_notional exactly trades', () => {
    const w = world();
    const [maker, taker] = [w.user(), w.user()];
    w.limit(maker, 'SELL', '10000', '1');
    expect(w.market(taker, 'BUY', '1')).toMatchObject({ status: 'DONE', doneReason: 'FILLED', filledQuoteSize: '10000', feeTotal: '20' });
  });

  it('that would fill nothing is not refused for its notional: on an empty book, or at its own order first, it ends as before', () => {
    const w = world();
    const trader = w.user();
    expect(w.market(trader, 'BUY', '0.0001')).toMatchObject({ status: 'DONE', doneReason: 'CANCELED', rejectReason: '', filledBaseSize: '0' });
    w.limit(trader, 'SELL', '10000', '1');
    expect(w.market(trader, 'BUY', '0.0001')).toMatchObject({ status: 'DONE', doneReason: 'CANCELED', rejectReason: 'E0204_SelfTradePrevented' });
  });
});

describe('a market order by base_size meeting the book later', () => {
  it('scheduled: priced by the book it meets when it starts, and ended DONE CANCELED E0110 there, its hold released', () => {
    const w = world();
    const [maker, taker] = [w.user(), w.user()];
    const scheduled = w.market(taker, 'BUY', '0.0001', { scheduled_at: String(NOW + SECOND) });
    expect(scheduled).toMatchObject({ status: 'SCHEDULED' });
    w.limit(maker, 'SELL', '10000', '1');

    w.at(2n * SECOND);
    const row = (w.exchange.takeChanges().orders ?? []).filter((o) => o.userId === taker).at(-1);
    // Observed: DONE FILLED, 0.0001 BTC for 1 VND.
    expect(row).toMatchObject({ status: 'DONE', doneReason: 'CANCELED', rejectReason: 'E0110_ValueOutOfRange', filledBaseSize: '0', holdRemaining: 0n });
    expect(w.exchange.activeOrders(maker, {}).map((o) => o.row.restingLots)).toEqual([10000]);
  });

  it.each([
    ['SELL', 'STOP_LOSS', 'BUY'],
    ['BUY', 'TAKE_PROFIT', 'SELL'],
  ] as const)('a stop-market %s, when it triggers, ends DONE CANCELED E0110 rather than trade below min_notional', (side, stopType, bookSide) => {
    const w = world();
    const [maker, other, trader] = [w.user(), w.user(), w.user()];
    // A last trade at 20000; 2 BTC at 10000 on the book's side the stop trades with.
    w.limit(maker, 'SELL', '20000', '1');
    w.limit(other, 'BUY', '20000', '1');
    w.limit(maker, bookSide, '10000', '2');
    const stop = w.place(trader, { type: 'STOP', side, base_size: '0.0001', stop_trigger_price: '10000', order_stop_type: stopType });
    expect(stop).toMatchObject({ status: 'SCHEDULED' });
    w.exchange.takeChanges();

    // A trade at 10000 triggers it; 1 BTC at 10000 is left for it, where 0.0001 BTC is 1 VND.
    w.limit(other, side === 'SELL' ? 'SELL' : 'BUY', '10000', '1');
    const row = (w.exchange.takeChanges().orders ?? []).filter((o) => o.userId === trader).at(-1);
    // Observed: DONE FILLED, 0.0001 BTC for 1 VND.
    expect(row).toMatchObject({ type: 'STOP', status: 'DONE', doneReason: 'CANCELED', rejectReason: 'E0110_ValueOutOfRange', filledBaseSize: '0', holdRemaining: 0n });
  });
});
