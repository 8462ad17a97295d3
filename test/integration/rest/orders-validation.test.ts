// Every rule of the interface's 4.2 table and the contract's "Numbers and time": input that is invalid before
// it reaches the engine is an HTTP 400 (409 for a client order id already open) error object, and changes nothing.
import { describe, expect, it } from 'vitest';
import {
  BTC,
  activeOrders,
  expectError,
  getAccount,
  limit,
  nanosFromNow,
  placeOrder,
  px,
  useVenue,
  type OrderBody,
  type Trader,
} from '../harness';

const venue = useVenue({ cleanBooks: true });

const market = (extra: OrderBody): OrderBody => ({ product_id: BTC, side: 'BUY', type: 'MARKET', ...extra });

const INVALID: [string, OrderBody, string][] = [
  // vocabulary
  ['type outside LIMIT, MARKET, STOP, TWAP', limit('BUY', px(), '0.01', { type: 'ICEBERG' }), 'E0101_InvalidArgument'],
  ['side outside BUY, SELL', { product_id: BTC, side: 'HOLD', limit_price: px(), base_size: '0.01' }, 'E0101_InvalidArgument'],
  ['lowercase side', { product_id: BTC, side: 'buy', limit_price: px(), base_size: '0.01' }, 'E0101_InvalidArgument'],
  ['stp outside the three modes', limit('BUY', px(), '0.01', { stp: 'DC' }), 'E0101_InvalidArgument'],
  ['time_in_force outside GTC, IOC, FOK, GTT', limit('BUY', px(), '0.01', { time_in_force: 'DAY' }), 'E0101_InvalidArgument'],
  ['order_stop_type outside the three', limit('BUY', px(), '0.01', { order_stop_type: 'TRAILING' }), 'E0101_InvalidArgument'],
  // JSON types
  ['base_size as a JSON number', { product_id: BTC, side: 'BUY', limit_price: px(), base_size: 0.01 }, 'E0101_InvalidArgument'],
  ['limit_price as a JSON number', { product_id: BTC, side: 'BUY', limit_price: 2_500_000_000, base_size: '0.01' }, 'E0101_InvalidArgument'],
  ['post_only as a string', limit('BUY', px(), '0.01', { post_only: 'true' }), 'E0101_InvalidArgument'],
  ['wait as a string', limit('BUY', px(), '0.01', { wait: 'yes' }), 'E0101_InvalidArgument'],
  ['product_id missing', { side: 'BUY', limit_price: px(), base_size: '0.01' }, 'E0101_InvalidArgument'],
  ['a body that is an array', [] as unknown as OrderBody, 'E0101_InvalidArgument'],
  // client_order_id charset
  ['client_order_id with a space', limit('BUY', px(), '0.01', { client_order_id: 'my order' }), 'E0101_InvalidArgument'],
  ['client_order_id with a dot', limit('BUY', px(), '0.01', { client_order_id: 'a.b' }), 'E0101_InvalidArgument'],
  ['client_order_id with a slash', limit('BUY', px(), '0.01', { client_order_id: 'a/b' }), 'E0101_InvalidArgument'],
  ['client_order_id empty', limit('BUY', px(), '0.01', { client_order_id: '' }), 'E0101_InvalidArgument'],
  ['client_order_id non-ASCII', limit('BUY', px(), '0.01', { client_order_id: 'lệnh1' }), 'E0101_InvalidArgument'],
  // market orders
  ['a market order with a limit_price', market({ base_size: '0.01', limit_price: px() }), 'E0101_InvalidArgument'],
  ['a market order with base_size and quote_size', market({ base_size: '0.01', quote_size: '1000000' }), 'E0101_InvalidArgument'],
  ['a market order with neither size', market({}), 'E0101_InvalidArgument'],
  ['a market order with GTC', market({ base_size: '0.01', time_in_force: 'GTC' }), 'E0101_InvalidArgument'],
  ['a market order with FOK', market({ base_size: '0.01', time_in_force: 'FOK' }), 'E0101_InvalidArgument'],
  ['a market order with post_only', market({ base_size: '0.01', post_only: true }), 'E0101_InvalidArgument'],
  ['quote_size on a limit order', limit('BUY', px(), '0', { quote_size: '1000000' }), 'E0101_InvalidArgument'],
  // limit orders
  ['a limit order without limit_price', { product_id: BTC, side: 'BUY', base_size: '0.01' }, 'E0101_InvalidArgument'],
  ['a limit order without base_size', { product_id: BTC, side: 'BUY', limit_price: px() }, 'E0101_InvalidArgument'],
  ['GTT without expired_at', limit('BUY', px(), '0.01', { time_in_force: 'GTT' }), 'E0101_InvalidArgument'],
  ['GTT with expired_at in the past', limit('BUY', px(), '0.01', { time_in_force: 'GTT', expired_at: '1000000000000000000' }), 'E0110_ValueOutOfRange'],
  ['expired_at that is not an integer', limit('BUY', px(), '0.01', { time_in_force: 'GTT', expired_at: '1.5' }), 'E0101_InvalidArgument'],
  ['scheduled_at that is not an integer', limit('BUY', px(), '0.01', { scheduled_at: 'soon' }), 'E0101_InvalidArgument'],
  // exact_quote_size
  ['exact_quote_size with a limit_price', limit('BUY', px(), '0.01', { exact_quote_size: '25100000', time_in_force: 'FOK' }), 'E0101_InvalidArgument'],
  ['exact_quote_size with GTC', limit('BUY', '0', '0.01', { exact_quote_size: '25100000', time_in_force: 'GTC' }), 'E0101_InvalidArgument'],
  ['exact_quote_size on a market order', market({ base_size: '0.01', exact_quote_size: '25100000' }), 'E0101_InvalidArgument'],
  // STOP
  ['a STOP order without order_stop_type', limit('SELL', px(), '0.01', { type: 'STOP', stop_trigger_price: px() }), 'E0101_InvalidArgument'],
  ['a STOP order without stop_trigger_price', limit('SELL', px(), '0.01', { type: 'STOP', order_stop_type: 'STOP_LOSS' }), 'E0213_InvalidStopPrice'],
  // TWAP
  ['a TWAP order without expired_at', limit('BUY', px(), '0.01', { type: 'TWAP' }), 'E0101_InvalidArgument'],
  // increments and bounds (contract: never silently rounded)
  ['limit_price off the 10000 increment', limit('BUY', '2500005000', '0.01'), 'E0101_InvalidArgument'],
  ['base_size off the 0.0001 increment', limit('BUY', px(), '0.00015'), 'E0101_InvalidArgument'],
  ['a negative base_size', limit('BUY', px(), '-0.01'), 'E0101_InvalidArgument'],
  ['a base_size with an exponent', limit('BUY', px(), '1e-2'), 'E0101_InvalidArgument'],
  ['a limit_price with spaces', limit('BUY', ` ${px()}`, '0.01'), 'E0101_InvalidArgument'],
  ['base_size above max_size 1000', limit('BUY', px(), '1000.0001'), 'E0110_ValueOutOfRange'],
  ['limit_price above the maximum price', limit('BUY', '100000010000', '0.01'), 'E0110_ValueOutOfRange'],
  ['a notional below min_notional 10000', limit('BUY', '10000', '0.0001'), 'E0110_ValueOutOfRange'],
  ['quote_size with a fraction of a VND', market({ quote_size: '1000000.5' }), 'E0101_InvalidArgument'],
  ['quote_size below min_notional', market({ quote_size: '9999' }), 'E0110_ValueOutOfRange'],
  // products
  ['an unknown product', limit('BUY', px(), '0.01', { product_id: 'DOGE-VND' }), 'E0104_InvalidSymbol'],
  ['a product id in lowercase', limit('BUY', px(), '0.01', { product_id: 'btc-vnd' }), 'E0104_InvalidSymbol'],
];

