// POST /api/v1/orders (interface 4.2, contract "Order status vocabulary" and "Order semantics"): what each kind
// of order does to the book, the order record and the balances. BTC-VND: 1 tick × 1 lot = 1 VND, so the
// notional of price × size is exact; fees are maker 0.001 and taker 0.002 of it, rounded down to the VND.
import { describe, expect, it } from 'vitest';
import {
  BTC,
  P,
  activeOrders,
  atoms,
  balanceOf,
  expectError,
  expectOk,
  getAccount,
  getOrder,
  holding,
  limit,
  placeOrder,
  px,
  useVenue,
  type TestVenue,
  type Trader,
  type WireOrderBook,
} from '../harness';

const venue = useVenue({ cleanBooks: true });

async function pair(v: TestVenue): Promise<{ maker: Trader; taker: Trader }> {
  const maker = await v.newTrader({ BTC: '1', VND: '1000000000' });
  const taker = await v.newTrader({ BTC: '1', VND: '1000000000' });
  return { maker, taker };
}

async function book(v: TestVenue): Promise<WireOrderBook> {
  return expectOk(await v.call<{ orderbook: WireOrderBook }>('GET', `/products/${BTC}/orderbook`)).orderbook;
}

async function balances(v: TestVenue, t: Trader): Promise<{ btc: bigint; vnd: bigint; lockedBtc: bigint; lockedVnd: bigint }> {
  const account = await getAccount(v, t);
  const btc = balanceOf(account, 'BTC');
  const vnd = balanceOf(account, 'VND');
  return { btc: btc.balance, vnd: vnd.balance, lockedBtc: btc.locked, lockedVnd: vnd.locked };
}

describe('a limit order that rests', () => {
  it('with wait true answers ACTIVE with every field of the request echoed', async () => {
    const v = venue();
    const { maker } = await pair(v);
    const order = await placeOrder(v, maker, limit('BUY', px(-10), '0.01', { client_order_id: 'rest-1' }));
    expect(order).toMatchObject({
      status: 'ACTIVE',
      done_reason: '',
      client_order_id: 'rest-1',
      user_id: maker.userId,
      product_id: BTC,
      side: 'BUY',
      type: 'LIMIT',
      time_in_force: 'GTC',
      post_only: 'false',
      stp: 'CANCEL_TAKER',
      limit_price: px(-10),
      base_size: '0.01',
      quote_size: '0',
      exact_quote_size: '0',
      average_fill_price: '0',
      filled_base_size: '0',
      filled_quote_size: '0',
      maker_fee_rate: '0.001',
      taker_fee_rate: '0.002',
      fee_asset_id: 'VND',
      expired_at: '0',
      scheduled_at: '0',
      trades: [],
    });
    expect(BigInt(order.created_at)).toBeGreaterThan(0n);
    expect(BigInt(order.updated_at)).toBeGreaterThanOrEqual(BigInt(order.created_at));
    const b = await book(v);
    expect(b.bids[0]).toMatchObject({ price: px(-10), size: '0.01', order_count: 1 });
  });

  it('with wait absent or false answers SUBMITTED, and the order is then on the book', async () => {
    const v = venue();
    const { maker } = await pair(v);
    for (const wait of [undefined, false]) {
      const reply = await v.call<{ order: unknown }>('POST', '/api/v1/orders', {
        key: maker.creds,
        body: { ...limit('SELL', px(10), '0.01'), ...(wait === undefined ? {} : { wait }) },
      });
      const order = expectOk(reply).order as { status: string; order_id: string };
      expect(order.status).toBe('SUBMITTED');
      expect((await getOrder(v, maker, order.order_id)).status).toBe('ACTIVE');
    }
    expect((await activeOrders(v, maker)).map((o) => o.status)).toEqual(['ACTIVE', 'ACTIVE']);
  });
});

