import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import {
  parseActiveOrdersQuery,
  parseArchivedOrderQuery,
  parseArchivedOrdersQuery,
  parseBulkCancelBody,
  parseCancelAllQuery,
  parseCancelOrderQuery,
  parseCreateApiKeyBody,
  parseErrorCodesQuery,
  parseOrderBookQuery,
  parseProductPath,
  parseSimDepositBody,
  parseSimResetRequest,
  parseSimUserBody,
  parseTradesQuery,
} from '../../../src-shared/protocol/queries';
import { HOUR, NOW, accepted, refused } from './order-helpers';

const UUID = '0b6f7c1e-3f0a-4c1b-9d2e-5a6b7c8d9e0f';
const ids = (n: number) => Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

describe('query values', () => {
  it('a single-valued parameter given twice is E0101, even with equal values', () => {
    refused(parseActiveOrdersQuery({ product_id: ['BTC-VND', 'BTC-VND'] }), 'E0101_InvalidArgument', 'product_id: given more than once');
    refused(parseCancelOrderQuery({ order_id: [UUID, UUID] }), 'E0101_InvalidArgument', 'order_id: given more than once');
  });

  it('a one-element array is the value itself', () => {
    expect(accepted(parseActiveOrdersQuery({ product_id: ['BTC-VND'] }))).toEqual({ productId: 'BTC-VND' });
  });

  it('an empty value counts as absent', () => {
    expect(accepted(parseActiveOrdersQuery({ product_id: '' }))).toEqual({});
  });

  it('a missing query object is an empty query', () => {
    expect(accepted(parseActiveOrdersQuery(undefined))).toEqual({});
  });

  it('a value that is neither a string nor strings is E0101', () => {
    refused(parseActiveOrdersQuery({ product_id: 5 }), 'E0101_InvalidArgument', 'product_id');
    refused(parseActiveOrdersQuery({ product_id: [null] }), 'E0101_InvalidArgument', 'product_id');
    refused(parseActiveOrdersQuery('product_id=BTC-VND'), 'E0101_InvalidArgument', 'query');
  });

  it('unknown parameters are ignored', () => {
    expect(accepted(parseActiveOrdersQuery({ foo: 'bar', __proto__: 'x' }))).toEqual({});
  });
});

describe('parseActiveOrdersQuery (GET /api/v1/orders/active)', () => {
  it('takes an optional product and client order id', () => {
    expect(accepted(parseActiveOrdersQuery({ product_id: 'SOL-VND', client_order_id: 'Abc' }))).toEqual({
      productId: 'SOL-VND',
      clientOrderId: 'Abc',
    });
  });

  it('refuses an unknown product (E0104) and a malformed client order id (E0101)', () => {
    refused(parseActiveOrdersQuery({ product_id: 'DOGE-VND' }), 'E0104_InvalidSymbol');
    refused(parseActiveOrdersQuery({ client_order_id: 'a b' }), 'E0101_InvalidArgument', 'client_order_id');
  });
});

describe('parseCancelOrderQuery (DELETE /api/v1/order/active)', () => {
  it('takes exactly one of order_id and client_order_id', () => {
    expect(accepted(parseCancelOrderQuery({ order_id: UUID.toUpperCase() }))).toEqual({ orderId: UUID });
    expect(accepted(parseCancelOrderQuery({ client_order_id: 'c1' }))).toEqual({ clientOrderId: 'c1' });
    refused(parseCancelOrderQuery({}), 'E0101_InvalidArgument', 'one of them is required');
    refused(parseCancelOrderQuery({ order_id: UUID, client_order_id: 'c1' }), 'E0101_InvalidArgument', 'give exactly one');
  });

  it('an order id must be a UUID', () => {
    refused(parseCancelOrderQuery({ order_id: '123' }), 'E0101_InvalidArgument', 'order_id: must be a UUID');
    refused(parseCancelOrderQuery({ order_id: `${UUID}\u0000` }), 'E0101_InvalidArgument', 'order_id');
  });
});