describe('POST /api/v1/orders refuses invalid input with 400 and places nothing', () => {
  let trader: Trader | undefined;
  async function subject(): Promise<Trader> {
    trader ??= await venue().newTrader({ BTC: '10', VND: '100000000000' });
    return trader;
  }

  it.each(INVALID)('%s', async (_what, body, ref) => {
    const v = venue();
    const t = await subject();
    const reply = await v.call('POST', '/api/v1/orders', { key: t.creds, body: Array.isArray(body) ? body : { wait: true, ...body } });
    expectError(reply, 400, ref);
    const account = await getAccount(v, t);
    expect(account.stats.order_stats.total_orders).toBe('0');
    expect(account.asset_balances.filter((b) => b.locked !== '0')).toEqual([]);
  });

  it('accepts the limits themselves: minimum size, maximum size, and "0" for the fields a rule says must be 0', async () => {
    const v = venue();
    const t = await v.newTrader({ BTC: '1001', VND: '100000000000' });
    expect((await placeOrder(v, t, limit('BUY', '100000000', '0.0001'))).status).toBe('ACTIVE');
    expect((await placeOrder(v, t, limit('SELL', px(1000), '1000'))).status).toBe('ACTIVE');
    expect((await placeOrder(v, t, limit('BUY', '2500000000.0000', '0.0100'))).limit_price).toBe(px());
    const m = await placeOrder(v, t, market({ side: 'SELL', base_size: '0.01', quote_size: '0', limit_price: '0' }));
    expect(m.status).toBe('DONE');
  });
});