describe('a crossing limit order', () => {
  it('fills against the best prices, with trades, fees, average price and balances exact', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    const ask1 = await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    const ask2 = await placeOrder(v, maker, limit('SELL', px(1), '0.01'));
    const makerBefore = await balances(v, maker);
    const takerBefore = await balances(v, taker);

    const order = await placeOrder(v, taker, limit('BUY', px(1), '0.02'));
    expect(order).toMatchObject({
      status: 'DONE',
      done_reason: 'FILLED',
      filled_base_size: '0.02',
      filled_quote_size: '50000100', // 25,000,000 + 25,000,100
      average_fill_price: '2500005000',
    });
    expect(order.trades).toHaveLength(2);
    expect(order.trades.map((t) => [t.price, t.size, t.fee_asset, t.fee_amount, t.liquidity_indicator])).toEqual([
      [px(0), '0.01', 'VND', '50000', 'TAKER'],
      [px(1), '0.01', 'VND', '50000', 'TAKER'], // 50,000.2 rounded down
    ]);

    for (const ask of [ask1, ask2]) {
      const done = await getOrder(v, maker, ask.order_id);
      expect(done).toMatchObject({ status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.01' });
      expect(done.trades).toHaveLength(1);
      expect(done.trades[0]).toMatchObject({ liquidity_indicator: 'MAKER', fee_amount: '25000', fee_asset: 'VND' });
    }

    const makerAfter = await balances(v, maker);
    const takerAfter = await balances(v, taker);
    expect(takerAfter.vnd - takerBefore.vnd).toBe(-(50_000_100n + 100_000n));
    expect(takerAfter.btc - takerBefore.btc).toBe(2_000_000n);
    expect(makerAfter.vnd - makerBefore.vnd).toBe(50_000_100n - 50_000n);
    expect(makerAfter.btc - makerBefore.btc).toBe(-2_000_000n);
    expect([takerAfter.lockedVnd, makerAfter.lockedBtc]).toEqual([0n, 0n]);
  });

  it('fills resting orders at one price in arrival order', async () => {
    const v = venue();
    const { maker: first, taker } = await pair(v);
    const second = await v.newTrader({ BTC: '1' });
    const early = await placeOrder(v, first, limit('SELL', px(0), '0.01'));
    const late = await placeOrder(v, second, limit('SELL', px(0), '0.01'));
    await placeOrder(v, taker, limit('BUY', px(0), '0.015'));
    expect(await getOrder(v, first, early.order_id)).toMatchObject({ status: 'DONE', filled_base_size: '0.01' });
    expect(await getOrder(v, second, late.order_id)).toMatchObject({ status: 'ACTIVE', filled_base_size: '0.005' });
  });

  it('rests what it cannot fill, at its own limit price', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    const order = await placeOrder(v, taker, limit('BUY', px(0), '0.03'));
    expect(order).toMatchObject({ status: 'ACTIVE', filled_base_size: '0.01', filled_quote_size: '25000000' });
    expect(order.trades).toHaveLength(1);
    const b = await book(v);
    expect(b.asks).toEqual([]);
    expect(b.bids[0]).toMatchObject({ price: px(0), size: '0.02', order_count: 1 });
  });
});

