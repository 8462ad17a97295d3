// What the clock's expiry sweep looks at. A GTT order ends at its expired_at, and the sweep that ends it runs in
// every 50 ms tick and as each command comes in (expireDue), when an expiry is due: with the sweep walking every order that waits on the
// clock, each such place cost a walk of thousands of orders an hour from expiring (review-e p3). Whether the sweep
// looks at an order is seen through the order's own row: deciding whether an order is due means reading its
// expired_at, so a row whose expired_at counts its reads tells whether the sweep consulted it.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import { Exchange, FEE_ACCOUNT_ID } from '../../../src-main/venue/exchange/exchange';
import type { OrderRow } from '../../../src-main/venue/store';

const MS = 1_000_000n;
const HOUR_MS = 3_600_000n;

function world() {
  let clock = 1_700_000_000_000_000_000n;
  let ids = 0;
  const exchange = new Exchange({ now: () => clock, newId: () => `00000000-0000-4000-8000-${(++ids).toString().padStart(12, '0')}`, maxOpenOrders: 100_000 });
  exchange.createUser({ isAdmin: false, makerFeeRate: '0', takerFeeRate: '0', id: FEE_ACCOUNT_ID });
  const trader = exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' }).id;
  exchange.deposit(trader, 'VND', 10n ** 15n);
  /** A GTT bid of 0.0001 BTC at `ticks` 10000-VND increments, expiring `inMs` from now. */
  const bid = (ticks: number, inMs: bigint, clientOrderId?: string) => {
    const body = { product_id: 'BTC-VND', side: 'BUY', type: 'LIMIT', limit_price: String(ticks * 10000), base_size: '0.0001', time_in_force: 'GTT', expired_at: String(clock + inMs * MS) };
    const request = parseCreateOrder(clientOrderId === undefined ? body : { ...body, client_order_id: clientOrderId }, { now: clock });
    if (request instanceof ApiError) throw request;
    // As the venue does as each command comes in (Venue.run).
    exchange.expireDue();
    return exchange.place(trader, request).processed;
  };
  return {
    exchange,
    trader,
    bid,
    advance: (ms: bigint) => {
      clock += ms * MS;
    },
  };
}

/** Counts every read of the rows' expired_at from now on. */
function countExpiryReads(rows: readonly OrderRow[]): { reads: number } {
  const counter = { reads: 0 };
  for (const row of rows) {
    const value = row.expiredAt;
    Object.defineProperty(row, 'expiredAt', {
      configurable: true,
      enumerable: true,
      get: () => {
        counter.reads += 1;
        return value;
      },
    });
  }
  return counter;
}

describe('the expiry sweep', () => {
  it('ends what is due without looking at the orders an hour from expiring', () => {
    const w = world();
    const far = Array.from({ length: 5000 }, (_, i) => w.bid(100_000 + (i % 1000), HOUR_MS).row);
    // GTT orders filled or cancelled before their time leave nothing due behind them.
    const gone = w.bid(100_500, 2n);
    w.exchange.cancel(w.trader, { orderId: gone.row.orderId });
    w.exchange.takeChanges();
    const watched = countExpiryReads(far);

    const short = w.bid(110_000, 1n, 'short');
    w.advance(3n); // past the short order's expired_at and the cancelled one's; the clock has not ticked
    w.bid(110_001, HOUR_MS, 'next');
    expect(w.exchange.activeOrders(w.trader, { clientOrderId: 'short' })).toEqual([]);
    expect(short.row).toMatchObject({ status: 'DONE', doneReason: 'EXPIRED' });
    // Observed before: 5000, the place walked every order on the clock.
    expect(watched.reads).toBe(0);

    for (let i = 0; i < 20; i++) {
      w.bid(110_002 + i, 1n);
      w.advance(50n);
      w.exchange.tick();
    }
    // Observed before: 5000 a tick.
    expect(watched.reads).toBe(0);
    expect(w.exchange.activeOrders(w.trader, {})).toHaveLength(5001);

    w.advance(HOUR_MS);
    w.exchange.tick();
    expect(w.exchange.activeOrders(w.trader, {})).toEqual([]);
    expect(far.every((row) => row.status === 'DONE' && row.doneReason === 'EXPIRED')).toBe(true);
    expect(w.exchange.waitingOnClock).toBe(0);
  });

  it('ends orders in the order of their expired_at, those due together in the order they queue', () => {
    const w = world();
    const late = w.bid(100_000, 30n, 'late');
    const first = w.bid(100_001, 10n, 'first');
    const tiedA = w.bid(100_002, 20n, 'tied-a');
    const tiedB = w.bid(100_003, 20n, 'tied-b');
    w.exchange.takeChanges();
    const ended: string[] = [];
    w.exchange.onOrderEvent(({ row }) => {
      if (row.status === 'DONE') ended.push(row.clientOrderId);
    });
    w.advance(40n);
    w.exchange.tick();
    expect(ended).toEqual(['first', 'tied-a', 'tied-b', 'late']);
    for (const order of [late, first, tiedA, tiedB]) expect(order.row.doneReason).toBe('EXPIRED');
  });
});