describe('a size or price sent as 0 or negative', () => {
  it.each([
    ['base_size "0" on a LIMIT order', limit('BUY', px(), '0'), 'E0110_ValueOutOfRange', 'base_size: must be above 0, at least the minimum size 0.0001'],
    ['limit_price "0" on a LIMIT order', limit('BUY', '0', '0.01'), 'E0110_ValueOutOfRange', 'limit_price: must be above 0 for a LIMIT order'],
    ['quote_size "0" on a MARKET order', market({ quote_size: '0' }), 'E0110_ValueOutOfRange', 'quote_size: must be above 0, at least the minimum notional 10000'],
    ['a negative base_size', limit('BUY', px(), '-0.01'), 'E0101_InvalidArgument', 'base_size: must not be negative'],
  ])('%s is refused for what it is, not as missing, and places nothing', async (_what, body, ref, message) => {
    const v = venue();
    const t = await v.newTrader({ VND: '100000000000' });
    const reply = await v.call<{ error: { message: string } }>('POST', '/api/v1/orders', { key: t.creds, body: { wait: true, ...body } });
    expectError(reply, 400, ref);
    expect(reply.body.error.message).toContain(message);
    expect(reply.body.error.message).not.toContain('required');
    expect((await getAccount(v, t)).stats.order_stats.total_orders).toBe('0');
  });
});

describe('client_order_id', () => {
  it('allows letters, digits, ":", "-" and "_"', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const order = await placeOrder(v, t, limit('BUY', px(-100), '0.001', { client_order_id: 'Desk:1-a_B' }));
    expect(order.client_order_id).toBe('Desk:1-a_B');
  });

  it('is unique among open orders, case-insensitively: 409 E0303, and free again once the order is done', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const first = await placeOrder(v, t, limit('BUY', px(-100), '0.001', { client_order_id: 'Dup-1' }));
    for (const cid of ['Dup-1', 'dup-1', 'DUP-1']) {
      const reply = await v.call('POST', '/api/v1/orders', { key: t.creds, body: limit('BUY', px(-101), '0.001', { client_order_id: cid, wait: true }) });
      expectError(reply, 409, 'E0303_DuplicateClientOrderId');
    }
    expect((await activeOrders(v, t)).map((o) => o.order_id)).toEqual([first.order_id]);

    // Another user may use the same id.
    const other = await v.newTrader({ VND: '1000000000' });
    expect((await placeOrder(v, other, limit('BUY', px(-100), '0.001', { client_order_id: 'dup-1' }))).status).toBe('ACTIVE');

    const cancel = await v.call('DELETE', '/api/v1/order/active', { key: t.creds, query: { order_id: first.order_id } });
    expect(cancel.status).toBe(200);
    const again = await placeOrder(v, t, limit('BUY', px(-100), '0.001', { client_order_id: 'dup-1' }));
    expect(again.status).toBe('ACTIVE');
  });

  it('stays unique when the same id arrives in concurrent requests', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const replies = await Promise.all(
      ['race', 'RACE', 'Race', 'race'].map((cid, i) =>
        v.call('POST', '/api/v1/orders', { key: t.creds, body: limit('BUY', px(-100 - i), '0.001', { client_order_id: cid, wait: true }) }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await activeOrders(v, t)).toHaveLength(1);
  });

  it('is unique among open orders only: a filled or rejected order does not hold it', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000' });
    const rejected = await placeOrder(v, t, limit('BUY', px(), '0.01', { client_order_id: 'reuse' }));
    expect(rejected.status).toBe('DONE');
    expect((await placeOrder(v, t, limit('BUY', px(), '0.01', { client_order_id: 'reuse' }))).status).toBe('DONE');
  });
});

describe('TWAP and GTT windows', () => {
  it('refuses an expired_at not after scheduled_at', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const at = nanosFromNow(60_000);
    const reply = await v.call('POST', '/api/v1/orders', {
      key: t.creds,
      body: limit('BUY', px(-100), '0.001', { time_in_force: 'GTT', scheduled_at: at, expired_at: at }),
    });
    expectError(reply, 400, 'E0110_ValueOutOfRange');
  });
});