describe('parseBulkCancelBody (DELETE /api/v1/orders/active)', () => {
  it('takes one list of product ids, order ids or client order ids', () => {
    expect(accepted(parseBulkCancelBody({ product_ids: ['BTC-VND', 'ETH-VND'] }))).toEqual({ by: 'product_ids', ids: ['BTC-VND', 'ETH-VND'] });
    expect(accepted(parseBulkCancelBody({ order_ids: [UUID] }))).toEqual({ by: 'order_ids', ids: [UUID] });
    expect(accepted(parseBulkCancelBody({ client_order_ids: ['a', 'b'] }))).toEqual({ by: 'client_order_ids', ids: ['a', 'b'] });
  });

  it('accepts 100 ids and refuses 101 with E0110', () => {
    expect(accepted(parseBulkCancelBody({ order_ids: ids(100) })).ids).toHaveLength(100);
    refused(parseBulkCancelBody({ order_ids: ids(101) }), 'E0110_ValueOutOfRange', 'order_ids: at most 100 items, got 101');
    refused(
      parseBulkCancelBody({ client_order_ids: Array.from({ length: 101 }, (_, i) => `c${i}`) }),
      'E0110_ValueOutOfRange',
      'client_order_ids: at most 100 items',
    );
  });

  it('refuses more than one list with E0101', () => {
    refused(parseBulkCancelBody({ order_ids: [UUID], client_order_ids: ['a'] }), 'E0101_InvalidArgument', 'order_ids, client_order_ids: give exactly one list');
    refused(parseBulkCancelBody({ product_ids: [], order_ids: [] }), 'E0101_InvalidArgument', 'give exactly one list');
  });

  it('refuses no list, and takes an empty list as a request that cancels nothing', () => {
    refused(parseBulkCancelBody({}), 'E0101_InvalidArgument', 'one of them is required');
    refused(parseBulkCancelBody({ order_ids: null }), 'E0101_InvalidArgument', 'one of them is required');
    expect(accepted(parseBulkCancelBody({ order_ids: [] }))).toEqual({ by: 'order_ids', ids: [] });
  });

  it('checks every id and names the bad one', () => {
    refused(parseBulkCancelBody({ product_ids: ['BTC-VND', 'XRP-VND'] }), 'E0104_InvalidSymbol', 'product_ids[1]');
    refused(parseBulkCancelBody({ order_ids: [UUID, 'nope'] }), 'E0101_InvalidArgument', 'order_ids[1]: must be a UUID');
    refused(parseBulkCancelBody({ client_order_ids: ['ok', 'bad id'] }), 'E0101_InvalidArgument', 'client_order_ids[1]');
    refused(parseBulkCancelBody({ order_ids: [UUID, 7] }), 'E0101_InvalidArgument', 'order_ids[1]: expected string, got number');
    refused(parseBulkCancelBody({ order_ids: UUID }), 'E0101_InvalidArgument', 'order_ids: expected array, got string');
  });

  it('drops duplicates, keeping the first', () => {
    expect(accepted(parseBulkCancelBody({ order_ids: [UUID, UUID.toUpperCase()] })).ids).toEqual([UUID]);
    expect(accepted(parseBulkCancelBody({ product_ids: ['BTC-VND', 'BTC-VND'] })).ids).toEqual(['BTC-VND']);
  });

  it('needs a JSON object body', () => {
    for (const body of [undefined, null, [], 'x']) refused(parseBulkCancelBody(body), 'E0101_InvalidArgument', 'request body');
  });
});

describe('parseCancelAllQuery (DELETE /api/v1/orders/active/all)', () => {
  it('takes an optional product', () => {
    expect(accepted(parseCancelAllQuery({}))).toEqual({});
    expect(accepted(parseCancelAllQuery({ product_id: 'ETH-VND' }))).toEqual({ productId: 'ETH-VND' });
    refused(parseCancelAllQuery({ product_id: 'ETH-USD' }), 'E0104_InvalidSymbol');
  });

  it('refuses an empty filter, which would cancel every product, rather than read it as absent', () => {
    refused(parseCancelAllQuery({ product_id: '' }), 'E0104_InvalidSymbol', 'product_id: empty');
    refused(parseCancelAllQuery({ product_ids: '' }), 'E0101_InvalidArgument', 'product_ids');
    refused(parseCancelAllQuery({ productId: '' }), 'E0101_InvalidArgument', 'productId');
    refused(parseCancelAllQuery({ '': '' }), 'E0101_InvalidArgument', 'a parameter without a name: not a parameter');
    // Beside a product_id an empty stray parameter broadens nothing.
    expect(accepted(parseCancelAllQuery({ product_id: 'ETH-VND', note: '' }))).toEqual({ productId: 'ETH-VND' });
  });
});

