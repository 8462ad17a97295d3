import { describe, expect, it } from 'vitest';
import type { Order } from '../../../src-shared/protocol/records';
import { EMPTY_TICKET, checkTicket, describeOrder, lastOrderText, presetSize, submitText, ticketRequest, type TicketContext, type TicketForm } from '../../../src-renderer/features/ticket/ticket-check';

const NOW = 1_800_000_000_000_000_000n;
const ctx: TicketContext = {
  now: NOW,
  balances: [
    { asset: 'VND', balance: '10000000000', free: '1000000000', locked: '0' },
    { asset: 'BTC', balance: '10', free: '0.5', locked: '0' },
  ],
  makerFeeRate: '0.001',
  takerFeeRate: '0.002',
  bids: [{ price: '2499990000', size: '0.3', order_count: 1 }],
  asks: [
    { price: '2500000000', size: '0.1', order_count: 1 },
    { price: '2500010000', size: '1', order_count: 2 },
  ],
};
const limit = (patch: Partial<TicketForm>): TicketForm => ({ ...EMPTY_TICKET, price: '2500000000', size: '0.1', ...patch });

describe('order ticket checks', () => {
  it('accepts a limit buy and estimates cost with the taker fee', () => {
    const check = checkTicket(limit({}), ctx);
    expect(check.errors).toEqual({});
    expect(check.request).toEqual({ product_id: 'BTC-VND', side: 'BUY', type: 'LIMIT', limit_price: '2500000000', base_size: '0.1' });
    expect(check.estimate).toMatchObject({ notional: '250000000', fee: '500000', total: '250500000', quoteAsset: 'VND' });
  });

  it('uses the maker fee for a post-only order', () => {
    expect(checkTicket(limit({ postOnly: true }), ctx).estimate?.fee).toBe('250000');
  });

  it('names the price field when the price is off the increment', () => {
    const check = checkTicket(limit({ price: '2500001234' }), ctx);
    expect(check.request).toBeUndefined();
    expect(check.errors.price).toMatch(/multiple of 10000/);
  });

  it('names the size field when the size is below the minimum or off the increment', () => {
    expect(checkTicket(limit({ size: '0.00015' }), ctx).errors.size).toMatch(/multiple of 0.0001/);
    expect(checkTicket(limit({ size: '' }), ctx).errors.size).toBeDefined();
  });

  it('refuses a buy that costs more than the free quote balance', () => {
    const check = checkTicket(limit({ size: '0.5' }), ctx);
    expect(check.request).toBeUndefined();
    expect(check.errors.balance).toMatch(/VND/);
  });

  it('refuses a sell larger than the free base balance', () => {
    expect(checkTicket(limit({ side: 'SELL', size: '0.6' }), ctx).errors.balance).toMatch(/0.5 BTC free/);
    expect(checkTicket(limit({ side: 'SELL', size: '0.5' }), ctx).request).toBeDefined();
  });

  it('leaves the balance to the venue while the account is not known, rather than reading it as zero', () => {
    // A key imported without its user id: the desk learns the account from the first order, so none may be blocked.
    const unknown = { ...ctx, balances: undefined };
    expect(checkTicket(limit({ size: '0.5' }), unknown)).toMatchObject({ errors: {}, request: { base_size: '0.5' } });
    expect(checkTicket(limit({ side: 'SELL', size: '0.6' }), unknown).request).toBeDefined();
    expect(presetSize(100, 'SELL', 'BTC-VND', '', unknown)).toBe('');
    expect(presetSize(100, 'BUY', 'BTC-VND', '2500000000', unknown)).toBe('');
    expect(checkTicket(limit({ size: '0.5' }), { ...ctx, balances: [] }).errors.balance).toMatch(/0 VND free/);
  });

  it('estimates a market order by walking the book', () => {
    const check = checkTicket({ ...EMPTY_TICKET, type: 'MARKET', size: '0.2' }, ctx);
    expect(check.request).toEqual({ product_id: 'BTC-VND', side: 'BUY', type: 'MARKET', base_size: '0.2' });
    expect(check.estimate).toMatchObject({ notional: '500001000', fromBook: true });
  });

  it('sends a market order sized in quote, the fee counted in the quote amount as the venue counts it', () => {
    const buy = checkTicket({ ...EMPTY_TICKET, type: 'MARKET', sizeMode: 'quote', size: '1000000' }, ctx);
    expect(buy.request).toMatchObject({ quote_size: '1000000' });
    // 1,000,000 VND at most, fee included, leaves 998,003 to trade: the venue buys whole lots of 0.0001 BTC, 250,000
    // VND each at the best ask, so 3 of them, 750,000 and a fee of 1,500 (0.2%), not the 1,000,000 the ticket said.
    expect(buy.estimate).toMatchObject({ notional: '750000', fee: '1500', total: '751500', fromBook: true });
    const sell = checkTicket({ ...EMPTY_TICKET, side: 'SELL', type: 'MARKET', sizeMode: 'quote', size: '1000000' }, ctx);
    // 1,000,000 VND received after the fee needs 1,002,005 of trade: 5 lots at the best bid, 1,249,995 less 2,499
    // (the venue rounds the fee down to the atom).
    expect(sell.estimate).toMatchObject({ notional: '1249995', fee: '2499', total: '1247496', fromBook: true });
    // With no book to walk, the quote amount is all the ticket can say: the largest notional whose cost with fee
    // fits it, as the venue works it out (notionalWithin).
    const blind = checkTicket({ ...EMPTY_TICKET, type: 'MARKET', sizeMode: 'quote', size: '1000000' }, { ...ctx, asks: [] });
    expect(blind.estimate).toMatchObject({ notional: '998004', fee: '1996', total: '1000000', fromBook: false });
  });

  it('rounds the estimated fee down to the atom, as the venue charges it', () => {
    // 0.0001 BTC at 2,500,010,000 is 250,001 VND; 0.2% of it is 500.002, of which the venue charges 500.
    const check = checkTicket(limit({ price: '2500010000', size: '0.0001' }), ctx);
    expect(check.estimate).toMatchObject({ notional: '250001', fee: '500', total: '250501' });
    const sell = checkTicket(limit({ side: 'SELL', price: '2500010000', size: '0.0001' }), ctx);
    expect(sell.estimate).toMatchObject({ notional: '250001', fee: '500', total: '249501' });
  });

  it('sends an exact-quote order with its base size and no price, whatever the price box held before', () => {
    const form: TicketForm = { ...EMPTY_TICKET, sizeMode: 'exact_quote', size: '2505000', exactBase: '0.001', price: '2400000000' };
    expect(ticketRequest(form)).toEqual({ product_id: 'BTC-VND', side: 'BUY', type: 'LIMIT', exact_quote_size: '2505000', base_size: '0.001' });
    const check = checkTicket(form, ctx);
    expect(check.errors).toEqual({});
    expect(check.request).toMatchObject({ exact_quote_size: '2505000', base_size: '0.001' });
  });

  it('shows what an exact-quote order trades at the book and what the venue keeps beyond the fees', () => {
    // 1,000,000 VND for 0.0003 BTC: three lots at the best ask, 750,000 VND, and a fee of 1,500; the venue moves the
    // whole 1,000,000 and pays the 248,500 left into its fee account.
    const buy = checkTicket({ ...EMPTY_TICKET, sizeMode: 'exact_quote', size: '1000000', exactBase: '0.0003' }, ctx);
    expect(buy.request).toMatchObject({ exact_quote_size: '1000000', base_size: '0.0003' });
    expect(buy.estimate).toEqual({ notional: '750000', fee: '1500', kept: '248500', total: '1000000', quoteAsset: 'VND', fromBook: true });
    // A sell receives exactly 700,000: 0.0003 BTC at the best bid raises 749,997 less a fee of 1,499, and the
    // venue keeps the 48,498 beyond the amount.
    const sell = checkTicket({ ...EMPTY_TICKET, side: 'SELL', sizeMode: 'exact_quote', size: '700000', exactBase: '0.0003' }, ctx);
    expect(sell.estimate).toEqual({ notional: '749997', fee: '1499', kept: '48498', total: '700000', quoteAsset: 'VND', fromBook: true });
    // 1,000,000 VND cannot pay for 0.0004 BTC at the best ask with fees: the venue's limit is 2,495,010,000, and the
    // fill-or-kill order would be canceled.
    const short = checkTicket({ ...EMPTY_TICKET, sizeMode: 'exact_quote', size: '1000000', exactBase: '0.0004' }, ctx);
    expect(short.estimate).toMatchObject({ notional: '0', fee: '0', total: '0' });
    expect(short.estimate?.shortfall).toBe(
      'the book shown has 0 BTC of asks at or below 2495010000 VND, the worst price 1000000 VND pays at for 0.0004 BTC with fees: the venue would cancel this fill-or-kill order',
    );
  });

  it('says what part of a market order the book shown could fill when it cannot fill it all', () => {
    const rich = { ...ctx, balances: [{ asset: 'VND', balance: '10000000000', free: '10000000000', locked: '0' }, { asset: 'BTC', balance: '4', free: '4', locked: '0' }] };
    // 1.99 BTC against 1.1 BTC of asks: the estimate is of the 1.1 that could fill.
    const buy = checkTicket({ ...EMPTY_TICKET, type: 'MARKET', size: '1.99' }, rich);
    expect(buy.request).toBeDefined();
    expect(buy.estimate).toMatchObject({ notional: '2750010000', fee: '5500020', fromBook: true });
    expect(buy.estimate?.shortfall).toBe('the book shown has 1.1 BTC of asks: about 1.1 BTC of 1.99 BTC could fill, the rest would be canceled');
    const sell = checkTicket({ ...EMPTY_TICKET, side: 'SELL', type: 'MARKET', size: '1.99' }, rich);
    expect(sell.estimate?.shortfall).toBe('the book shown has 0.3 BTC of bids: about 0.3 BTC of 1.99 BTC could fill, the rest would be canceled');
    const none = checkTicket({ ...EMPTY_TICKET, type: 'MARKET', size: '0.1' }, { ...rich, asks: [] });
    expect(none.estimate?.shortfall).toBe('no asks on the book shown: this market order would fill nothing now');
    // A sell for more quote than the bids can raise.
    const quoteSell = checkTicket({ ...EMPTY_TICKET, side: 'SELL', type: 'MARKET', sizeMode: 'quote', size: '1000000000' }, rich);
    expect(quoteSell.estimate?.shortfall).toMatch(/^the bids shown raise about 748497006 VND of 1000000000 VND after fees/);
    // A book deep enough says nothing.
    expect(checkTicket({ ...EMPTY_TICKET, type: 'MARKET', size: '0.2' }, rich).estimate?.shortfall).toBeUndefined();
  });

  it('says so when a market buy for a quote amount would take every ask shown', () => {
    const rich = { ...ctx, balances: [{ asset: 'VND', balance: '10000000000', free: '10000000000', locked: '0' }] };
    // 3,000,000,000 VND with fees pays for 2,994,011,976 of trade, and the asks shown are 1.1 BTC for 2,750,010,000:
    // the venue's match runs out of asks, buys them all and cancels the order with the rest of the amount unspent.
    const buy = checkTicket({ ...EMPTY_TICKET, type: 'MARKET', sizeMode: 'quote', size: '3000000000' }, rich);
    expect(buy.request).toMatchObject({ quote_size: '3000000000' });
    expect(buy.estimate).toMatchObject({ notional: '2750010000', fee: '5500020', total: '2755510020', fromBook: true });
    expect(buy.estimate?.shortfall).toBe('the asks shown take about 2755510020 VND of 3000000000 VND with fees: the venue would buy all 1.1 BTC of them and cancel the rest');
    // One whose amount runs out at the last ask shown (1,000,000,000 VND stops within its 1 BTC) says nothing.
    expect(checkTicket({ ...EMPTY_TICKET, type: 'MARKET', sizeMode: 'quote', size: '1000000000' }, rich).estimate?.shortfall).toBeUndefined();
    // Nor does one the first ask covers.
    expect(checkTicket({ ...EMPTY_TICKET, type: 'MARKET', sizeMode: 'quote', size: '1000000' }, rich).estimate?.shortfall).toBeUndefined();
  });

  it('refuses a price clicked on another product\'s ladder, and takes one from its own', () => {
    const other = checkTicket(limit({ pricedFor: 'ETH-VND' }), ctx);
    expect(other.request).toBeUndefined();
    expect(other.errors.price).toMatch(/ETH-VND ladder; this ticket trades BTC-VND/);
    expect(checkTicket(limit({ pricedFor: 'BTC-VND' }), ctx).request).toBeDefined();
  });

  it('refuses a price typed while the ticket traded another product, and takes it for the product it was typed for', () => {
    // Typed for ETH-VND, then the desk product moved to BTC-VND: an ETH price on a BTC order.
    const other = checkTicket(limit({ pricedFor: 'ETH-VND', priceTyped: true }), ctx);
    expect(other.request).toBeUndefined();
    expect(other.errors.price).toBe('typed for ETH-VND; this ticket trades BTC-VND: enter its price again');
    expect(checkTicket(limit({ pricedFor: 'BTC-VND', priceTyped: true }), ctx).request).toBeDefined();
    // Emptied, the box holds no price of either product: it is only missing.
    expect(checkTicket(limit({ price: '', pricedFor: 'ETH-VND', priceTyped: true }), ctx).errors.price).not.toMatch(/ETH-VND/);
  });

  it('leaves alone a price the order does not send: an exact-quote order\'s, which the venue derives', () => {
    const exact = checkTicket({ ...EMPTY_TICKET, sizeMode: 'exact_quote', size: '1000000', exactBase: '0.0003', price: '80000000', pricedFor: 'ETH-VND' }, ctx);
    expect(exact.errors).toEqual({});
    expect(exact.request).toBeDefined();
  });

  it('checks the balance the venue will hold, by its rule, not the cost at the best case', () => {
    const poor = { ...ctx, balances: [{ asset: 'VND', balance: '2493000000', free: '2493000000', locked: '0' }, { asset: 'BTC', balance: '0', free: '0', locked: '0' }] };
    // A stop-market buy holds 110% of its notional at the trigger, with the taker fee: 0.88 × 2.75e9 is 2.42e9
    // with fee, but the venue locks 2,662,000,000 and its fee, 2,667,324,000.
    const stop = checkTicket({ ...EMPTY_TICKET, type: 'STOP', stopType: 'STOP_LOSS', stopTrigger: '2750000000', price: '', size: '0.88' }, poor);
    expect(stop.errors.balance).toBe('needs 2667324000 VND held, 2493000000 VND free');
    // A post-only buy may still trade as taker once it rests, so it is held at the larger rate: 2,494,980,000.
    expect(checkTicket(limit({ price: '2490000000', size: '1', postOnly: true }), poor).errors.balance).toMatch(/^needs 2494980000 VND held/);
    expect(checkTicket(limit({ price: '2480000000', size: '1', postOnly: true }), poor).errors).toEqual({});
    // A sell for a quote amount holds the lots the bids take to raise it after fee: 5 of 249,999 VND each.
    const quoteSell = checkTicket({ ...EMPTY_TICKET, type: 'MARKET', side: 'SELL', sizeMode: 'quote', size: '1000000' }, poor);
    expect(quoteSell.errors.balance).toBe('needs 0.0005 BTC held, 0 BTC free');
  });

  it('lets a quote-sized market buy spend the whole free balance', () => {
    const check = checkTicket({ ...EMPTY_TICKET, type: 'MARKET', sizeMode: 'quote', size: '1000000000' }, ctx);
    expect(check.errors).toEqual({});
    expect(check.request).toMatchObject({ quote_size: '1000000000' });
  });

  it('requires a trigger and stop type for a stop order and sends them', () => {
    expect(checkTicket(limit({ type: 'STOP' }), ctx).errors.stopTrigger).toBeDefined();
    const check = checkTicket(limit({ type: 'STOP', stopType: 'STOP_LOSS', stopTrigger: '2400000000' }), ctx);
    expect(check.request).toMatchObject({ order_stop_type: 'STOP_LOSS', stop_trigger_price: '2400000000' });
  });

  it('requires an expiry in the future for GTT', () => {
    expect(checkTicket(limit({ timeInForce: 'GTT' }), ctx).errors.expiresAt).toMatch(/required/);
    const future = new Date(Number(NOW / 1_000_000n) + 3_600_000);
    const local = `${future.getFullYear()}-${String(future.getMonth() + 1).padStart(2, '0')}-${String(future.getDate()).padStart(2, '0')}T${String(future.getHours()).padStart(2, '0')}:${String(future.getMinutes()).padStart(2, '0')}`;
    const check = checkTicket(limit({ timeInForce: 'GTT', expiresAt: local }), ctx);
    expect(check.errors).toEqual({});
    expect(check.request?.expired_at).toMatch(/^\d{19}$/);
  });

  it('sends no expiry the ticket no longer shows: one typed for GTT stays behind when the trader picks IOC', () => {
    const future = new Date(Number(NOW / 1_000_000n) + 3_600_000);
    const local = `${future.getFullYear()}-${String(future.getMonth() + 1).padStart(2, '0')}-${String(future.getDate()).padStart(2, '0')}T${String(future.getHours()).padStart(2, '0')}:${String(future.getMinutes()).padStart(2, '0')}`;
    // The box is hidden for IOC, so an error on it would leave Buy disabled with nothing said.
    const check = checkTicket(limit({ timeInForce: 'IOC', expiresAt: local }), ctx);
    expect(check.errors).toEqual({});
    expect(check.request).toBeDefined();
    expect(check.request?.expired_at).toBeUndefined();
    expect(checkTicket(limit({ timeInForce: '', expiresAt: 'not a time' }), ctx).errors).toEqual({});
    expect(checkTicket({ ...EMPTY_TICKET, type: 'TWAP', size: '0.1', expiresAt: local }, ctx).request?.expired_at).toMatch(/^\d{19}$/);
  });

  it('refuses post-only with IOC and an unusable client order id', () => {
    expect(checkTicket(limit({ postOnly: true, timeInForce: 'IOC' }), ctx).errors.postOnly).toBeDefined();
    expect(checkTicket(limit({ clientOrderId: 'bad id!' }), ctx).errors.clientOrderId).toBeDefined();
  });

  it('carries every optional parameter into the request', () => {
    const body = ticketRequest(limit({ stp: 'CANCEL_BOTH', clientOrderId: 'mine-1', timeInForce: 'GTC', postOnly: true }));
    expect(body).toMatchObject({ stp: 'CANCEL_BOTH', client_order_id: 'mine-1', time_in_force: 'GTC', post_only: true });
  });

  it('sizes presets from the free balance, rounded down to the increment', () => {
    expect(presetSize(100, 'SELL', 'BTC-VND', '', ctx)).toBe('0.5');
    expect(presetSize(25, 'SELL', 'BTC-VND', '', ctx)).toBe('0.125');
    // 1e9 VND at 2.5e9 per BTC with 0.2% fee: 0.3992 BTC fits, 0.3993 does not.
    expect(presetSize(100, 'BUY', 'BTC-VND', '2500000000', ctx)).toBe('0.3992');
    expect(presetSize(100, 'BUY', 'BTC-VND', '', ctx)).toBe('');
  });

  it('describes the order to confirm with every field sent and the unit of each amount', () => {
    expect(describeOrder({ product_id: 'BTC-VND', side: 'BUY', type: 'MARKET', quote_size: '1000000' }, 'BTC', 'VND')).toBe('BUY 1\u202f000\u202f000 VND worth of BTC on BTC-VND, MARKET at market');
    expect(describeOrder({ product_id: 'BTC-VND', side: 'BUY', type: 'LIMIT', exact_quote_size: '2505000', base_size: '0.001' }, 'BTC', 'VND')).toBe(
      'BUY 0.001 BTC for exactly 2\u202f505\u202f000 VND, fees included on BTC-VND, LIMIT at the price the venue derives',
    );
    expect(describeOrder({ product_id: 'BTC-VND', side: 'SELL', type: 'STOP', base_size: '0.1', limit_price: '2400000000', stop_trigger_price: '2450000000', order_stop_type: 'STOP_LOSS', time_in_force: 'GTC', post_only: true }, 'BTC', 'VND')).toBe(
      'SELL 0.1 BTC on BTC-VND, STOP at 2\u202f400\u202f000\u202f000 VND when the last trade reaches 2\u202f450\u202f000\u202f000 (STOP_LOSS) GTC post-only',
    );
  });

  it('writes the figures of the order to confirm grouped, as the panels do, never rounded', () => {
    // A digit short or long is what a confirmation is for: 240000000 beside 2400000000 does not show it.
    expect(describeOrder({ product_id: 'BTC-VND', side: 'BUY', type: 'LIMIT', base_size: '1250.0001', limit_price: '240000000' }, 'BTC', 'VND')).toBe(
      'BUY 1\u202f250.0001 BTC on BTC-VND, LIMIT at 240\u202f000\u202f000 VND',
    );
  });

  it('confirms a schedule and an expiry in the local time the ticket takes them in', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Ho_Chi_Minh';
    try {
      const nanos = (local: string): string => (BigInt(new Date(local).getTime()) * 1_000_000n).toString();
      const text = describeOrder(
        { product_id: 'BTC-VND', side: 'BUY', type: 'LIMIT', base_size: '0.1', limit_price: '2400000000', time_in_force: 'GTT', scheduled_at: nanos('2099-06-01T17:00'), expired_at: nanos('2099-06-01T18:30') },
        'BTC',
        'VND',
      );
      // Typed as 17:00 in UTC+7, the confirmation said 2099-06-01T10:00:00.000Z: seven hours early to the trader.
      expect(text).toContain('from 2099-06-01 17:00:00.000 until 2099-06-01 18:30:00.000');
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it('names the unit of the last order sent when it was sized in quote', () => {
    const order = { side: 'BUY', product_id: 'BTC-VND', base_size: '0', quote_size: '1000000' } as Order;
    // Without its unit, "BUY 1 000 000 BTC-VND" read as a million bitcoin.
    expect(lastOrderText(order, 'VND', 'FILLED')).toBe('BUY 1\u202f000\u202f000 VND of BTC-VND: FILLED');
    expect(lastOrderText({ ...order, base_size: '0.001', quote_size: '0' }, 'VND', 'ACTIVE')).toBe('BUY 0.001 BTC-VND: ACTIVE');
  });
});

describe('the ticket\'s send button', () => {
  it('names the side, the amount and the product once each: the base asset is in the product\'s name', () => {
    const form = { ...EMPTY_TICKET, productId: 'BTC-VND' };
    expect(submitText({ ...form, size: '0.05' }, 'VND')).toBe('Buy 0.05 BTC-VND');
    expect(submitText({ ...form, side: 'SELL', size: ' 1500 ' }, 'VND')).toBe('Sell 1\u202f500 BTC-VND');
    expect(submitText(form, 'VND')).toBe('Buy BTC-VND');
    expect(submitText({ ...form, size: '1000000', sizeMode: 'quote' }, 'VND')).toBe('Buy BTC-VND for 1\u202f000\u202f000 VND');
    expect(submitText({ ...form, size: '250000', sizeMode: 'exact_quote' }, 'VND')).toBe('Buy BTC-VND for exactly 250\u202f000 VND');
    // What is not yet a number is shown as typed, not as the 0 it would read as.
    expect(submitText({ ...form, size: '0.0x' }, 'VND')).toBe('Buy 0.0x BTC-VND');
  });
});
