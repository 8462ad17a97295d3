import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder, parseWsCreateOrder, type NewOrderRequest } from '../../../src-shared/protocol/orders';
import { HOUR, NOW, accepted, refused } from './order-helpers';

const opts = { now: NOW };
const LIMIT = { type: 'limit', side: 'buy', product_id: 'ETH-VND', price: '90000000', size: '0.5' };

function parse(data: unknown): NewOrderRequest | ApiError {
  return parseWsCreateOrder(data, opts);
}

function ok(data: unknown): NewOrderRequest {
  return accepted(parse(data));
}

describe('parseWsCreateOrder', () => {
  it('gives the same request as the equivalent REST body', () => {
    const rest = accepted(parseCreateOrder({ side: 'BUY', product_id: 'ETH-VND', limit_price: '90000000', base_size: '0.5' }, opts));
    expect(ok(LIMIT)).toEqual(rest);
  });

  it('takes lowercase type and side only', () => {
    expect(ok({ ...LIMIT, side: 'sell' }).side).toBe('SELL');
    refused(parse({ ...LIMIT, type: 'LIMIT' }), 'E0101_InvalidArgument', 'type: must be one of limit, market');
    refused(parse({ ...LIMIT, type: 'stop' }), 'E0101_InvalidArgument', 'type');
    refused(parse({ ...LIMIT, side: 'BUY' }), 'E0101_InvalidArgument', 'side: must be one of buy, sell');
    refused(parse({ ...LIMIT, type: undefined }), 'E0101_InvalidArgument', 'type: required');
    refused(parse({ ...LIMIT, side: undefined }), 'E0101_InvalidArgument', 'side: required');
    refused(parse({ ...LIMIT, type: '__proto__' }), 'E0101_InvalidArgument', 'type');
    refused(parse({ ...LIMIT, side: 'constructor' }), 'E0101_InvalidArgument', 'side');
  });

  it('names fields the way the WebSocket spells them', () => {
    refused(parse({ ...LIMIT, price: '90000500' }), 'E0101_InvalidArgument', 'price: not a multiple of 1000');
    refused(parse({ ...LIMIT, size: '0.0005' }), 'E0101_InvalidArgument', 'size: not a multiple of 0.001');
    refused(parse({ ...LIMIT, price: undefined }), 'E0101_InvalidArgument', 'price: required for a LIMIT order');
    refused(parse({ ...LIMIT, size: 1 }), 'E0101_InvalidArgument', 'size: expected string, got number');
    refused(parse(null), 'E0101_InvalidArgument', 'data: required');
  });

  it('maps stp DC, CO, CN, CB to the engine names, default CN', () => {
    expect(ok(LIMIT).stp).toBe('CANCEL_TAKER');
    expect(ok({ ...LIMIT, stp: 'DC' }).stp).toBe('DECREASE_AND_CANCEL');
    expect(ok({ ...LIMIT, stp: 'CO' }).stp).toBe('CANCEL_MAKER');
    expect(ok({ ...LIMIT, stp: 'CN' }).stp).toBe('CANCEL_TAKER');
    expect(ok({ ...LIMIT, stp: 'CB' }).stp).toBe('CANCEL_BOTH');
    refused(parse({ ...LIMIT, stp: 'CANCEL_TAKER' }), 'E0101_InvalidArgument', 'stp: must be one of DC, CO, CN, CB');
    refused(parse({ ...LIMIT, stp: 'dc' }), 'E0101_InvalidArgument', 'stp');
  });

  it('market orders take size or quote_size, default to IOC, and refuse a price', () => {
    expect(ok({ type: 'market', side: 'buy', product_id: 'ETH-VND', quote_size: '5000000' })).toMatchObject({
      type: 'MARKET',
      timeInForce: 'IOC',
      quoteAtoms: 5_000_000n,
      baseLots: 0,
    });
    expect(ok({ type: 'market', side: 'sell', product_id: 'ETH-VND', size: '1' }).baseLots).toBe(1000);
    refused(parse({ ...LIMIT, type: 'market' }), 'E0101_InvalidArgument', 'price: must be 0 for a MARKET order');
    refused(parse({ type: 'market', side: 'buy', product_id: 'ETH-VND', size: '1', time_in_force: 'GTC' }), 'E0101_InvalidArgument', 'time_in_force: must be IOC');
  });

  it('exact_quote_size with size is the LIMIT FOK exact-quote order, whatever the type', () => {
    const EXACT = { side: 'buy', product_id: 'ETH-VND', size: '0.5', exact_quote_size: '45100000' };
    for (const type of ['limit', 'market']) {
      expect(ok({ ...EXACT, type })).toMatchObject({
        type: 'LIMIT',
        timeInForce: 'FOK',
        limitTicks: 0,
        baseLots: 500,
        exactQuoteAtoms: 45_100_000n,
      });
    }
    refused(parse({ ...EXACT, type: 'limit', price: '90000000' }), 'E0101_InvalidArgument', 'price: must be 0 with exact_quote_size');
    refused(parse({ ...EXACT, type: 'market', size: undefined }), 'E0101_InvalidArgument', 'size: required with exact_quote_size');
    refused(parse({ ...EXACT, type: 'limit', time_in_force: 'IOC' }), 'E0101_InvalidArgument', 'time_in_force: must be FOK');
  });

  it('time_in_force takes GTC, IOC, FOK (and GTT with expired_at)', () => {
    for (const tif of ['GTC', 'IOC', 'FOK']) expect(ok({ ...LIMIT, time_in_force: tif }).timeInForce).toBe(tif);
    expect(ok({ ...LIMIT, time_in_force: 'GTT', expired_at: String(NOW + HOUR) }).expiredAt).toBe(NOW + HOUR);
    refused(parse({ ...LIMIT, time_in_force: 'gtc' }), 'E0101_InvalidArgument', 'time_in_force');
  });

  it('takes expired_at and scheduled_at as safe integers or digit strings', () => {
    expect(ok({ ...LIMIT, scheduled_at: 1_000_000 }).scheduledAt).toBe(1_000_000n);
    expect(ok({ ...LIMIT, scheduled_at: String(NOW + HOUR) }).scheduledAt).toBe(NOW + HOUR);
    expect(ok({ ...LIMIT, scheduled_at: 0 }).scheduledAt).toBe(0n);
    refused(parse({ ...LIMIT, scheduled_at: Number(NOW) }), 'E0101_InvalidArgument', 'scheduled_at: a non-negative safe integer, or nanoseconds as a string');
    refused(parse({ ...LIMIT, scheduled_at: -1 }), 'E0101_InvalidArgument', 'scheduled_at');
    refused(parse({ ...LIMIT, scheduled_at: 1.5 }), 'E0101_InvalidArgument', 'scheduled_at');
    refused(parse({ ...LIMIT, time_in_force: 'GTT', expired_at: 12 }), 'E0110_ValueOutOfRange', 'expired_at: must be in the future');
    refused(parse({ ...LIMIT, expired_at: '1e18' }), 'E0101_InvalidArgument', 'expired_at');
    refused(parse({ ...LIMIT, expired_at: true }), 'E0101_InvalidArgument', 'expired_at');
  });

  it('a stop_trigger_price makes a STOP order, whose order_stop_type may be left to the exchange', () => {
    const stop = { ...LIMIT, side: 'sell', stop_trigger_price: '89000000', order_stop_type: 'STOP_LOSS' };
    expect(ok(stop)).toMatchObject({ type: 'STOP', stopType: 'STOP_LOSS', stopTriggerTicks: 89000, limitTicks: 90000 });
    expect(ok({ ...stop, type: 'market', price: undefined })).toMatchObject({ type: 'STOP', limitTicks: 0, timeInForce: 'IOC' });
    refused(parse({ ...stop, type: 'market' }), 'E0101_InvalidArgument', 'price: must be 0 for a market order');
    // The WebSocket's data table has no order_stop_type: the exchange takes the kind from the last trade.
    expect(ok({ ...stop, order_stop_type: undefined })).toMatchObject({ type: 'STOP', stopType: 'STOP_NONE' });
    refused(parse({ ...stop, order_stop_type: 'STOP_LIMIT' }), 'E0101_InvalidArgument', 'order_stop_type: must be one of');
    expect(ok({ ...LIMIT, stop_trigger_price: '0' }).type).toBe('LIMIT');
  });

  it('keeps client_order_id, post_only and wait', () => {
    expect(ok({ ...LIMIT, client_order_id: 'ws-1', post_only: true, wait: true })).toMatchObject({
      clientOrderId: 'ws-1',
      postOnly: true,
      wait: true,
    });
    refused(parse({ ...LIMIT, client_order_id: 'ws\u00001' }), 'E0101_InvalidArgument', 'client_order_id');
  });

  it('never throws on arbitrary JSON (property)', () => {
    const fields = ['type', 'side', 'product_id', 'price', 'size', 'quote_size', 'exact_quote_size', 'time_in_force', 'post_only', 'stp', 'client_order_id', 'stop_trigger_price', 'order_stop_type', 'expired_at', 'scheduled_at', 'wait'];
    const value = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom('limit', 'market', 'buy', 'sell', 'ETH-VND', 'DC', 'FOK', 'STOP_LOSS', '0'),
      fc.stringMatching(/^[0-9]{1,12}(\.[0-9]{1,4})?$/),
      fc.integer(),
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom(...fields), value)), (data) => {
        const result = parse(data);
        expect(result instanceof ApiError || typeof (result).baseLots === 'number').toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseWsCreateOrder: a size or price sent as 0 is named for what it is, in the WebSocket spelling', () => {
  it.each([
    ['size "0"', { ...LIMIT, size: '0' }, 'size: must be above 0, at least the minimum size 0.001'],
    ['price "0"', { ...LIMIT, price: '0' }, 'price: must be above 0 for a LIMIT order'],
    ['quote_size "0" on a market order', { type: 'market', side: 'buy', product_id: 'ETH-VND', quote_size: '0' }, 'quote_size: must be above 0'],
    ['price "0" on a stop-limit', { ...LIMIT, price: '0', stop_trigger_price: '80000000', side: 'sell' }, 'price: must be above 0 for a limit order'],
  ])('%s is E0110, not "required"', (_what, data, message) => {
    const err = refused(parse(data), 'E0110_ValueOutOfRange', message);
    expect(err.description).not.toContain('required');
  });

  it('a negative size says it must not be negative', () => {
    refused(parse({ ...LIMIT, size: '-0.5' }), 'E0101_InvalidArgument', 'size: must not be negative');
  });
});