describe('parseArchivedOrdersQuery (GET /api/v1/orders/archived)', () => {
  it('defaults: all products, limit 100, sort -created_at', () => {
    expect(accepted(parseArchivedOrdersQuery({}))).toEqual({ productIds: [], limit: 100, sort: '-created_at' });
  });

  it('product_ids may repeat, be comma separated, or both', () => {
    expect(accepted(parseArchivedOrdersQuery({ product_ids: 'BTC-VND,ETH-VND' })).productIds).toEqual(['BTC-VND', 'ETH-VND']);
    expect(accepted(parseArchivedOrdersQuery({ product_ids: ['BTC-VND', 'SOL-VND,ETH-VND', 'BTC-VND'] })).productIds).toEqual([
      'BTC-VND',
      'SOL-VND',
      'ETH-VND',
    ]);
    expect(accepted(parseArchivedOrdersQuery({ product_ids: 'BTC-VND,' })).productIds).toEqual(['BTC-VND']);
    refused(parseArchivedOrdersQuery({ product_ids: 'BTC-VND,BTC-USD' }), 'E0104_InvalidSymbol', 'BTC-USD');
  });

  it('start_time and end_time are inclusive nanoseconds, start not after end', () => {
    const q = accepted(parseArchivedOrdersQuery({ start_time: String(NOW), end_time: String(NOW) }));
    expect(q.startTime).toBe(NOW);
    expect(q.endTime).toBe(NOW);
    refused(parseArchivedOrdersQuery({ start_time: String(NOW + 1n), end_time: String(NOW) }), 'E0110_ValueOutOfRange', 'start_time');
    refused(parseArchivedOrdersQuery({ start_time: '-1' }), 'E0101_InvalidArgument', 'start_time');
    refused(parseArchivedOrdersQuery({ end_time: '1.5' }), 'E0101_InvalidArgument', 'end_time');
  });

  it('limit is 1 to 1000; larger or zero is E0110, malformed E0101', () => {
    expect(accepted(parseArchivedOrdersQuery({ limit: '1000' })).limit).toBe(1000);
    expect(accepted(parseArchivedOrdersQuery({ limit: '1' })).limit).toBe(1);
    refused(parseArchivedOrdersQuery({ limit: '1001' }), 'E0110_ValueOutOfRange', 'limit: must be at most 1000');
    refused(parseArchivedOrdersQuery({ limit: '0' }), 'E0110_ValueOutOfRange', 'limit: must be at least 1');
    refused(parseArchivedOrdersQuery({ limit: '99999999999999999999999' }), 'E0110_ValueOutOfRange', 'limit');
    for (const text of ['-5', '10.0', '1e3', ' 10', 'ten']) refused(parseArchivedOrdersQuery({ limit: text }), 'E0101_InvalidArgument', 'limit');
    refused(parseArchivedOrdersQuery({ limit: ['10', '20'] }), 'E0101_InvalidArgument', 'limit: given more than once');
  });

  it('status is one of SUBMITTED, ACTIVE, DONE, SCHEDULED', () => {
    for (const status of ['SUBMITTED', 'ACTIVE', 'DONE', 'SCHEDULED']) {
      expect(accepted(parseArchivedOrdersQuery({ status })).status).toBe(status);
    }
    refused(parseArchivedOrdersQuery({ status: 'OPEN' }), 'E0101_InvalidArgument', 'status: must be one of');
  });

  it('sort is one of created_at, -created_at, updated_at, -updated_at', () => {
    for (const sort of ['created_at', '-created_at', 'updated_at', '-updated_at']) {
      expect(accepted(parseArchivedOrdersQuery({ sort })).sort).toBe(sort);
    }
    refused(parseArchivedOrdersQuery({ sort: 'price' }), 'E0101_InvalidArgument', 'sort');
  });

  it('takes a client_order_id filter', () => {
    expect(accepted(parseArchivedOrdersQuery({ client_order_id: 'X1' })).clientOrderId).toBe('X1');
    refused(parseArchivedOrdersQuery({ client_order_id: 'x'.repeat(65) }), 'E0101_InvalidArgument', 'client_order_id');
  });
});

