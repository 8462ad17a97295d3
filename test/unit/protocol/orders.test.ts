import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder, type NewOrderRequest } from '../../../src-shared/protocol/orders';
import { HOUR, NOW, accepted, refused } from './order-helpers';

const opts = { now: NOW };
const LIMIT = { side: 'BUY', product_id: 'BTC-VND', limit_price: '2500000000', base_size: '0.01' };

function parse(body: unknown): NewOrderRequest | ApiError {
  return parseCreateOrder(body, opts);
}

function ok(body: unknown): NewOrderRequest {
  return accepted(parse(body));
}

describe('parseCreateOrder: a plain limit order', () => {
  it('normalizes to engine integers and canonical decimals with every default', () => {
    expect(ok({ ...LIMIT, limit_price: '2500000000.00', base_size: '0.0100' })).toEqual({
      productId: 'BTC-VND',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      postOnly: false,
      stp: 'CANCEL_TAKER',
      stopType: 'STOP_NONE',
      clientOrderId: '',
      limitTicks: 250000,
      baseLots: 100,
      quoteAtoms: 0n,
      exactQuoteAtoms: 0n,
      stopTriggerTicks: 0,
      expiredAt: 0n,
      scheduledAt: 0n,
      wait: false,
      limitPrice: '2500000000',
      baseSize: '0.01',
      quoteSize: '0',
      exactQuoteSize: '0',
      stopTriggerPrice: '0',
    });
  });

  it('keeps the values it was given for every optional field', () => {
    const order = ok({
      ...LIMIT,
      type: 'LIMIT',
      side: 'SELL',
      stp: 'CANCEL_BOTH',
      time_in_force: 'GTT',
      expired_at: String(NOW + HOUR),
      scheduled_at: String(NOW + 1n),
      post_only: true,
      client_order_id: 'my:order_1-A',
      wait: true,
    });
    expect(order).toMatchObject({
      side: 'SELL',
      stp: 'CANCEL_BOTH',
      timeInForce: 'GTT',
      expiredAt: NOW + HOUR,
      scheduledAt: NOW + 1n,
      postOnly: true,
      clientOrderId: 'my:order_1-A',
      wait: true,
    });
  });

  it('ignores unknown fields, as Coinbase does', () => {
    expect(ok({ ...LIMIT, leverage: 100, margin: 'x' }).limitTicks).toBe(250000);
  });

  it('treats null as absent', () => {
    expect(ok({ ...LIMIT, stp: null, time_in_force: null, client_order_id: null, quote_size: null }).stp).toBe('CANCEL_TAKER');
  });
});