describe('market orders', () => {
  it('BUY by base_size walks the asks and defaults to IOC', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    await placeOrder(v, maker, limit('SELL', px(1), '0.01'));
    const before = await balances(v, taker);
    const order = await placeOrder(v, taker, { product_id: BTC, side: 'BUY', type: 'MARKET', base_size: '0.015' });
    expect(order).toMatchObject({
      type: 'MARKET',
      time_in_force: 'IOC',
      limit_price: '0',
      status: 'DONE',
      done_reason: 'FILLED',
      filled_base_size: '0.015',
      filled_quote_size: '37500050',
    });
    const after = await balances(v, taker);
    expect(after.vnd - before.vnd).toBe(-(37_500_050n + 50_000n + 25_000n));
    expect(after.btc - before.btc).toBe(1_500_000n);
    expect(after.lockedVnd).toBe(0n);
  });

  it('BUY by base_size meets the trader’s own ask first: self-trade prevention as for any order, the rest of the book as held', async () => {
    const v = venue();
    const trader = await v.newTrader({ BTC: '1', VND: '100000000000' });
    const other = await v.newTrader({ BTC: '1' });
    const own = await placeOrder(v, trader, limit('SELL', px(0), '0.0003'));
    await placeOrder(v, other, limit('SELL', px(1), '0.0007'));
    const market = (stp: string) => placeOrder(v, trader, { product_id: BTC, side: 'BUY', type: 'MARKET', base_size: '0.001', stp });
    // CANCEL_TAKER (the default): the buy ends at its own ask, saying so; nothing trades.
    expect(await market('CANCEL_TAKER')).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0204_SelfTradePrevented', filled_base_size: '0' });
    // CANCEL_MAKER: its own ask goes, and it buys the other's 0.0007.
    expect(await market('CANCEL_MAKER')).toMatchObject({ status: 'DONE', filled_base_size: '0.0007' });
    expect((await getOrder(v, trader, own.order_id)).reject_reason).toBe('E0204_SelfTradePrevented');
    const vnd = balanceOf(await getAccount(v, trader), 'VND');
    expect(vnd.locked).toBe(0n);
  });

  it('SELL by base_size hits the bids', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    await placeOrder(v, maker, limit('BUY', px(0), '0.01'));
    const before = await balances(v, taker);
    const order = await placeOrder(v, taker, { product_id: BTC, side: 'SELL', type: 'MARKET', base_size: '0.01', time_in_force: 'IOC' });
    expect(order).toMatchObject({ status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.01', average_fill_price: String(P) });
    const after = await balances(v, taker);
    expect(after.vnd - before.vnd).toBe(25_000_000n - 50_000n);
    expect(after.btc - before.btc).toBe(-1_000_000n);
  });

  it('BUY by quote_size spends at most that quote, fees included', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    const before = await balances(v, taker);
    // 10,000,000 of notional (0.004 BTC) plus its 20,000 fee is exactly 10,020,000.
    const order = await placeOrder(v, taker, { product_id: BTC, side: 'BUY', type: 'MARKET', quote_size: '10020000' });
    expect(order).toMatchObject({ status: 'DONE', quote_size: '10020000', base_size: '0', filled_base_size: '0.004', filled_quote_size: '10000000' });
    const after = await balances(v, taker);
    expect(after.vnd - before.vnd).toBe(-10_020_000n);
    expect(after.btc - before.btc).toBe(400_000n);
    expect(after.lockedVnd).toBe(0n);
  });

  it('SELL by quote_size receives that quote, fees included', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    await placeOrder(v, maker, limit('BUY', px(0), '0.01'));
    const before = await balances(v, taker);
    // 0.004 BTC at P is 10,000,000; less the 20,000 taker fee that is 9,980,000.
    const order = await placeOrder(v, taker, { product_id: BTC, side: 'SELL', type: 'MARKET', quote_size: '9980000' });
    expect(order).toMatchObject({ status: 'DONE', filled_base_size: '0.004', filled_quote_size: '10000000' });
    const after = await balances(v, taker);
    expect(after.vnd - before.vnd).toBe(9_980_000n);
    expect(after.btc - before.btc).toBe(-400_000n);
    expect(after.lockedBtc).toBe(0n);
  });

  it('SELL by quote_size meets the trader’s own bid before its quote is raised: self-trade prevention as for any order', async () => {
    const v = venue();
    const trader = await v.newTrader({ BTC: '1', VND: '100000000' });
    const other = await v.newTrader({ VND: '1000000000' });
    // 0.0002 BTC at P+1 raises 500,002 less its 1,000 fee; the quote needs more, and the trader's own bid is next.
    await placeOrder(v, other, limit('BUY', px(1), '0.0002'));
    const own = await placeOrder(v, trader, limit('BUY', px(0), '0.0003'));
    await placeOrder(v, other, limit('BUY', px(-1), '0.01'));
    const sell = (stp: string) => placeOrder(v, trader, { product_id: BTC, side: 'SELL', type: 'MARKET', quote_size: '1000000', stp });
    // CANCEL_TAKER: it sells what comes before its own bid, then ends saying why; the bid stays.
    expect(await sell('CANCEL_TAKER')).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0204_SelfTradePrevented', filled_base_size: '0.0002' });
    expect(await getOrder(v, trader, own.order_id)).toMatchObject({ status: 'ACTIVE' });
    // CANCEL_BOTH: its own bid goes too.
    expect(await sell('CANCEL_BOTH')).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0204_SelfTradePrevented', filled_base_size: '0' });
    expect(await getOrder(v, trader, own.order_id)).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0204_SelfTradePrevented' });
    const btc = balanceOf(await getAccount(v, trader), 'BTC');
    expect(btc.locked).toBe(0n);
  });

  it('SELL by quote_size that the bids cannot raise sells them all and is CANCELED, not FILLED', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    await placeOrder(v, maker, limit('BUY', px(0), '0.0002'));
    const before = await balances(v, taker);
    const order = await placeOrder(v, taker, { product_id: BTC, side: 'SELL', type: 'MARKET', quote_size: '1000000' });
    // 0.0002 BTC raises 500,000 less its 1,000 fee: short of the 1,000,000 asked for.
    expect(order).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', filled_base_size: '0.0002', filled_quote_size: '500000' });
    const after = await balances(v, taker);
    expect(after.vnd - before.vnd).toBe(499_000n);
    expect(after.lockedBtc).toBe(0n);
  });

  it('by base_size whose fill at the book’s prices is below min_notional is refused, 400 E0110, as the LIMIT order for it is', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    // 1 BTC at 10000: 0.0001 BTC of it is a trade of 1 VND, where min_notional is 10000 (it traded, fee 0).
    await placeOrder(v, maker, limit('SELL', '10000', '1'));
    const post = (body: Record<string, unknown>) => v.call<{ error: { message: string } }>('POST', '/api/v1/orders', { key: taker.creds, body: { product_id: BTC, side: 'BUY', wait: true, ...body } });
    const limited = await post({ limit_price: '10000', base_size: '0.0001' });
    expectError(limited, 400, 'E0110_ValueOutOfRange');
    expect(limited.body.error.message).toContain('below the minimum notional 10000');
    const market = await post({ type: 'MARKET', base_size: '0.0001' });
    expectError(market, 400, 'E0110_ValueOutOfRange');
    expect(market.body.error.message).toBe("E0110_ValueOutOfRange: what it would fill at the book's prices (0.0001 for 1): below the minimum notional 10000");
    expect((await getAccount(v, taker)).stats.order_stats.total_orders).toBe('0');
    expect((await book(v)).asks).toMatchObject([{ price: '10000', size: '1' }]);
  });

  it('on an empty book trades nothing and is done', async () => {
    const v = venue();
    const { taker } = await pair(v);
    const before = await balances(v, taker);
    const order = await placeOrder(v, taker, { product_id: 'SOL-VND', side: 'SELL', type: 'MARKET', base_size: '1' });
    expect(order).toMatchObject({ status: 'DONE', filled_base_size: '0', trades: [] });
    expect(await balances(v, taker)).toEqual(before);
  });
});