describe('parseArchivedOrderQuery (GET /api/v1/order/archived)', () => {
  it('takes an order id or a client order id, telling which could be an order id', () => {
    expect(accepted(parseArchivedOrderQuery({ order: UUID }))).toEqual({ order: UUID, uuidShaped: true });
    expect(accepted(parseArchivedOrderQuery({ order: 'mine-1' }))).toEqual({ order: 'mine-1', uuidShaped: false });
  });

  it('requires it and refuses malformed values', () => {
    refused(parseArchivedOrderQuery({}), 'E0101_InvalidArgument', 'order: required');
    refused(parseArchivedOrderQuery({ order: 'a b' }), 'E0101_InvalidArgument', 'order');
  });
});

describe('parseCreateApiKeyBody (POST /api-keys)', () => {
  it('takes an empty or missing body', () => {
    expect(accepted(parseCreateApiKeyBody(undefined, { now: NOW }))).toEqual({ name: '', readOnly: false, expiresAt: 0n });
    expect(accepted(parseCreateApiKeyBody({}, { now: NOW }))).toEqual({ name: '', readOnly: false, expiresAt: 0n });
  });

  it('takes a name, read_only and an expiration in the future', () => {
    expect(
      accepted(parseCreateApiKeyBody({ name: 'bot ✓', read_only: true, expiration_time: String(NOW + HOUR) }, { now: NOW })),
    ).toEqual({ name: 'bot ✓', readOnly: true, expiresAt: NOW + HOUR });
  });

  it('name is at most 100 characters without control characters', () => {
    expect(accepted(parseCreateApiKeyBody({ name: '键'.repeat(100) }, { now: NOW })).name).toHaveLength(100);
    refused(parseCreateApiKeyBody({ name: 'n'.repeat(101) }, { now: NOW }), 'E0110_ValueOutOfRange', 'name: at most 100');
    refused(parseCreateApiKeyBody({ name: 'a\u0000b' }, { now: NOW }), 'E0101_InvalidArgument', 'name: must not contain control characters');
  });

  it('expiration_time is int64 nanoseconds as a string, in the future', () => {
    refused(parseCreateApiKeyBody({ expiration_time: String(NOW) }, { now: NOW }), 'E0110_ValueOutOfRange', 'expiration_time: must be in the future');
    refused(parseCreateApiKeyBody({ expiration_time: Number(NOW + HOUR) }, { now: NOW }), 'E0101_InvalidArgument', 'expiration_time: expected string');
    refused(parseCreateApiKeyBody({ expiration_time: '1e18' }, { now: NOW }), 'E0101_InvalidArgument', 'expiration_time');
    refused(parseCreateApiKeyBody({ read_only: 'yes' }, { now: NOW }), 'E0101_InvalidArgument', 'read_only: expected boolean');
  });
});

describe('parseErrorCodesQuery (GET /v1/error-codes)', () => {
  it('takes optional single category and ref', () => {
    expect(accepted(parseErrorCodesQuery({ category: 'auth', ref: 'E0001_AuthRequired' }))).toEqual({
      category: 'auth',
      ref: 'E0001_AuthRequired',
    });
    expect(accepted(parseErrorCodesQuery({}))).toEqual({});
    refused(parseErrorCodesQuery({ category: ['auth', 'system'] }), 'E0101_InvalidArgument', 'category: given more than once');
  });
});

describe('public market data queries', () => {
  it('a product path names a listed product, else 404 E0104', () => {
    expect(parseProductPath('BTC-VND')).toBe('BTC-VND');
    const err = refused(parseProductPath('BTC-USD'), 'E0104_InvalidSymbol');
    expect(err.httpStatus).toBe(404);
  });

  it('order book depth defaults to 50, at most 1000', () => {
    expect(accepted(parseOrderBookQuery({}))).toEqual({ depth: 50 });
    expect(accepted(parseOrderBookQuery({ depth: '1000' }))).toEqual({ depth: 1000 });
    refused(parseOrderBookQuery({ depth: '1001' }), 'E0110_ValueOutOfRange', 'depth');
    refused(parseOrderBookQuery({ depth: 'all' }), 'E0101_InvalidArgument', 'depth');
  });

  it('trades limit defaults to 100, at most 1000', () => {
    expect(accepted(parseTradesQuery(undefined))).toEqual({ limit: 100 });
    expect(accepted(parseTradesQuery({ limit: '7' }))).toEqual({ limit: 7 });
    refused(parseTradesQuery({ limit: '5000' }), 'E0110_ValueOutOfRange', 'limit');
  });
});

