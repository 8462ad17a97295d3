import { describe, expect, it } from 'vitest';
import { preTradeIssues, type PreTradeContext } from '../../../src-main/desk/pre-trade';

const context = (over: Partial<PreTradeContext> = {}): PreTradeContext => ({
  environment: 'production',
  environmentName: 'Production',
  confirmOrders: false,
  settings: { maxDeviationPercent: '5', maxNotional: '100000000' },
  market: { price: '2500000000' },
  quoteAsset: 'VND',
  ...over,
});

describe('pre-trade checks', () => {
  it('passes an order near the market and under the notional limit', () => {
    expect(preTradeIssues({ product_id: 'BTC-VND', side: 'BUY', limit_price: '2510000000', base_size: '0.01' }, context())).toEqual([]);
  });

  it('holds a limit further from the market than the setting, measured exactly', () => {
    // 5.0004% away: a float would be tempted to round it to 5.
    const issues = preTradeIssues({ product_id: 'BTC-VND', side: 'SELL', limit_price: '2625010000', base_size: '0.0001' }, context());
    expect(issues.map((i) => i.check)).toEqual(['price_deviation']);
    expect(issues[0]?.message).toMatch(/5%/);
    expect(preTradeIssues({ product_id: 'BTC-VND', side: 'SELL', limit_price: '2625000000', base_size: '0.0001' }, context())).toEqual([]);
  });

  it('holds a notional above the limit, from size times price or the quote size', () => {
    const over = preTradeIssues({ product_id: 'BTC-VND', side: 'BUY', limit_price: '2500000000', base_size: '0.0401' }, context());
    expect(over.map((i) => i.check)).toEqual(['max_notional']);
    expect(over[0]?.message).toBe('notional 100\u202f250\u202f000 VND is above the limit of 100\u202f000\u202f000 VND');
    expect(preTradeIssues({ product_id: 'BTC-VND', side: 'BUY', type: 'MARKET', quote_size: '100000001' }, context()).map((i) => i.check)).toEqual(['max_notional']);
    expect(preTradeIssues({ product_id: 'BTC-VND', side: 'BUY', type: 'MARKET', base_size: '1' }, context()).map((i) => i.check)).toEqual(['max_notional']);
  });

  it('measures a stop\'s limit from its trigger, and a stop-market\'s notional at its trigger', () => {
    const stop = { product_id: 'BTC-VND', side: 'SELL' as const, type: 'STOP' as const, order_stop_type: 'STOP_LOSS' as const, base_size: '0.01' };
    // A stop-loss 10% under the market with its limit 0.56% under the trigger: routine, not far from anything.
    expect(preTradeIssues({ ...stop, stop_trigger_price: '2250000000', limit_price: '2237500000' }, context())).toEqual([]);
    // A limit 20% from its own trigger is the slip of a finger, wherever the market is.
    const far = preTradeIssues({ ...stop, stop_trigger_price: '2250000000', limit_price: '1800000000' }, context());
    expect(far.map((i) => i.check)).toEqual(['price_deviation']);
    // Figures grouped as the windows show them.
    expect(far[0]?.message).toBe('limit 1\u202f800\u202f000\u202f000 is 20% from its stop trigger (2\u202f250\u202f000\u202f000); the limit is 5%');
    // A stop-market buy trades about its trigger: 0.04 at 3,000,000,000 is 120,000,000, over the limit.
    const buy = { ...stop, side: 'BUY' as const, base_size: '0.04', stop_trigger_price: '3000000000' };
    expect(preTradeIssues(buy, context()).map((i) => i.check)).toEqual(['max_notional']);
  });

  it('asks for confirmation where the environment confirms orders, and an override does not skip it', () => {
    const order = { product_id: 'BTC-VND', side: 'BUY' as const, limit_price: '1', base_size: '1000', override_checks: true };
    expect(preTradeIssues(order, context({ confirmOrders: true })).map((i) => i.check)).toEqual(['confirmation']);
    expect(preTradeIssues({ ...order, confirmed: 'production' }, context({ confirmOrders: true }))).toEqual([]);
  });

  it('takes a confirmation only for the environment it was given for', () => {
    const order = { product_id: 'BTC-VND', side: 'BUY' as const, limit_price: '2500000000', base_size: '0.01' };
    // A dialog asked on Local and answered after the desk went to Production.
    expect(preTradeIssues({ ...order, confirmed: 'local' }, context({ confirmOrders: true })).map((i) => i.check)).toEqual(['confirmation']);
    expect(preTradeIssues({ ...order, confirmed: 'development' }, context({ confirmOrders: true })).map((i) => i.check)).toEqual(['confirmation']);
  });

  it('checks nothing it has no setting or market for', () => {
    const order = { product_id: 'BTC-VND', side: 'BUY' as const, limit_price: '1', base_size: '1000' };
    expect(preTradeIssues(order, context({ settings: { maxDeviationPercent: '', maxNotional: '' } }))).toEqual([]);
    expect(preTradeIssues(order, context({ market: { price: undefined }, settings: { maxDeviationPercent: '5', maxNotional: '' } }))).toEqual([]);
  });
});