describe('time in force', () => {
  it('IOC fills what it can and cancels the rest; nothing rests', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    const order = await placeOrder(v, taker, limit('BUY', px(0), '0.03', { time_in_force: 'IOC' }));
    expect(order).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', time_in_force: 'IOC', filled_base_size: '0.01' });
    const b = await book(v);
    expect([b.bids, b.asks]).toEqual([[], []]);
    expect((await balances(v, taker)).lockedVnd).toBe(0n);
  });

  it('FOK fills completely across levels', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    await placeOrder(v, maker, limit('SELL', px(1), '0.01'));
    const order = await placeOrder(v, taker, limit('BUY', px(1), '0.02', { time_in_force: 'FOK' }));
    expect(order).toMatchObject({ status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.02' });
    expect(order.trades).toHaveLength(2);
  });

  it('FOK that cannot fill completely trades nothing at all', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    const ask = await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    const before = await balances(v, taker);
    const order = await placeOrder(v, taker, limit('BUY', px(0), '0.02', { time_in_force: 'FOK' }));
    expect(order).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0203_FillOrKillNotFilled', filled_base_size: '0', trades: [] });
    expect(await balances(v, taker)).toEqual(before);
    expect(await getOrder(v, maker, ask.order_id)).toMatchObject({ status: 'ACTIVE', filled_base_size: '0' });
  });
});

describe('post_only', () => {
  it('rests when it would not take', async () => {
    const v = venue();
    const { maker } = await pair(v);
    const order = await placeOrder(v, maker, limit('BUY', px(-1), '0.01', { post_only: true }));
    expect(order).toMatchObject({ status: 'ACTIVE', post_only: 'true' });
  });

  it('is rejected with HTTP 200, DONE REJECTED E0202, when it would take', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    const before = await balances(v, taker);
    const order = await placeOrder(v, taker, limit('BUY', px(0), '0.01', { post_only: true }));
    expect(order).toMatchObject({ status: 'DONE', done_reason: 'REJECTED', reject_reason: 'E0202_PostOnlyWouldMatch', trades: [] });
    expect(await balances(v, taker)).toEqual(before);
    expect((await book(v)).asks[0]).toMatchObject({ price: px(0), size: '0.01' });
  });
});