describe('parseCreateOrder: the body', () => {
  it('must be a JSON object', () => {
    for (const body of [null, undefined, [], 'order', 42, true]) refused(parse(body), 'E0101_InvalidArgument', 'request body');
  });

  it('names the field whose JSON type is wrong', () => {
    refused(parse({ ...LIMIT, limit_price: 2500000000 }), 'E0101_InvalidArgument', 'limit_price: expected string, got number');
    refused(parse({ ...LIMIT, base_size: 0.01 }), 'E0101_InvalidArgument', 'base_size: expected string, got number');
    refused(parse({ ...LIMIT, post_only: 'true' }), 'E0101_InvalidArgument', 'post_only: expected boolean, got string');
    refused(parse({ ...LIMIT, wait: 1 }), 'E0101_InvalidArgument', 'wait: expected boolean');
    refused(parse({ ...LIMIT, side: ['BUY'] }), 'E0101_InvalidArgument', 'side: expected string, got array');
    refused(parse({ ...LIMIT, expired_at: Number(NOW + HOUR) }), 'E0101_InvalidArgument', 'expired_at: expected string');
    refused(parse({ ...LIMIT, client_order_id: { a: 1 } }), 'E0101_InvalidArgument', 'client_order_id: expected string, got object');
  });

  it('is not fooled by __proto__ or constructor keys', () => {
    const hostile = JSON.parse('{"__proto__": {"type": "MARKET", "side": "SELL"}, "constructor": {"prototype": {}}}') as unknown;
    refused(parse(hostile), 'E0101_InvalidArgument', 'side: required');
    const withProto = JSON.parse(`{"__proto__": {"time_in_force": "FOK"}, ${JSON.stringify(LIMIT).slice(1)}`) as unknown;
    expect(ok(withProto).timeInForce).toBe('GTC');
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});

describe('parseCreateOrder: type, side, product, stp', () => {
  it('type defaults to LIMIT and must be LIMIT, MARKET, STOP or TWAP', () => {
    expect(ok(LIMIT).type).toBe('LIMIT');
    refused(parse({ ...LIMIT, type: 'limit' }), 'E0101_InvalidArgument', 'type: must be one of LIMIT, MARKET, STOP, TWAP');
    refused(parse({ ...LIMIT, type: 'ICEBERG' }), 'E0101_InvalidArgument', 'type');
  });

  it('side is required and must be BUY or SELL', () => {
    refused(parse({ ...LIMIT, side: undefined }), 'E0101_InvalidArgument', 'side: required');
    refused(parse({ ...LIMIT, side: null }), 'E0101_InvalidArgument', 'side: required');
    refused(parse({ ...LIMIT, side: 'buy' }), 'E0101_InvalidArgument', 'side: must be one of BUY, SELL');
  });

  it('product_id is required and an unknown product is E0104', () => {
    refused(parse({ ...LIMIT, product_id: undefined }), 'E0101_InvalidArgument', 'product_id: required');
    refused(parse({ ...LIMIT, product_id: 'BTC-USD' }), 'E0104_InvalidSymbol', 'product_id: unknown product BTC-USD');
    refused(parse({ ...LIMIT, product_id: 'btc-vnd' }), 'E0104_InvalidSymbol');
    const err = refused(parse({ ...LIMIT, product_id: '__proto__' }), 'E0104_InvalidSymbol');
    expect(err.httpStatus).toBe(400);
  });

  it('does not echo a hostile product id into the message', () => {
    const err = refused(parse({ ...LIMIT, product_id: `BTC\u0000${'x'.repeat(5000)}` }), 'E0104_InvalidSymbol');
    expect(err.description).toBe('product_id: unknown product');
  });

  it('stp defaults to CANCEL_TAKER and takes only the three REST names', () => {
    expect(ok({ ...LIMIT, stp: 'CANCEL_MAKER' }).stp).toBe('CANCEL_MAKER');
    refused(parse({ ...LIMIT, stp: 'DECREASE_AND_CANCEL' }), 'E0101_InvalidArgument', 'stp: must be one of CANCEL_TAKER, CANCEL_MAKER, CANCEL_BOTH');
    refused(parse({ ...LIMIT, stp: 'CN' }), 'E0101_InvalidArgument', 'stp');
  });
});

describe('parseCreateOrder: prices and sizes', () => {
  it('must be exact multiples of the product increments, never rounded', () => {
    refused(parse({ ...LIMIT, limit_price: '2500005000' }), 'E0101_InvalidArgument', 'limit_price: not a multiple of 10000');
    refused(parse({ ...LIMIT, base_size: '0.00015' }), 'E0101_InvalidArgument', 'base_size: not a multiple of 0.0001');
    refused(parse({ ...LIMIT, product_id: 'SOL-VND', limit_price: '4000050', base_size: '1' }), 'E0101_InvalidArgument', 'not a multiple of 100');
  });

  it('refuse hostile decimal texts with E0101 naming the field', () => {
    for (const text of ['1e400', '-0', 'NaN', 'Infinity', '  1', '1 ', '', '0x10', '1\u0000', '١', '+1', '.5']) {
      refused(parse({ ...LIMIT, limit_price: text }), 'E0101_InvalidArgument', 'limit_price: ');
      refused(parse({ ...LIMIT, base_size: text }), 'E0101_InvalidArgument', 'base_size: ');
    }
  });

  it('refuse 40-digit decimals as out of range', () => {
    refused(parse({ ...LIMIT, limit_price: '1'.repeat(40) }), 'E0110_ValueOutOfRange', 'limit_price');
    refused(parse({ ...LIMIT, base_size: `${'1'.repeat(40)}.5` }), 'E0110_ValueOutOfRange', 'base_size');
  });

  it('size must lie within min_size and max_size (E0110)', () => {
    expect(ok({ ...LIMIT, base_size: '0.0001', limit_price: '100000000' }).baseLots).toBe(1);
    expect(ok({ ...LIMIT, base_size: '1000' }).baseLots).toBe(10_000_000);
    refused(parse({ ...LIMIT, base_size: '1000.0001' }), 'E0110_ValueOutOfRange', 'base_size: above the maximum size 1000');
    expect(ok({ ...LIMIT, product_id: 'ETH-VND', limit_price: '90000000', base_size: '0.001' }).baseLots).toBe(1);
  });

  it('price must not exceed max_price (E0110)', () => {
    expect(ok({ ...LIMIT, limit_price: '100000000000' }).limitTicks).toBe(10_000_000);
    refused(parse({ ...LIMIT, limit_price: '100000010000' }), 'E0110_ValueOutOfRange', 'limit_price: above the maximum price 100000000000');
  });

  it('a limit order must reach min_notional (E0110)', () => {
    refused(parse({ ...LIMIT, limit_price: '10000', base_size: '0.0001' }), 'E0110_ValueOutOfRange', 'below the minimum notional 10000');
    expect(ok({ ...LIMIT, limit_price: '100000000', base_size: '0.0001' }).limitTicks).toBe(10000);
  });
});

describe('parseCreateOrder: sizing by base or quote', () => {
  const MARKET = { type: 'MARKET', side: 'BUY', product_id: 'BTC-VND' };

  it('base_size and quote_size are mutually exclusive', () => {
    refused(parse({ ...MARKET, base_size: '0.01', quote_size: '1000000' }), 'E0101_InvalidArgument', 'mutually exclusive');
    expect(ok({ ...MARKET, base_size: '0.01', quote_size: '0' }).baseLots).toBe(100);
    expect(ok({ ...MARKET, base_size: '0', quote_size: '1000000' }).quoteAtoms).toBe(1_000_000n);
  });

  it('quote_size is for MARKET orders only', () => {
    refused(parse({ ...LIMIT, base_size: undefined, quote_size: '1000000' }), 'E0101_InvalidArgument', 'quote_size: for MARKET orders only');
  });

  it('quote_size must lie between min_notional and the notional of max_size at max_price', () => {
    refused(parse({ ...MARKET, quote_size: '9999' }), 'E0110_ValueOutOfRange', 'quote_size: below the minimum notional');
    refused(parse({ ...MARKET, quote_size: '100000000000001' }), 'E0110_ValueOutOfRange', 'quote_size: above the maximum notional 100000000000000');
    refused(parse({ ...MARKET, quote_size: '1000.5' }), 'E0101_InvalidArgument', 'quote_size: must have at most 0 decimal places');
  });
});

describe('parseCreateOrder: MARKET orders', () => {
  const MARKET = { type: 'MARKET', side: 'SELL', product_id: 'ETH-VND', base_size: '0.5' };

  it('default to IOC and carry no limit', () => {
    expect(ok(MARKET)).toMatchObject({ type: 'MARKET', timeInForce: 'IOC', limitTicks: 0, limitPrice: '0', baseLots: 500 });
  });

  it('need limit_price 0 or absent', () => {
    expect(ok({ ...MARKET, limit_price: '0' }).limitTicks).toBe(0);
    expect(ok({ ...MARKET, limit_price: '0.000' }).limitTicks).toBe(0);
    refused(parse({ ...MARKET, limit_price: '90000000' }), 'E0101_InvalidArgument', 'limit_price: must be 0 for a MARKET order');
  });

  it('must use IOC', () => {
    expect(ok({ ...MARKET, time_in_force: 'IOC' }).timeInForce).toBe('IOC');
    for (const tif of ['GTC', 'FOK', 'GTT']) {
      refused(parse({ ...MARKET, time_in_force: tif }), 'E0101_InvalidArgument', 'time_in_force: must be IOC for a MARKET order');
    }
  });

  it('cannot be post-only', () => {
    expect(ok({ ...MARKET, post_only: false }).postOnly).toBe(false);
    refused(parse({ ...MARKET, post_only: true }), 'E0101_InvalidArgument', 'post_only: must be false for a MARKET order');
  });

  it('need a base or a quote size', () => {
    refused(parse({ ...MARKET, base_size: undefined }), 'E0101_InvalidArgument', 'base_size or quote_size: one is required');
  });
});

describe('parseCreateOrder: LIMIT orders', () => {
  it('need a limit price above 0 and a base size', () => {
    refused(parse({ ...LIMIT, limit_price: undefined }), 'E0101_InvalidArgument', 'limit_price: required for a LIMIT order');
    refused(parse({ ...LIMIT, limit_price: '0' }), 'E0110_ValueOutOfRange', 'limit_price: must be above 0 for a LIMIT order, at least 10000');
    refused(parse({ ...LIMIT, base_size: undefined }), 'E0101_InvalidArgument', 'base_size: required for a LIMIT order');
  });

  it('time_in_force defaults to GTC and takes GTC, IOC, FOK, GTT', () => {
    for (const tif of ['GTC', 'IOC', 'FOK']) expect(ok({ ...LIMIT, time_in_force: tif }).timeInForce).toBe(tif);
    refused(parse({ ...LIMIT, time_in_force: 'DAY' }), 'E0101_InvalidArgument', 'time_in_force: must be one of GTC, IOC, FOK, GTT');
  });

  it('post_only cannot be combined with IOC or FOK', () => {
    refused(parse({ ...LIMIT, post_only: true, time_in_force: 'IOC' }), 'E0101_InvalidArgument', 'post_only: cannot be combined with IOC');
    refused(parse({ ...LIMIT, post_only: true, time_in_force: 'FOK' }), 'E0101_InvalidArgument', 'post_only: cannot be combined with FOK');
  });
});

describe('parseCreateOrder: GTT and expiry', () => {
  it('GTT requires expired_at', () => {
    refused(parse({ ...LIMIT, time_in_force: 'GTT' }), 'E0101_InvalidArgument', 'expired_at: required for GTT');
  });

  it('GTT requires expired_at in the future', () => {
    refused(parse({ ...LIMIT, time_in_force: 'GTT', expired_at: String(NOW) }), 'E0110_ValueOutOfRange', 'expired_at: must be in the future');
    refused(parse({ ...LIMIT, time_in_force: 'GTT', expired_at: String(NOW - 1n) }), 'E0110_ValueOutOfRange');
    expect(ok({ ...LIMIT, time_in_force: 'GTT', expired_at: String(NOW + 1n) }).expiredAt).toBe(NOW + 1n);
  });

  it('expired_at must come after scheduled_at', () => {
    refused(
      parse({ ...LIMIT, time_in_force: 'GTT', expired_at: String(NOW + HOUR), scheduled_at: String(NOW + 2n * HOUR) }),
      'E0110_ValueOutOfRange',
      'expired_at: must be after scheduled_at',
    );
  });

  it('expired_at is refused on orders that do not expire', () => {
    refused(parse({ ...LIMIT, expired_at: String(NOW + HOUR) }), 'E0101_InvalidArgument', 'expired_at: for GTT and TWAP orders only');
    expect(ok({ ...LIMIT, expired_at: '0' }).expiredAt).toBe(0n);
  });

  it('timestamps are int64 nanoseconds written as digits only', () => {
    for (const text of ['-1', '1.5', '1e18', ' 1', 'now', '']) {
      refused(parse({ ...LIMIT, time_in_force: 'GTT', expired_at: text }), 'E0101_InvalidArgument', 'expired_at: ');
      refused(parse({ ...LIMIT, scheduled_at: text }), 'E0101_InvalidArgument', 'scheduled_at: ');
    }
    refused(parse({ ...LIMIT, scheduled_at: '9223372036854775808' }), 'E0110_ValueOutOfRange', 'scheduled_at: must fit in a signed 64-bit integer');
  });

  it('scheduled_at may be given on any order, past or future', () => {
    expect(ok({ ...LIMIT, scheduled_at: String(NOW + HOUR) }).scheduledAt).toBe(NOW + HOUR);
    expect(ok({ ...LIMIT, scheduled_at: '1' }).scheduledAt).toBe(1n);
  });
});

describe('parseCreateOrder: exact_quote_size', () => {
  const EXACT = { side: 'BUY', product_id: 'BTC-VND', base_size: '0.01', exact_quote_size: '25100000', time_in_force: 'FOK' };

  it('is a LIMIT FOK order with limit_price 0 and a base size', () => {
    expect(ok(EXACT)).toMatchObject({
      type: 'LIMIT',
      timeInForce: 'FOK',
      limitTicks: 0,
      baseLots: 100,
      exactQuoteAtoms: 25_100_000n,
      exactQuoteSize: '25100000',
    });
    expect(ok({ ...EXACT, limit_price: '0' }).limitTicks).toBe(0);
  });

  it('defaults time_in_force to FOK and refuses any other', () => {
    expect(ok({ ...EXACT, time_in_force: undefined }).timeInForce).toBe('FOK');
    refused(parse({ ...EXACT, time_in_force: 'GTC' }), 'E0101_InvalidArgument', 'time_in_force: must be FOK with exact_quote_size');
  });

  it('is for LIMIT orders only', () => {
    refused(parse({ ...EXACT, type: 'MARKET', time_in_force: 'IOC' }), 'E0101_InvalidArgument', 'exact_quote_size: for LIMIT orders only');
  });

  it('needs limit_price 0', () => {
    refused(parse({ ...EXACT, limit_price: '2500000000' }), 'E0101_InvalidArgument', 'limit_price: must be 0 with exact_quote_size');
  });

  it('needs base_size', () => {
    refused(parse({ ...EXACT, base_size: undefined }), 'E0101_InvalidArgument', 'base_size: required with exact_quote_size');
  });

  it('cannot be post-only', () => {
    refused(parse({ ...EXACT, post_only: true }), 'E0101_InvalidArgument', 'post_only');
  });
});

describe('parseCreateOrder: STOP orders', () => {
  const STOP = {
    type: 'STOP',
    side: 'SELL',
    product_id: 'BTC-VND',
    base_size: '0.01',
    limit_price: '2400000000',
    order_stop_type: 'STOP_LOSS',
    stop_trigger_price: '2450000000',
  };

  it('carry the stop type and trigger in ticks', () => {
    expect(ok(STOP)).toMatchObject({
      type: 'STOP',
      stopType: 'STOP_LOSS',
      stopTriggerTicks: 245000,
      stopTriggerPrice: '2450000000',
      limitTicks: 240000,
      timeInForce: 'GTC',
    });
    expect(ok({ ...STOP, order_stop_type: 'TAKE_PROFIT' }).stopType).toBe('TAKE_PROFIT');
  });

  it('require STOP_LOSS or TAKE_PROFIT', () => {
    refused(parse({ ...STOP, order_stop_type: undefined }), 'E0101_InvalidArgument', 'order_stop_type: must be STOP_LOSS or TAKE_PROFIT');
    refused(parse({ ...STOP, order_stop_type: 'STOP_NONE' }), 'E0101_InvalidArgument', 'order_stop_type');
    refused(parse({ ...STOP, order_stop_type: 'TRAILING' }), 'E0101_InvalidArgument', 'order_stop_type: must be one of STOP_NONE, STOP_LOSS, TAKE_PROFIT');
  });

  it('require a stop_trigger_price above 0 (E0213)', () => {
    refused(parse({ ...STOP, stop_trigger_price: undefined }), 'E0213_InvalidStopPrice', 'stop_trigger_price: required');
    refused(parse({ ...STOP, stop_trigger_price: '0' }), 'E0213_InvalidStopPrice');
  });

  it('check the trigger like any price', () => {
    refused(parse({ ...STOP, stop_trigger_price: '2450001000' }), 'E0101_InvalidArgument', 'stop_trigger_price: not a multiple of 10000');
    refused(parse({ ...STOP, stop_trigger_price: '200000000000' }), 'E0110_ValueOutOfRange', 'stop_trigger_price: above the maximum price');
  });

  it('without a limit price become market orders on trigger, so follow MARKET rules', () => {
    const market = ok({ ...STOP, limit_price: '0' });
    expect(market).toMatchObject({ limitTicks: 0, timeInForce: 'IOC' });
    refused(parse({ ...STOP, limit_price: undefined, time_in_force: 'GTC' }), 'E0101_InvalidArgument', 'must be IOC for a STOP order without a limit price');
    refused(parse({ ...STOP, limit_price: undefined, post_only: true }), 'E0101_InvalidArgument', 'post_only');
  });

  it('with a limit price must reach min_notional', () => {
    refused(parse({ ...STOP, limit_price: '10000', base_size: '0.0001' }), 'E0110_ValueOutOfRange', 'minimum notional');
  });

  it('need a base size, not a quote size', () => {
    refused(parse({ ...STOP, base_size: undefined }), 'E0101_InvalidArgument', 'base_size: required for a STOP order');
    refused(parse({ ...STOP, base_size: undefined, quote_size: '1000000' }), 'E0101_InvalidArgument', 'quote_size: not for a stop order, which takes base_size');
  });

  it('stop fields are refused on other order types', () => {
    refused(parse({ ...LIMIT, order_stop_type: 'STOP_LOSS' }), 'E0101_InvalidArgument', 'order_stop_type: for STOP orders only');
    refused(parse({ ...LIMIT, stop_trigger_price: '2450000000' }), 'E0213_InvalidStopPrice', 'stop_trigger_price: for STOP orders only');
    expect(ok({ ...LIMIT, order_stop_type: 'STOP_NONE', stop_trigger_price: '0' }).stopType).toBe('STOP_NONE');
  });
});

describe('parseCreateOrder: TWAP orders', () => {
  const TWAP = { type: 'TWAP', side: 'BUY', product_id: 'SOL-VND', base_size: '10', expired_at: String(NOW + HOUR) };

  it('need base_size and expired_at, and take an optional price cap', () => {
    expect(ok(TWAP)).toMatchObject({ type: 'TWAP', baseLots: 1000, limitTicks: 0, expiredAt: NOW + HOUR, timeInForce: 'GTC' });
    expect(ok({ ...TWAP, limit_price: '4100000' }).limitTicks).toBe(41000);
    refused(parse({ ...TWAP, base_size: undefined }), 'E0101_InvalidArgument', 'base_size: required for a TWAP order');
    refused(parse({ ...TWAP, expired_at: undefined }), 'E0101_InvalidArgument', 'expired_at: required for a TWAP order');
  });

  it('need expired_at after now and after scheduled_at', () => {
    refused(parse({ ...TWAP, expired_at: String(NOW) }), 'E0110_ValueOutOfRange', 'expired_at: must be in the future');
    refused(parse({ ...TWAP, scheduled_at: String(NOW + HOUR) }), 'E0110_ValueOutOfRange', 'expired_at: must be after scheduled_at');
    expect(ok({ ...TWAP, scheduled_at: String(NOW + 1n) }).scheduledAt).toBe(NOW + 1n);
  });

  it('run as GTC or GTT only, and never post-only', () => {
    expect(ok({ ...TWAP, time_in_force: 'GTT' }).timeInForce).toBe('GTT');
    refused(parse({ ...TWAP, time_in_force: 'IOC' }), 'E0101_InvalidArgument', 'time_in_force: must be GTC or GTT for a TWAP order');
    refused(parse({ ...TWAP, post_only: true }), 'E0101_InvalidArgument', 'post_only: must be false for a TWAP order');
  });
});

describe('parseCreateOrder: client_order_id', () => {
  it('absent becomes empty', () => {
    expect(ok(LIMIT).clientOrderId).toBe('');
  });

  it('takes letters, digits, ":", "-" and "_", 1 to 64 of them', () => {
    expect(ok({ ...LIMIT, client_order_id: 'a'.repeat(64) }).clientOrderId).toHaveLength(64);
    expect(ok({ ...LIMIT, client_order_id: 'A:b-c_9' }).clientOrderId).toBe('A:b-c_9');
  });

  it('refuses empty, too long, NUL bytes, unicode and other symbols', () => {
    for (const id of ['', 'a'.repeat(65), 'a\u0000b', 'ordré', '订单', 'a b', 'a/b', 'a.b', '😀', 'a\nb']) {
      refused(parse({ ...LIMIT, client_order_id: id }), 'E0101_InvalidArgument', 'client_order_id: 1 to 64 characters');
    }
  });
});

describe('parseCreateOrder (property)', () => {
  const fields = [
    'type',
    'side',
    'product_id',
    'stp',
    'limit_price',
    'base_size',
    'quote_size',
    'exact_quote_size',
    'time_in_force',
    'post_only',
    'order_stop_type',
    'stop_trigger_price',
    'client_order_id',
    'expired_at',
    'scheduled_at',
    'wait',
    '__proto__',
    'constructor',
  ];
  const plausible = fc.oneof(
    fc.jsonValue(),
    fc.constantFrom('LIMIT', 'MARKET', 'STOP', 'TWAP', 'BUY', 'SELL', 'BTC-VND', 'GTT', 'IOC', 'FOK', 'STOP_LOSS', '0', '1e400'),
    fc.stringMatching(/^[0-9]{1,16}(\.[0-9]{1,8})?$/),
    fc.boolean(),
  );
  const orderish = fc.dictionary(fc.constantFrom(...fields), plausible);

  it('never throws on arbitrary JSON: it returns a request or an ApiError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), orderish), (body) => {
        const result = parse(body);
        expect(result instanceof ApiError || typeof (result).limitTicks === 'number').toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('every accepted order satisfies the product bounds', () => {
    fc.assert(
      fc.property(orderish, (body) => {
        const result = parse(body);
        if (result instanceof ApiError) return;
        expect(Number.isSafeInteger(result.limitTicks) && result.limitTicks >= 0 && result.limitTicks <= 10_000_000).toBe(true);
        expect(result.baseLots === 0 || (result.baseLots >= 1 && result.baseLots <= 10_000_000)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseCreateOrder: a size or price sent as 0 or negative is named for what it is, not called missing', () => {
  const MARKET_BUY = { type: 'MARKET', side: 'BUY', product_id: 'BTC-VND' };
  const STOP_SELL = { ...LIMIT, type: 'STOP', side: 'SELL', order_stop_type: 'STOP_LOSS', stop_trigger_price: '2400000000' };
  const TWAP_SELL = { type: 'TWAP', side: 'SELL', product_id: 'BTC-VND', expired_at: String(NOW + HOUR) };
  it.each([
    ['LIMIT base_size "0"', { ...LIMIT, base_size: '0' }, 'base_size: must be above 0, at least the minimum size 0.0001'],
    ['LIMIT base_size "0.0000"', { ...LIMIT, base_size: '0.0000' }, 'base_size: must be above 0, at least the minimum size 0.0001'],
    ['STOP base_size "0"', { ...STOP_SELL, base_size: '0' }, 'base_size: must be above 0, at least the minimum size 0.0001'],
    ['TWAP base_size "0"', { ...TWAP_SELL, base_size: '0' }, 'base_size: must be above 0, at least the minimum size 0.0001'],
    ['exact-quote base_size "0"', { ...LIMIT, limit_price: '0', base_size: '0', exact_quote_size: '30000000' }, 'base_size: must be above 0, at least the minimum size 0.0001'],
    ['MARKET base_size "0"', { ...MARKET_BUY, base_size: '0' }, 'base_size: must be above 0, at least the minimum size 0.0001'],
    ['MARKET quote_size "0"', { ...MARKET_BUY, quote_size: '0' }, 'quote_size: must be above 0, at least the minimum notional 10000'],
    ['MARKET both "0"', { ...MARKET_BUY, base_size: '0', quote_size: '0' }, 'base_size or quote_size: both are 0'],
    ['LIMIT limit_price "0"', { ...LIMIT, limit_price: '0' }, 'limit_price: must be above 0 for a LIMIT order'],
    ['exact_quote_size "0" with no price', { ...LIMIT, limit_price: '0', exact_quote_size: '0' }, 'exact_quote_size: must be above 0, at least the minimum notional 10000'],
  ])('%s is E0110 saying it must be above 0', (_what, body, message) => {
    const err = refused(parse(body), 'E0110_ValueOutOfRange', message);
    expect(err.description).not.toContain('required');
  });

  it.each([
    ['base_size', { ...LIMIT, base_size: '-0.01' }],
    ['limit_price', { ...LIMIT, limit_price: '-2500000000' }],
    ['quote_size', { ...MARKET_BUY, quote_size: '-1000000' }],
    ['exact_quote_size', { ...LIMIT, limit_price: '0', exact_quote_size: '-30000000' }],
    ['stop_trigger_price', { ...STOP_SELL, stop_trigger_price: '-1' }],
  ])('a negative %s is E0101 saying it must not be negative', (field, body) => {
    refused(parse(body), 'E0101_InvalidArgument', `${field}: must not be negative`);
  });

  it('an absent field is still called required, and "-0" is still a sign', () => {
    refused(parse({ ...LIMIT, base_size: undefined }), 'E0101_InvalidArgument', 'base_size: required for a LIMIT order');
    refused(parse({ ...MARKET_BUY }), 'E0101_InvalidArgument', 'base_size or quote_size: one is required');
    refused(parse({ ...LIMIT, base_size: '-0' }), 'E0101_InvalidArgument', 'base_size: must not have a sign');
  });
});
