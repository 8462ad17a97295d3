// Orders the venue's clock or the tape moves on: GTT expiry, scheduled_at, TWAP slicing, and STOP triggers
// (contract "Order semantics the interface leaves open").
import { describe, expect, it } from 'vitest';
import {
  BTC,
  activeOrders,
  balanceOf,
  expectError,
  expectOk,
  getAccount,
  getOrder,
  limit,
  nanosFromNow,
  orderReaches,
  placeOrder,
  px,
  sleep,
  useVenue,
  type TestVenue,
  type Trader,
  type WireOrderBook,
} from '../harness';

const venue = useVenue({ cleanBooks: true });

describe('GTT', () => {
  it('rests until expired_at, then is DONE EXPIRED and releases its hold', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '1000000000' });
    // Far enough ahead that a loaded machine still reads the hold before the clock ends the order.
    const expiredAt = nanosFromNow(1_500);
    const order = await placeOrder(v, trader, limit('BUY', px(-10), '0.01', { time_in_force: 'GTT', expired_at: expiredAt }));
    expect(order).toMatchObject({ status: 'ACTIVE', time_in_force: 'GTT', expired_at: expiredAt });
    expect(balanceOf(await getAccount(v, trader), 'VND').locked).toBeGreaterThan(0n);

    const done = await orderReaches(v, trader, order.order_id, 'DONE');
    expect(done).toMatchObject({ done_reason: 'EXPIRED', filled_base_size: '0' });
    expect(await activeOrders(v, trader)).toEqual([]);
    const vnd = balanceOf(await getAccount(v, trader), 'VND');
    expect([vnd.locked, vnd.free]).toEqual([0n, 1_000_000_000n]);
    const book = expectOk(await v.call<{ orderbook: WireOrderBook }>('GET', `/products/${BTC}/orderbook`)).orderbook;
    expect(book.bids).toEqual([]);
  });
});

describe('scheduled_at', () => {
  it('is SCHEDULED until its time, then ACTIVE on the book', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '1000000000' });
    const at = nanosFromNow(300);
    const order = await placeOrder(v, trader, limit('BUY', px(-20), '0.01', { scheduled_at: at }));
    expect(order).toMatchObject({ status: 'SCHEDULED', scheduled_at: at });
    const active = await orderReaches(v, trader, order.order_id, 'ACTIVE');
    expect(active.scheduled_at).toBe(at);
    const book = expectOk(await v.call<{ orderbook: WireOrderBook }>('GET', `/products/${BTC}/orderbook`)).orderbook;
    expect(book.bids[0]).toMatchObject({ price: px(-20), size: '0.01' });
  });
});