describe('insufficient balance', () => {
  it('is HTTP 200 with DONE REJECTED E0201_InsufficientBalance, and nothing is held', async () => {
    const v = venue();
    const poor = await v.newTrader({ BTC: '0.001', VND: '1000000' });
    const before = await balances(v, poor);
    const buy = await placeOrder(v, poor, limit('BUY', px(0), '0.01'));
    expect(buy).toMatchObject({ status: 'DONE', done_reason: 'REJECTED', reject_reason: 'E0201_InsufficientBalance' });
    const sell = await placeOrder(v, poor, limit('SELL', px(0), '0.01'));
    expect(sell).toMatchObject({ status: 'DONE', done_reason: 'REJECTED', reject_reason: 'E0201_InsufficientBalance' });
    expect(await balances(v, poor)).toEqual(before);
    expect(await activeOrders(v, poor)).toEqual([]);
  });

  it('counts the fee: exactly the notional without its fee is not enough for a buy', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '25000000' });
    const order = await placeOrder(v, trader, limit('BUY', px(0), '0.01'));
    expect(order).toMatchObject({ status: 'DONE', reject_reason: 'E0201_InsufficientBalance' });
    const enough = await v.newTrader({ VND: '25050000' }); // 25,000,000 + 0.002 of it
    expect((await placeOrder(v, enough, limit('BUY', px(0), '0.01'))).status).toBe('ACTIVE');
  });
});

describe('concurrent orders', () => {
  it('never spend the same balance twice', async () => {
    const v = venue();
    // Enough for one 0.01 buy at P with its fee, not for two.
    const t = await v.newTrader({ VND: '30000000', BTC: '0.015' });
    const buys = await Promise.all([1, 2, 3, 4].map(() => placeOrder(v, t, limit('BUY', px(-1), '0.01'))));
    const sells = await Promise.all([1, 2].map(() => placeOrder(v, t, limit('SELL', px(1), '0.01'))));
    for (const batch of [buys, sells]) {
      expect(batch.filter((o) => o.status === 'ACTIVE')).toHaveLength(1);
      expect(batch.filter((o) => o.reject_reason === 'E0201_InsufficientBalance')).toHaveLength(batch.length - 1);
    }
    const account = await getAccount(v, t);
    expect(balanceOf(account, 'BTC')).toEqual({ balance: 1_500_000n, free: 500_000n, locked: 1_000_000n });
    const vnd = balanceOf(account, 'VND');
    expect(vnd.free).toBeGreaterThanOrEqual(0n);
    expect(vnd.free + vnd.locked).toBe(30_000_000n);
  });
});

