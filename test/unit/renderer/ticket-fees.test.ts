import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import type { BookLevel } from '../../../src-shared/protocol/records';
import { Exchange, FEE_ACCOUNT_ID } from '../../../src-main/venue/exchange/exchange';
import { orderBookRecord } from '../../../src-main/venue/api/records';
import { EMPTY_TICKET, checkTicket, type TicketContext, type TicketForm } from '../../../src-renderer/features/ticket/ticket-check';

const NOW = 1_800_000_000_000_000_000n;
const rich = (asks: BookLevel[], bids: BookLevel[] = []): TicketContext => ({
  now: NOW,
  balances: [
    { asset: 'VND', balance: '10000000000', free: '10000000000', locked: '0' },
    { asset: 'BTC', balance: '10', free: '10', locked: '0' },
  ],
  makerFeeRate: '0.001',
  takerFeeRate: '0.002',
  bids,
  asks,
});
// One lot (0.0001 BTC) at 2,502,500,000 is 250,250 VND, whose 0.2% fee is 500.5: the venue charges 500 a fill.
const level = (size: string, orders: number): BookLevel => ({ price: '2502500000', size, order_count: orders });
const market = (patch: Partial<TicketForm>): TicketForm => ({ ...EMPTY_TICKET, type: 'MARKET', ...patch });

describe('order ticket fee, as the venue charges it: per fill, each rounded down', () => {
  it('charges a level of one-lot orders one lot at a time', () => {
    // Two orders of 0.0001 BTC each: two fills of 250,250, fees 500 + 500, not 0.2% of 500,500 rounded once (1,001).
    const buy = checkTicket(market({ size: '0.0002' }), rich([level('0.0002', 2)]));
    expect(buy.estimate).toMatchObject({ notional: '500500', fee: '1000', total: '501500', fromBook: true });
    expect(buy.estimate?.leastFee).toBeUndefined();
    const sell = checkTicket(market({ side: 'SELL', size: '0.0002' }), rich([], [level('0.0002', 2)]));
    expect(sell.estimate).toMatchObject({ notional: '500500', fee: '1000', total: '499500' });
  });

  it("gives the range the fills can come to when the book shown does not say how a level's orders split", () => {
    // 0.0004 BTC in two orders: 1 + 3 lots charge 500 + 1,501, and 2 + 2 charge 1,001 + 1,001.
    const buy = checkTicket(market({ size: '0.0004' }), rich([level('0.0004', 2)]));
    expect(buy.estimate).toMatchObject({ notional: '1001000', fee: '2002', total: '1003002', leastFee: { fee: '2001', total: '1003001' } });
    // One order is one fill: exact.
    expect(checkTicket(market({ size: '0.0004' }), rich([level('0.0004', 1)])).estimate).toMatchObject({ fee: '2002' });
    expect(checkTicket(market({ size: '0.0004' }), rich([level('0.0004', 1)])).estimate?.leastFee).toBeUndefined();
    // A sell raises the most at the least fee.
    const sell = checkTicket(market({ side: 'SELL', size: '0.0004' }), rich([], [level('0.0004', 2)]));
    expect(sell.estimate).toMatchObject({ fee: '2002', total: '998998', leastFee: { fee: '2001', total: '998999' } });
  });

  it('keeps the fee and what the venue keeps of an exact-quote order apart by the same rule', () => {
    // 0.0002 BTC for exactly 510,000 VND from two one-lot orders: 500,500 trades, fees 1,000, and the venue keeps 8,500.
    const buy = checkTicket({ ...EMPTY_TICKET, sizeMode: 'exact_quote', size: '510000', exactBase: '0.0002' }, rich([level('0.0002', 2)]));
    expect(buy.estimate).toEqual({ notional: '500500', fee: '1000', kept: '8500', total: '510000', quoteAsset: 'VND', fromBook: true });
  });

  it('charges a quote-sized buy per fill too', () => {
    const buy = checkTicket(market({ sizeMode: 'quote', size: '600000' }), rich([level('0.0002', 2)]));
    expect(buy.estimate).toMatchObject({ notional: '500500', fee: '1000', total: '501500' });
  });

  it('previews what the venue then charges', () => {
    let ids = 0;
    const exchange = new Exchange({ now: () => 1n, newId: () => `id-${++ids}`, maxOpenOrders: 100 });
    exchange.createUser({ isAdmin: false, makerFeeRate: '0', takerFeeRate: '0', id: FEE_ACCOUNT_ID });
    const makers = [0, 1, 2].map(() => exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' }));
    const taker = exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
    const body = (b: Record<string, unknown>) => {
      const parsed = parseCreateOrder({ product_id: 'BTC-VND', ...b }, { now: 1n });
      if (parsed instanceof ApiError) throw parsed;
      return parsed;
    };
    for (const [i, size] of ['0.0001', '0.0001', '0.0003'].entries()) {
      const maker = makers[i];
      if (maker === undefined) throw new Error('no maker');
      exchange.fund(maker.id, 'BTC', 100_000_000n);
      exchange.place(maker.id, body({ side: 'SELL', limit_price: '2502500000', base_size: size }));
    }
    exchange.fund(taker.id, 'VND', 10_000_000_000n);
    const book = orderBookRecord(exchange.markets.get('BTC-VND') as NonNullable<ReturnType<typeof exchange.markets.get>>, 50, 1n);
    expect(book.asks).toEqual([{ price: '2502500000', size: '0.0005', order_count: 3 }]);
    const preview = checkTicket(market({ size: '0.0004' }), rich(book.asks)).estimate;
    const { processed } = exchange.place(taker.id, body({ side: 'BUY', type: 'MARKET', base_size: '0.0004' }));
    // Fills of 1, 1 and 2 lots: 500 + 500 + 1,001.
    expect(processed.row.feeTotal).toBe('2001');
    const least = BigInt(preview?.leastFee?.fee ?? preview?.fee ?? '-1');
    const most = BigInt(preview?.fee ?? '-1');
    expect(least <= 2001n && 2001n <= most).toBe(true);
  });
});