describe('scheduled market orders', () => {
  it('hold nothing while SCHEDULED and, at their time, trade against the book they meet then', async () => {
    const v = venue();
    const buyer = await v.newTrader({ VND: '100000000' });
    const seller = await v.newTrader({ BTC: '0.1' });
    const at = nanosFromNow(600);
    // The book is empty now: priced by it, a buy of a size would hold nothing and a sell for an amount sell nothing.
    const buy = await placeOrder(v, buyer, { product_id: BTC, side: 'BUY', type: 'MARKET', base_size: '0.01', scheduled_at: at });
    const sell = await placeOrder(v, seller, { product_id: BTC, side: 'SELL', type: 'MARKET', quote_size: '20000000', scheduled_at: at });
    expect([buy.status, sell.status]).toEqual(['SCHEDULED', 'SCHEDULED']);
    expect(balanceOf(await getAccount(v, buyer), 'VND').locked).toBe(0n);
    expect(balanceOf(await getAccount(v, seller), 'BTC').locked).toBe(0n);
    // Liquidity arrives before their time, from traders of its own.
    const asker = await v.newTrader({ BTC: '0.1' });
    const bidder = await v.newTrader({ VND: '1000000000' });
    await placeOrder(v, asker, limit('SELL', px(1), '0.05'));
    await placeOrder(v, bidder, limit('BUY', px(-1), '0.05'));

    const bought = await orderReaches(v, buyer, buy.order_id, 'DONE');
    expect(bought).toMatchObject({ done_reason: 'FILLED', filled_base_size: '0.01' });
    const sold = await orderReaches(v, seller, sell.order_id, 'DONE');
    expect(sold.done_reason).toBe('FILLED');
    expect(sold.trades.length).toBeGreaterThan(0);
    expect(balanceOf(await getAccount(v, buyer), 'VND').locked).toBe(0n);
    expect(balanceOf(await getAccount(v, seller), 'BTC').locked).toBe(0n);
    expect((await getAccount(v, buyer)).stats.order_stats.total_accepted_orders).toBe('1');
  });

  it('a buy the trader can no longer fund at its time ends DONE CANCELED E0201_InsufficientBalance', async () => {
    const v = venue();
    const buyer = await v.newTrader({ VND: '1000000' });
    const asker = await v.newTrader({ BTC: '0.1' });
    const buy = await placeOrder(v, buyer, { product_id: BTC, side: 'BUY', type: 'MARKET', base_size: '0.01', scheduled_at: nanosFromNow(400) });
    await placeOrder(v, asker, limit('SELL', px(1), '0.05'));
    const done = await orderReaches(v, buyer, buy.order_id, 'DONE');
    expect(done).toMatchObject({ done_reason: 'CANCELED', reject_reason: 'E0201_InsufficientBalance', filled_base_size: '0' });
    const account = await getAccount(v, buyer);
    const vnd = balanceOf(account, 'VND');
    expect([vnd.free, vnd.locked]).toEqual([1_000_000n, 0n]);
    // Its hold was never taken: accepted it was not.
    expect(account.stats.order_stats).toMatchObject({ total_orders: '1', total_accepted_orders: '0' });
  });
});