describe('exact_quote_size (LIMIT FOK, limit_price 0)', () => {
  const exact = (side: 'BUY' | 'SELL', quote: string) => ({
    product_id: BTC,
    side,
    type: 'LIMIT',
    time_in_force: 'FOK',
    limit_price: '0',
    base_size: '0.01',
    exact_quote_size: quote,
  });

  it('BUY: the quote balance falls by exactly exact_quote_size', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    const before = await balances(v, taker);
    const order = await placeOrder(v, taker, exact('BUY', '25100000'));
    expect(order).toMatchObject({ status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.01', exact_quote_size: '25100000' });
    const after = await balances(v, taker);
    expect(after.vnd - before.vnd).toBe(-25_100_000n);
    expect(after.btc - before.btc).toBe(1_000_000n);
    expect(after.lockedVnd).toBe(0n);
  });

  it('SELL: the quote balance rises by exactly exact_quote_size', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    await placeOrder(v, maker, limit('BUY', px(0), '0.01'));
    const before = await balances(v, taker);
    const order = await placeOrder(v, taker, exact('SELL', '24900000'));
    expect(order).toMatchObject({ status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.01' });
    const after = await balances(v, taker);
    expect(after.vnd - before.vnd).toBe(24_900_000n);
    expect(after.btc - before.btc).toBe(-1_000_000n);
  });

  it('trades nothing when the book cannot fill base_size within the amount, and is DONE CANCELED E0203 like a FOK', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    const ask = await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    const before = await balances(v, taker);
    // 25,000,000 covers the notional but not its 50,000 fee.
    const order = await placeOrder(v, taker, exact('BUY', '25000000'));
    expect(order).toMatchObject({
      status: 'DONE',
      done_reason: 'CANCELED',
      reject_reason: 'E0203_FillOrKillNotFilled',
      filled_base_size: '0',
      trades: [],
    });
    // The stored record says the same as the answer to the POST.
    expect(await getOrder(v, taker, order.order_id)).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0203_FillOrKillNotFilled' });
    expect(await balances(v, taker)).toEqual(before);
    expect(await getOrder(v, maker, ask.order_id)).toMatchObject({ status: 'ACTIVE', filled_base_size: '0' });
  });

  it('a SELL the bids cannot fill within the amount is DONE CANCELED E0203 too', async () => {
    const v = venue();
    const { maker, taker } = await pair(v);
    await placeOrder(v, maker, limit('BUY', px(0), '0.01'));
    const before = await balances(v, taker);
    // 0.01 at P after its 50,000 fee brings 24,950,000, short of what is asked.
    const order = await placeOrder(v, taker, exact('SELL', '24960000'));
    expect(order).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0203_FillOrKillNotFilled', filled_base_size: '0', trades: [] });
    expect(await balances(v, taker)).toEqual(before);
  });
});

describe('self-trade prevention between two orders of one user', () => {
  it('CANCEL_TAKER (the default) cancels the incoming order and keeps the resting one', async () => {
    const v = venue();
    const { maker } = await pair(v);
    const before = await balances(v, maker);
    const resting = await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    for (const stp of [undefined, 'CANCEL_TAKER']) {
      const taker = await placeOrder(v, maker, limit('BUY', px(0), '0.01', stp === undefined ? {} : { stp }));
      expect(taker).toMatchObject({ stp: 'CANCEL_TAKER', status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0204_SelfTradePrevented', trades: [] });
    }
    expect(await getOrder(v, maker, resting.order_id)).toMatchObject({ status: 'ACTIVE', filled_base_size: '0' });
    await v.cancelEverything();
    expect(await balances(v, maker)).toEqual(before);
  });

  it('CANCEL_MAKER cancels the resting order and the incoming one trades on', async () => {
    const v = venue();
    const { maker: self, taker: other } = await pair(v);
    const own = await placeOrder(v, self, limit('SELL', px(0), '0.01'));
    await placeOrder(v, other, limit('SELL', px(0), '0.01'));
    const taker = await placeOrder(v, self, limit('BUY', px(0), '0.01', { stp: 'CANCEL_MAKER' }));
    expect(taker).toMatchObject({ stp: 'CANCEL_MAKER', status: 'DONE', done_reason: 'FILLED', reject_reason: '', filled_base_size: '0.01' });
    expect(taker.trades).toHaveLength(1);
    expect(await getOrder(v, self, own.order_id)).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0204_SelfTradePrevented', filled_base_size: '0' });
    expect((await balances(v, self)).lockedBtc).toBe(0n);
  });

  it('CANCEL_BOTH cancels both orders', async () => {
    const v = venue();
    const { maker } = await pair(v);
    const before = await balances(v, maker);
    const own = await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    const taker = await placeOrder(v, maker, limit('BUY', px(0), '0.01', { stp: 'CANCEL_BOTH' }));
    expect(taker).toMatchObject({ stp: 'CANCEL_BOTH', status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0204_SelfTradePrevented', trades: [] });
    expect(await getOrder(v, maker, own.order_id)).toMatchObject({ status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0204_SelfTradePrevented' });
    expect(await balances(v, maker)).toEqual(before);
    const b = await book(v);
    expect([b.bids, b.asks]).toEqual([[], []]);
  });
});

describe('other products', () => {
  it.each([
    ['ETH-VND', '90000000', '0.5', 'ETH'],
    ['SOL-VND', '4000000', '2.5', 'SOL'],
  ])('%s trades with its own increments and assets', async (product, price, size, base) => {
    const v = venue();
    const seller = await v.newTrader({ [base]: '10' });
    const buyer = await v.newTrader({ VND: '1000000000' });
    await placeOrder(v, seller, { product_id: product, side: 'SELL', limit_price: price, base_size: size });
    const order = await placeOrder(v, buyer, { product_id: product, side: 'BUY', limit_price: price, base_size: size });
    expect(order).toMatchObject({ status: 'DONE', done_reason: 'FILLED', product_id: product, filled_base_size: size, fee_asset_id: 'VND' });
    expect(await holding(v, buyer, base)).toBe(atoms(size, 8));
  });
});