describe('simulator bodies', () => {
  it('POST /sim/users takes balances of known assets in their decimals', () => {
    expect(accepted(parseSimUserBody({ balances: { BTC: '1.5', VND: '1000000' } }))).toEqual({
      balances: [
        { assetId: 'BTC', atoms: 150_000_000n },
        { assetId: 'VND', atoms: 1_000_000n },
      ],
    });
    expect(accepted(parseSimUserBody({}))).toEqual({ balances: [] });
  });

  it('POST /sim/users refuses unknown assets, __proto__ included, and bad amounts', () => {
    refused(parseSimUserBody({ balances: { DOGE: '1' } }), 'E0101_InvalidArgument', 'balances.DOGE: unknown asset DOGE');
    refused(parseSimUserBody(JSON.parse('{"balances": {"__proto__": "1"}}')), 'E0101_InvalidArgument', 'unknown asset');
    refused(parseSimUserBody({ balances: { VND: '1.5' } }), 'E0101_InvalidArgument', 'balances.VND: must have at most 0 decimal places');
    refused(parseSimUserBody({ balances: { BTC: 1 } }), 'E0101_InvalidArgument', 'balances.BTC: expected a decimal string');
    refused(parseSimUserBody({ balances: { BTC: '-1' } }), 'E0101_InvalidArgument', 'must not be negative');
    refused(parseSimUserBody({ balances: ['BTC'] }), 'E0101_InvalidArgument', 'balances: expected an object');
  });

  it('POST /sim/deposit takes user_id, asset and an amount above 0', () => {
    expect(accepted(parseSimDepositBody({ user_id: 'u-1', asset: 'ETH', amount: '2.5' }))).toEqual({
      userId: 'u-1',
      assetId: 'ETH',
      atoms: 250_000_000n,
    });
    refused(parseSimDepositBody({ user_id: 'u-1', asset: 'ETH', amount: '0' }), 'E0110_ValueOutOfRange', 'amount: must be above 0');
    refused(parseSimDepositBody({ user_id: 'u-1', asset: 'XRP', amount: '1' }), 'E0101_InvalidArgument', 'asset: unknown asset');
    refused(parseSimDepositBody({ user_id: 'u 1', asset: 'ETH', amount: '1' }), 'E0101_InvalidArgument', 'user_id');
    refused(parseSimDepositBody({ asset: 'ETH', amount: '1' }), 'E0101_InvalidArgument', 'user_id: required');
  });

  it('/sim bodies take null as absent: a required field is missing, an optional one or a balance entry left out', () => {
    refused(parseSimDepositBody({ user_id: null, asset: 'ETH', amount: '1' }), 'E0101_InvalidArgument', 'user_id: required');
    refused(parseSimDepositBody({ user_id: 'u-1', asset: 'ETH', amount: null }), 'E0101_InvalidArgument', 'amount: required');
    expect(accepted(parseSimUserBody({ balances: { BTC: null, VND: '5' }, maker_fee_rate: null }))).toEqual({ balances: [{ assetId: 'VND', atoms: 5n }] });
    expect(accepted(parseSimUserBody({ balances: null }))).toEqual({ balances: [] });
  });
});

describe('every parser (property)', () => {
  it('never throws on arbitrary JSON', () => {
    const parsers: ((input: unknown) => unknown)[] = [
      parseActiveOrdersQuery,
      parseCancelOrderQuery,
      parseBulkCancelBody,
      parseCancelAllQuery,
      parseArchivedOrdersQuery,
      parseArchivedOrderQuery,
      (b) => parseCreateApiKeyBody(b, { now: NOW }),
      parseErrorCodesQuery,
      parseOrderBookQuery,
      parseTradesQuery,
      parseSimUserBody,
      parseSimDepositBody,
      (q) => parseSimResetRequest(q, undefined),
      (b) => parseSimResetRequest({}, b),
    ];
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        for (const parse of parsers) {
          const result = parse(input);
          expect(result instanceof ApiError || (typeof result === 'object' && result !== null)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