describe('TWAP', () => {
  const twap = (product: string, price: string, size: string, windowMs: number) => ({
    product_id: product,
    side: 'BUY',
    type: 'TWAP',
    limit_price: price,
    base_size: size,
    expired_at: nanosFromNow(windowMs),
  });

  it('slices base_size over the window and ends DONE FILLED', async () => {
    const v = venue();
    const seller = await v.newTrader({ BTC: '1' });
    const buyer = await v.newTrader({ VND: '1000000000' });
    await placeOrder(v, seller, limit('SELL', px(0), '0.01'));
    const order = await placeOrder(v, buyer, twap(BTC, px(0), '0.002', 2_500));
    expect(order).toMatchObject({ type: 'TWAP', base_size: '0.002' });
    expect(['ACTIVE', 'SCHEDULED']).toContain(order.status);

    const filled = await orderReaches(v, buyer, order.order_id, 'DONE');
    expect(filled).toMatchObject({ done_reason: 'FILLED', filled_base_size: '0.002', filled_quote_size: '5000000' });
    expect(filled.trades.length).toBeGreaterThanOrEqual(2);
    for (const t of filled.trades) expect(t.size).not.toBe('0.002');

    const account = await getAccount(v, buyer);
    expect(balanceOf(account, 'BTC').balance).toBe(200_000n);
    expect(balanceOf(account, 'VND')).toEqual({ balance: 1_000_000_000n - 5_010_000n, free: 1_000_000_000n - 5_010_000n, locked: 0n });
  });

  it('a window of two seconds from the client’s clock is two slices, though it is a little shorter on arrival', async () => {
    const v = venue();
    const seller = await v.newTrader({ BTC: '1' });
    const buyer = await v.newTrader({ VND: '1000000000' });
    await placeOrder(v, seller, limit('SELL', px(0), '0.01'));
    const order = await placeOrder(v, buyer, twap(BTC, px(0), '0.002', 2_000));
    const filled = await orderReaches(v, buyer, order.order_id, 'DONE');
    expect(filled).toMatchObject({ done_reason: 'FILLED', filled_base_size: '0.002' });
    expect(filled.trades.map((t) => t.size)).toEqual(['0.001', '0.001']);
  });

  it('without a price cap, a slice the buyer cannot fund ends it DONE CANCELED E0201_InsufficientBalance, keeping its fills', async () => {
    const v = venue();
    const seller = await v.newTrader({ BTC: '1' });
    // Enough for one slice of 0.001 at px(0) with its fee, not for two.
    const buyer = await v.newTrader({ VND: '3000000' });
    await placeOrder(v, seller, limit('SELL', px(0), '0.01'));
    const order = await placeOrder(v, buyer, twap(BTC, '0', '0.002', 2_000));
    const done = await orderReaches(v, buyer, order.order_id, 'DONE');
    expect(done).toMatchObject({ done_reason: 'CANCELED', reject_reason: 'E0201_InsufficientBalance', filled_base_size: '0.001' });
    expect(BigInt(done.updated_at), 'ended at the unfunded slice, not at the window end').toBeLessThan(BigInt(order.expired_at));
    const vnd = balanceOf(await getAccount(v, buyer), 'VND');
    expect(vnd.locked).toBe(0n);
    expect(vnd.free).toBe(vnd.balance);
  });

  it('a capped buy with asks only above its cap trades nothing, ends DONE EXPIRED and releases its hold', async () => {
    const v = venue();
    const seller = await v.newTrader({ BTC: '1' });
    const buyer = await v.newTrader({ VND: '1000000000' });
    // One tick above the cap: an uncapped slice would take it at once.
    const ask = await placeOrder(v, seller, limit('SELL', px(1), '0.01'));
    const order = await placeOrder(v, buyer, twap(BTC, px(0), '0.002', 2_000));
    const expired = await orderReaches(v, buyer, order.order_id, 'DONE');
    expect(expired).toMatchObject({ done_reason: 'EXPIRED', filled_base_size: '0', filled_quote_size: '0', trades: [] });
    expect(await getOrder(v, seller, ask.order_id)).toMatchObject({ status: 'ACTIVE', filled_base_size: '0' });
    expect(balanceOf(await getAccount(v, buyer), 'VND')).toEqual({ balance: 1_000_000_000n, free: 1_000_000_000n, locked: 0n });
  });

  it('stays listed among the active orders by when it arrived, though each slice moves its priority', async () => {
    const v = venue();
    const seller = await v.newTrader({ BTC: '1' });
    const buyer = await v.newTrader({ VND: '1000000000' });
    await placeOrder(v, seller, limit('SELL', px(1), '0.01'));
    const sliced = await placeOrder(v, buyer, twap(BTC, px(0), '0.003', 3_000));
    const later = await placeOrder(v, buyer, limit('BUY', px(-5), '0.001'));
    // The second slice comes a second after the first: the TWAP's seq is then newer than the later order's.
    await sleep(1_300);
    expect((await activeOrders(v, buyer)).map((o) => o.order_id)).toEqual([sliced.order_id, later.order_id]);
  });

  it('a capped buy takes only the asks at or below its cap, never the ones above', async () => {
    const v = venue();
    const seller = await v.newTrader({ BTC: '1' });
    const buyer = await v.newTrader({ VND: '1000000000' });
    // Three slices of 0.001: the first two find liquidity within the cap, the third finds only px(1).
    await placeOrder(v, seller, limit('SELL', px(-1), '0.001'));
    await placeOrder(v, seller, limit('SELL', px(0), '0.001'));
    const above = await placeOrder(v, seller, limit('SELL', px(1), '0.01'));
    const order = await placeOrder(v, buyer, twap(BTC, px(0), '0.003', 3_000));
    const done = await orderReaches(v, buyer, order.order_id, 'DONE');
    expect(done).toMatchObject({ done_reason: 'EXPIRED', filled_base_size: '0.002', filled_quote_size: '4999990' });
    expect(done.trades.map((t) => [t.price, t.size])).toEqual([
      [px(-1), '0.001'],
      [px(0), '0.001'],
    ]);
    expect(await getOrder(v, seller, above.order_id)).toMatchObject({ status: 'ACTIVE', filled_base_size: '0' });
    // Taker fees 4,999.98 and 5,000, each rounded down to the VND.
    const vnd = balanceOf(await getAccount(v, buyer), 'VND');
    expect(vnd).toEqual({ balance: 1_000_000_000n - 4_999_990n - 9_999n, free: 1_000_000_000n - 4_999_990n - 9_999n, locked: 0n });
  });

  it('with a future scheduled_at waits SCHEDULED, trading nothing, then slices the window from scheduled_at to expired_at', async () => {
    const v = venue();
    const seller = await v.newTrader({ BTC: '1' });
    const buyer = await v.newTrader({ VND: '1000000000' });
    const ask = await placeOrder(v, seller, limit('SELL', px(0), '0.01'));
    // Far enough ahead that a loaded machine still looks before it, 300 ms on.
    const scheduledAt = nanosFromNow(2_000);
    const expiredAt = nanosFromNow(4_000);
    const order = await placeOrder(v, buyer, { ...twap(BTC, px(0), '0.002', 4_000), scheduled_at: scheduledAt, expired_at: expiredAt });
    expect(order).toMatchObject({ status: 'SCHEDULED', scheduled_at: scheduledAt, expired_at: expiredAt, filled_base_size: '0', trades: [] });

    await sleep(300);
    expect(BigInt(Date.now()) * 1_000_000n, 'still before scheduled_at').toBeLessThan(BigInt(scheduledAt));
    expect(await getOrder(v, buyer, order.order_id)).toMatchObject({ status: 'SCHEDULED', filled_base_size: '0', trades: [] });
    expect(await getOrder(v, seller, ask.order_id)).toMatchObject({ filled_base_size: '0' });

    const filled = await orderReaches(v, buyer, order.order_id, 'DONE');
    expect(filled).toMatchObject({ done_reason: 'FILLED', filled_base_size: '0.002', filled_quote_size: '5000000' });
    // A two-second window is two slices; counted from acceptance it would have been three.
    expect(filled.trades.map((t) => t.size)).toEqual(['0.001', '0.001']);
    const [first, second] = filled.trades.map((t) => BigInt(t.time));
    if (first === undefined || second === undefined) throw new Error('two trades expected');
    expect(first, 'the first slice at the window’s start').toBeGreaterThanOrEqual(BigInt(scheduledAt));
    expect(second - first, 'the second slice half the window later').toBeGreaterThanOrEqual(900_000_000n);
    expect(second).toBeLessThanOrEqual(BigInt(expiredAt));
    expect(balanceOf(await getAccount(v, buyer), 'VND')).toMatchObject({ balance: 1_000_000_000n - 5_010_000n, locked: 0n });
  });

  it('a SELL slices base_size evenly into the bids and ends DONE FILLED', async () => {
    const v = venue();
    const buyer = await v.newTrader({ VND: '1000000000' });
    const seller = await v.newTrader({ BTC: '1' });
    await placeOrder(v, buyer, limit('BUY', px(0), '0.01'));
    const order = await placeOrder(v, seller, { ...twap(BTC, px(0), '0.002', 2_000), side: 'SELL' });
    expect(order).toMatchObject({ side: 'SELL', type: 'TWAP' });
    const filled = await orderReaches(v, seller, order.order_id, 'DONE');
    expect(filled).toMatchObject({ done_reason: 'FILLED', filled_base_size: '0.002', filled_quote_size: '5000000' });
    expect(filled.trades.map((t) => [t.price, t.size, t.liquidity_indicator, t.fee_amount])).toEqual([
      [px(0), '0.001', 'TAKER', '5000'],
      [px(0), '0.001', 'TAKER', '5000'],
    ]);
    const account = await getAccount(v, seller);
    expect(balanceOf(account, 'BTC')).toEqual({ balance: 99_800_000n, free: 99_800_000n, locked: 0n });
    expect(balanceOf(account, 'VND')).toEqual({ balance: 5_000_000n - 10_000n, free: 5_000_000n - 10_000n, locked: 0n });
  });

  it('without liquidity is DONE EXPIRED when its window ends, not before, and releases its hold', async () => {
    const v = venue();
    const buyer = await v.newTrader({ VND: '1000000000' });
    // SOL-VND has no asks: the TWAP can only run out of time.
    const order = await placeOrder(v, buyer, twap('SOL-VND', '4000000', '1', 2_500));
    const expired = await orderReaches(v, buyer, order.order_id, 'DONE');
    expect(expired).toMatchObject({ done_reason: 'EXPIRED', filled_base_size: '0', trades: [] });
    expect(BigInt(expired.updated_at), 'the time it became DONE, against its expired_at').toBeGreaterThanOrEqual(BigInt(order.expired_at));
    expect(balanceOf(await getAccount(v, buyer), 'VND')).toEqual({ balance: 1_000_000_000n, free: 1_000_000_000n, locked: 0n });
  });
});

