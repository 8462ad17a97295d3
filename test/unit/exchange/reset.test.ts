import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import { Exchange, FEE_ACCOUNT_ID, STARTING_BALANCES_KEY } from '../../../src-main/venue/exchange/exchange';

function order(body: Record<string, unknown>) {
  const request = parseCreateOrder({ product_id: 'BTC-VND', ...body }, { now: 1n });
  if (request instanceof ApiError) throw request;
  return request;
}

describe('simulator reset', () => {
  it('cancels every order, returns every account to its starting funds and empties the fee account', () => {
    let ids = 0;
    const exchange = new Exchange({ now: () => 1n, newId: () => `id-${++ids}`, maxOpenOrders: 100 });
    exchange.createUser({ isAdmin: false, makerFeeRate: '0', takerFeeRate: '0', id: FEE_ACCOUNT_ID });
    const maker = exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
    const taker = exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
    exchange.fund(maker.id, 'BTC', 100_000_000n);
    exchange.fund(taker.id, 'VND', 10_000_000_000n);
    const firstChanges = exchange.takeChanges();
    expect(JSON.parse(firstChanges.meta?.[STARTING_BALANCES_KEY] ?? '{}')).toEqual({
      [maker.id]: { BTC: '100000000' },
      [taker.id]: { VND: '10000000000' },
    });

    exchange.place(maker.id, order({ side: 'SELL', limit_price: '2500000000', base_size: '0.5' }));
    exchange.place(taker.id, order({ side: 'BUY', limit_price: '2500000000', base_size: '0.2' }));
    exchange.place(taker.id, order({ side: 'BUY', limit_price: '2000000000', base_size: '0.1' }));
    expect(exchange.ledger.balance(FEE_ACCOUNT_ID, 'VND').free).toBeGreaterThan(0n);

    exchange.reset();
    expect(exchange.activeOrders(maker.id, {})).toEqual([]);
    expect(exchange.activeOrders(taker.id, {})).toEqual([]);
    expect(exchange.ledger.balance(maker.id, 'BTC')).toEqual({ free: 100_000_000n, locked: 0n });
    expect(exchange.ledger.balance(maker.id, 'VND')).toEqual({ free: 0n, locked: 0n });
    expect(exchange.ledger.balance(taker.id, 'VND')).toEqual({ free: 10_000_000_000n, locked: 0n });
    expect(exchange.ledger.balance(taker.id, 'BTC')).toEqual({ free: 0n, locked: 0n });
    expect(exchange.ledger.balance(FEE_ACCOUNT_ID, 'VND')).toEqual({ free: 0n, locked: 0n });
    const rows = exchange.takeChanges().orders ?? [];
    expect(rows.filter((r) => r.status === 'DONE' && r.doneReason === 'CANCELED')).toHaveLength(2);
  });
});