describe('STOP orders (on ETH-VND, whose tape only these tests move)', () => {
  const ETH = 'ETH-VND';

  /** A seller and a buyer with plenty, who have just printed a trade at 90,000,000. */
  async function lastTradeAt90M(v: TestVenue): Promise<{ seller: Trader; buyer: Trader }> {
    const seller = await v.newTrader({ ETH: '10' });
    const buyer = await v.newTrader({ VND: '100000000000' });
    await placeOrder(v, buyer, { product_id: ETH, side: 'BUY', limit_price: '90000000', base_size: '0.1' });
    await placeOrder(v, seller, { product_id: ETH, side: 'SELL', limit_price: '90000000', base_size: '0.1' });
    return { seller, buyer };
  }

  it('a STOP_LOSS sell waits SCHEDULED, holding its size, and fires when a trade prints at or below the trigger', async () => {
    const v = venue();
    const { seller, buyer } = await lastTradeAt90M(v);
    const stopper = await v.newTrader({ ETH: '1' });

    const stop = await placeOrder(v, stopper, {
      product_id: ETH,
      side: 'SELL',
      type: 'STOP',
      order_stop_type: 'STOP_LOSS',
      stop_trigger_price: '89000000',
      limit_price: '88000000',
      base_size: '0.1',
    });
    expect(stop).toMatchObject({ status: 'SCHEDULED', type: 'STOP', filled_base_size: '0' });
    expect(balanceOf(await getAccount(v, stopper), 'ETH').locked).toBe(10_000_000n);

    const takeProfit = await placeOrder(v, stopper, {
      product_id: ETH,
      side: 'SELL',
      type: 'STOP',
      order_stop_type: 'TAKE_PROFIT',
      stop_trigger_price: '95000000',
      limit_price: '95000000',
      base_size: '0.1',
    });
    expect(takeProfit.status).toBe('SCHEDULED');

    // A trade above the trigger leaves the stop waiting.
    await placeOrder(v, buyer, { product_id: ETH, side: 'BUY', limit_price: '89500000', base_size: '0.1' });
    await placeOrder(v, seller, { product_id: ETH, side: 'SELL', limit_price: '89500000', base_size: '0.1' });
    expect((await getOrder(v, stopper, stop.order_id)).status).toBe('SCHEDULED');

    // A trade at the trigger fires it; as a limit sell at 88,000,000 it takes the rest of the 89,000,000 bid.
    await placeOrder(v, buyer, { product_id: ETH, side: 'BUY', limit_price: '89000000', base_size: '0.2' });
    await placeOrder(v, seller, { product_id: ETH, side: 'SELL', limit_price: '89000000', base_size: '0.1', time_in_force: 'IOC' });
    const fired = await orderReaches(v, stopper, stop.order_id, 'DONE');
    expect(fired).toMatchObject({ done_reason: 'FILLED', filled_base_size: '0.1' });
    expect(fired.trades.map((t) => t.price)).toEqual(['89000000']);
    // The take-profit needs a rise to 95,000,000: still waiting.
    expect((await getOrder(v, stopper, takeProfit.order_id)).status).toBe('SCHEDULED');
  });

  it('fires on a trade that one sweep printed through its trigger, though the sweep ended on the other side of it', async () => {
    const v = venue();
    const { seller, buyer } = await lastTradeAt90M(v);
    const stopper = await v.newTrader({ ETH: '1' });
    const stop = await placeOrder(v, stopper, {
      product_id: ETH,
      side: 'SELL',
      type: 'STOP',
      order_stop_type: 'STOP_LOSS',
      stop_trigger_price: '89000000',
      limit_price: '85000000',
      base_size: '0.1',
    });
    await placeOrder(v, seller, { product_id: ETH, side: 'SELL', limit_price: '88000000', base_size: '0.1' });
    await placeOrder(v, seller, { product_id: ETH, side: 'SELL', limit_price: '91000000', base_size: '0.1' });
    // One buy takes both asks: trades at 88,000,000 then 91,000,000.
    await placeOrder(v, buyer, { product_id: ETH, side: 'BUY', limit_price: '91000000', base_size: '0.2', time_in_force: 'IOC' });
    const working = await orderReaches(v, stopper, stop.order_id, 'ACTIVE');
    expect(working).toMatchObject({ filled_base_size: '0', limit_price: '85000000' });
  });

  it('a STOP_LOSS buy without a limit price fires as a market order when a trade prints at or above the trigger', async () => {
    const v = venue();
    const { seller, buyer } = await lastTradeAt90M(v);
    const stopper = await v.newTrader({ VND: '20000000' });

    const stop = await placeOrder(v, stopper, {
      product_id: ETH,
      side: 'BUY',
      type: 'STOP',
      order_stop_type: 'STOP_LOSS',
      stop_trigger_price: '91000000',
      limit_price: '0',
      base_size: '0.1',
    });
    expect(stop).toMatchObject({ status: 'SCHEDULED', time_in_force: 'IOC' });
    expect(balanceOf(await getAccount(v, stopper), 'VND').locked).toBeGreaterThan(0n);

    await placeOrder(v, seller, { product_id: ETH, side: 'SELL', limit_price: '91000000', base_size: '0.1' });
    await placeOrder(v, seller, { product_id: ETH, side: 'SELL', limit_price: '92000000', base_size: '0.1' });
    await placeOrder(v, buyer, { product_id: ETH, side: 'BUY', limit_price: '91000000', base_size: '0.1', time_in_force: 'IOC' });

    const fired = await orderReaches(v, stopper, stop.order_id, 'DONE');
    expect(fired).toMatchObject({ done_reason: 'FILLED', filled_base_size: '0.1', filled_quote_size: '9200000' });
    const vnd = balanceOf(await getAccount(v, stopper), 'VND');
    expect([vnd.balance, vnd.locked]).toEqual([20_000_000n - 9_200_000n - 18_400n, 0n]);
    expect(balanceOf(await getAccount(v, stopper), 'ETH').balance).toBe(10_000_000n);
  });

  // Triggers stay below 95,000,000, where the first test leaves a TAKE_PROFIT sell waiting.
  it('a TAKE_PROFIT sell waits while trades print below its trigger and fires, holding then selling its size, when one prints at it', async () => {
    const v = venue();
    const { seller, buyer } = await lastTradeAt90M(v);
    const stopper = await v.newTrader({ ETH: '1' });

    const stop = await placeOrder(v, stopper, {
      product_id: ETH,
      side: 'SELL',
      type: 'STOP',
      order_stop_type: 'TAKE_PROFIT',
      stop_trigger_price: '92000000',
      limit_price: '92000000',
      base_size: '0.1',
    });
    expect(stop).toMatchObject({ status: 'SCHEDULED', type: 'STOP', filled_base_size: '0' });
    expect(balanceOf(await getAccount(v, stopper), 'ETH')).toEqual({ balance: 100_000_000n, free: 90_000_000n, locked: 10_000_000n });

    // A rise that stops short of the trigger leaves it waiting.
    await placeOrder(v, buyer, { product_id: ETH, side: 'BUY', limit_price: '91000000', base_size: '0.1' });
    await placeOrder(v, seller, { product_id: ETH, side: 'SELL', limit_price: '91000000', base_size: '0.1' });
    expect((await getOrder(v, stopper, stop.order_id)).status).toBe('SCHEDULED');

    // A trade at the trigger fires it; as a limit sell at 92,000,000 it takes the rest of the bid.
    await placeOrder(v, buyer, { product_id: ETH, side: 'BUY', limit_price: '92000000', base_size: '0.2' });
    await placeOrder(v, seller, { product_id: ETH, side: 'SELL', limit_price: '92000000', base_size: '0.1', time_in_force: 'IOC' });
    const fired = await orderReaches(v, stopper, stop.order_id, 'DONE');
    expect(fired).toMatchObject({ done_reason: 'FILLED', filled_base_size: '0.1', filled_quote_size: '9200000' });
    expect(fired.trades.map((t) => [t.price, t.size, t.liquidity_indicator, t.fee_amount])).toEqual([['92000000', '0.1', 'TAKER', '18400']]);
    const account = await getAccount(v, stopper);
    expect(balanceOf(account, 'ETH')).toEqual({ balance: 90_000_000n, free: 90_000_000n, locked: 0n });
    expect(balanceOf(account, 'VND')).toEqual({ balance: 9_200_000n - 18_400n, free: 9_200_000n - 18_400n, locked: 0n });
  });

  it('a TAKE_PROFIT buy waits while trades print above its trigger and fires when one prints below it, paying less than it held', async () => {
    const v = venue();
    const { seller, buyer } = await lastTradeAt90M(v);
    const stopper = await v.newTrader({ VND: '20000000' });

    const stop = await placeOrder(v, stopper, {
      product_id: ETH,
      side: 'BUY',
      type: 'STOP',
      order_stop_type: 'TAKE_PROFIT',
      stop_trigger_price: '88000000',
      limit_price: '88000000',
      base_size: '0.1',
    });
    expect(stop).toMatchObject({ status: 'SCHEDULED', type: 'STOP', filled_base_size: '0' });
    // 88,000,000 × 0.1 plus the fee at the larger (taker) rate.
    expect(balanceOf(await getAccount(v, stopper), 'VND').locked).toBe(8_800_000n + 17_600n);

    await placeOrder(v, seller, { product_id: ETH, side: 'SELL', limit_price: '89000000', base_size: '0.1' });
    await placeOrder(v, buyer, { product_id: ETH, side: 'BUY', limit_price: '89000000', base_size: '0.1' });
    expect((await getOrder(v, stopper, stop.order_id)).status).toBe('SCHEDULED');

    // A trade through the trigger, at 87,500,000, fires it; it buys the rest of that ask, below its limit.
    await placeOrder(v, seller, { product_id: ETH, side: 'SELL', limit_price: '87500000', base_size: '0.2' });
    await placeOrder(v, buyer, { product_id: ETH, side: 'BUY', limit_price: '87500000', base_size: '0.1', time_in_force: 'IOC' });
    const fired = await orderReaches(v, stopper, stop.order_id, 'DONE');
    expect(fired).toMatchObject({ done_reason: 'FILLED', filled_base_size: '0.1', filled_quote_size: '8750000' });
    expect(fired.trades.map((t) => [t.price, t.size, t.liquidity_indicator, t.fee_amount])).toEqual([['87500000', '0.1', 'TAKER', '17500']]);
    const account = await getAccount(v, stopper);
    expect(balanceOf(account, 'VND')).toEqual({ balance: 20_000_000n - 8_750_000n - 17_500n, free: 20_000_000n - 8_750_000n - 17_500n, locked: 0n });
    expect(balanceOf(account, 'ETH').balance).toBe(10_000_000n);
  });

  it('a trigger the last trade already meets is 400 E0213_InvalidStopPrice and nothing is placed', async () => {
    const v = venue();
    const { buyer } = await lastTradeAt90M(v);

    const stop = (side: string, stopType: string, trigger: string) => ({
      product_id: ETH,
      side,
      type: 'STOP',
      order_stop_type: stopType,
      stop_trigger_price: trigger,
      limit_price: trigger,
      base_size: '0.1',
    });
    for (const body of [
      stop('SELL', 'STOP_LOSS', '90000000'), // falls to or below: already at it
      stop('SELL', 'STOP_LOSS', '91000000'),
      stop('BUY', 'STOP_LOSS', '89000000'), // rises to or above: already above
      stop('SELL', 'TAKE_PROFIT', '89000000'),
    ]) {
      expectError(await v.call('POST', '/api/v1/orders', { key: buyer.creds, body: { ...body, wait: true } }), 400, 'E0213_InvalidStopPrice');
    }
    expect((await getAccount(v, buyer)).stats.order_stats.total_orders).toBe('1');
  });
});
