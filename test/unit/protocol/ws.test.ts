import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError, apiError } from '../../../src-shared/errors/api-error';
import {
  ErrorEventSchema,
  VenueMessageSchema,
  authSignaturePayload,
  errorEventFor,
  parseClientMessage,
  parseWsCancelOrder,
} from '../../../src-shared/protocol/ws';
import { accepted, refused } from './order-helpers';

const SIGNATURE = 'a'.repeat(64);

describe('parseClientMessage', () => {
  it('reads auth with key, integer timestamp and lowercase hex signature', () => {
    expect(accepted(parseClientMessage({ op: 'auth', data: { key: 'k1', timestamp: 1763800000, signature: SIGNATURE } }))).toEqual({
      op: 'auth',
      key: 'k1',
      timestamp: 1763800000,
      signature: SIGNATURE,
    });
    refused(parseClientMessage({ op: 'auth', data: { key: 'k1', timestamp: '1763800000', signature: SIGNATURE } }), 'E0101_InvalidArgument', 'data.timestamp');
    refused(parseClientMessage({ op: 'auth', data: { key: 'k1', timestamp: 1.5, signature: SIGNATURE } }), 'E0101_InvalidArgument', 'data.timestamp');
    refused(parseClientMessage({ op: 'auth', data: { key: 'k1', timestamp: 1, signature: 'A'.repeat(64) } }), 'E0101_InvalidArgument', 'data.signature');
    refused(parseClientMessage({ op: 'auth', data: { key: '', timestamp: 1, signature: SIGNATURE } }), 'E0101_InvalidArgument', 'data.key');
    refused(parseClientMessage({ op: 'auth' }), 'E0101_InvalidArgument', 'data: required');
  });

  it('signs "<key>,<timestamp>"', () => {
    expect(authSignaturePayload('k1', 1763800000)).toBe('k1,1763800000');
  });

  it('reads sub and unsub of the orders channel without products', () => {
    expect(accepted(parseClientMessage({ op: 'sub', channel: 'orders' }))).toEqual({ op: 'sub', channel: 'orders', productIds: [] });
    expect(accepted(parseClientMessage({ op: 'unsub', channel: 'orders', request_id: 'r' }))).toEqual({
      op: 'unsub',
      requestId: 'r',
      channel: 'orders',
      productIds: [],
    });
    refused(parseClientMessage({ op: 'sub', channel: 'orders', product_ids: ['BTC-VND'] }), 'E0101_InvalidArgument', 'product_ids');
  });

  it('reads market-data subscriptions, which need known products', () => {
    expect(accepted(parseClientMessage({ op: 'sub', channel: 'level2', product_ids: ['BTC-VND', 'BTC-VND', 'ETH-VND'] }))).toEqual({
      op: 'sub',
      channel: 'level2',
      productIds: ['BTC-VND', 'ETH-VND'],
    });
    refused(parseClientMessage({ op: 'sub', channel: 'ticker' }), 'E0101_InvalidArgument', 'product_ids: required for the ticker channel');
    refused(parseClientMessage({ op: 'sub', channel: 'trades', product_ids: ['BTC-USD'] }), 'E0104_InvalidSymbol');
    refused(parseClientMessage({ op: 'sub', channel: 'portfolio' }), 'E0101_InvalidArgument', 'channel');
  });

  it('passes create_order and cancel_order data through with the request id', () => {
    expect(accepted(parseClientMessage({ op: 'create_order', request_id: 'r1', data: { type: 'limit' } }))).toEqual({
      op: 'create_order',
      requestId: 'r1',
      data: { type: 'limit' },
    });
    expect(accepted(parseClientMessage({ op: 'cancel_order', data: { order_id: 'x' } }))).toEqual({
      op: 'cancel_order',
      data: { order_id: 'x' },
    });
  });

  it('reads ping', () => {
    expect(accepted(parseClientMessage({ op: 'ping', request_id: 'p' }))).toEqual({ op: 'ping', requestId: 'p' });
  });

  it('refuses unknown ops, missing ops, bad request ids and non-objects', () => {
    refused(parseClientMessage({ op: 'subscribe' }), 'E0101_InvalidArgument', 'op: must be one of auth, sub, unsub, create_order, cancel_order, ping');
    refused(parseClientMessage({ op: '__proto__' }), 'E0101_InvalidArgument', 'op');
    refused(parseClientMessage({}), 'E0101_InvalidArgument', 'op: required');
    refused(parseClientMessage({ op: 'ping', request_id: 5 }), 'E0101_InvalidArgument', 'request_id: expected string, got number');
    refused(parseClientMessage({ op: 'ping', request_id: 'r'.repeat(65) }), 'E0101_InvalidArgument', 'request_id');
    refused(parseClientMessage([]), 'E0101_InvalidArgument', 'message: expected object, got array');
    refused(parseClientMessage('ping'), 'E0101_InvalidArgument', 'message');
  });

  it('never throws on arbitrary JSON (property)', () => {
    const frame = fc.record(
      {
        op: fc.oneof(fc.constantFrom('auth', 'sub', 'unsub', 'create_order', 'cancel_order', 'ping'), fc.jsonValue()),
        request_id: fc.jsonValue(),
        channel: fc.oneof(fc.constantFrom('orders', 'level2', 'trades', 'ticker', 'candles'), fc.jsonValue()),
        product_ids: fc.oneof(fc.array(fc.constantFrom('BTC-VND', 'X')), fc.jsonValue()),
        data: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), frame), (input) => {
        const result = parseClientMessage(input);
        expect(result instanceof ApiError || typeof (result as { op: unknown }).op === 'string').toBe(true);
        if (result instanceof ApiError) expect(ErrorEventSchema.safeParse(errorEventFor(input, result)).success).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseWsCancelOrder', () => {
  const UUID = '0b6f7c1e-3f0a-4c1b-9d2e-5a6b7c8d9e0f';

  it('needs exactly one of order_id and client_order_id', () => {
    expect(accepted(parseWsCancelOrder({ order_id: UUID }))).toEqual({ orderId: UUID });
    expect(accepted(parseWsCancelOrder({ client_order_id: 'c1' }))).toEqual({ clientOrderId: 'c1' });
    refused(parseWsCancelOrder({}), 'E0101_InvalidArgument', 'one of them is required');
    refused(parseWsCancelOrder({ order_id: UUID, client_order_id: 'c1' }), 'E0101_InvalidArgument', 'not both');
    refused(parseWsCancelOrder({ order_id: 12 }), 'E0101_InvalidArgument', 'order_id: expected string');
    refused(parseWsCancelOrder(undefined), 'E0101_InvalidArgument', 'data: required');
  });
});

describe('errorEventFor', () => {
  it('answers order operations on the orders channel with the data echoed and a 7.4 code', () => {
    const frame = { op: 'create_order', request_id: 'r9', data: { type: 'limit', price: 'x' } };
    expect(errorEventFor(frame, apiError('E0201_InsufficientBalance', 'need 10 VND more'))).toEqual({
      channel: 'orders',
      type: 'error',
      request_id: 'r9',
      message: 'E0201_InsufficientBalance: need 10 VND more',
      code: 409,
      data: { type: 'limit', price: 'x' },
    });
    expect(errorEventFor({ op: 'cancel_order', data: {} }, apiError('E0301_OrderNotFound', 'x')).code).toBe(404);
    expect(errorEventFor({ op: 'create_order' }, apiError('E0001_AuthRequired', 'authenticate first')).code).toBe(401);
    expect(errorEventFor({ op: 'create_order' }, apiError('E0004_InsufficientScope', 'read-only api key')).code).toBe(403);
  });

  it('answers auth, sub and unknown frames on their own channels', () => {
    expect(errorEventFor({ op: 'auth' }, apiError('E0001_AuthRequired', 'bad signature')).channel).toBe('auth');
    expect(errorEventFor({ op: 'sub', channel: 'level2' }, apiError('E0104_InvalidSymbol', 'x')).channel).toBe('level2');
    expect(errorEventFor({ op: 'sub', channel: 'nope' }, apiError('E0101_InvalidArgument', 'x')).channel).toBe('subscriptions');
    expect(errorEventFor('garbage', apiError('E0102_MalformedJson', 'x'))).toEqual({
      channel: 'system',
      type: 'error',
      message: 'E0102_MalformedJson: x',
      code: 400,
    });
  });

  it('echoes a request id only when it is a short string', () => {
    expect(errorEventFor({ op: 'ping', request_id: 7 }, apiError('E0101_InvalidArgument', 'x'))).not.toHaveProperty('request_id');
    expect(errorEventFor({ op: 'ping', request_id: 'r'.repeat(65) }, apiError('E0101_InvalidArgument', 'x'))).not.toHaveProperty('request_id');
  });
});

describe('venue → client messages', () => {
  const order = { id: 'o1', client_order_id: 'c1', status: 'cancelled', cancel_requested_at: '1763800000000000000' };
  const examples = [
    { channel: 'auth', type: 'authenticated' },
    { channel: 'subscriptions', type: 'update', request_id: 'r', subscriptions: [{ channel: 'level2', product_ids: ['BTC-VND'] }] },
    { channel: 'heartbeat', type: 'pong', request_id: 'p' },
    { channel: 'orders', type: 'update', data: [order] },
    { channel: 'orders', request_id: 'r', type: 'error', message: 'E0301_OrderNotFound: x', code: 404, data: { order_id: 'x' } },
    { channel: 'level2', type: 'snapshot', product_id: 'BTC-VND', sequence: 4, time: '1', bids: [{ price: '1', size: '1', order_count: 1 }], asks: [] },
    { channel: 'level2', type: 'l2update', product_id: 'BTC-VND', sequence: 5, time: '2', changes: [{ side: 'bid', price: '1', size: '0', order_count: 0 }] },
    { channel: 'trades', type: 'update', product_id: 'BTC-VND', data: [{ id: '1', product_id: 'BTC-VND', price: '1', size: '1', side: 'BUY', time: '1' }] },
    {
      channel: 'ticker',
      type: 'update',
      product_id: 'BTC-VND',
      price: '2500000000',
      best_bid: '2499990000',
      best_bid_size: '0.5',
      best_ask: '',
      best_ask_size: '',
      open_24h: '2400000000',
      high_24h: '2600000000',
      low_24h: '2390000000',
      volume_24h: '12.5',
      time: '1',
    },
    { channel: 'candles', type: 'snapshot', product_id: 'BTC-VND', candles: [{ start: '60000000000', open: '1', high: '2', low: '1', close: '2', volume: '3' }] },
  ];

  it('parses every event the venue sends', () => {
    for (const event of examples) expect(VenueMessageSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
  });

  it('refuses events that break their shape', () => {
    expect(VenueMessageSchema.safeParse({ channel: 'level2', type: 'l2update', product_id: 'BTC-VND', sequence: -1, time: '1', changes: [] }).success).toBe(false);
    expect(VenueMessageSchema.safeParse({ channel: 'orders', type: 'update', data: [{ status: 'open' }] }).success).toBe(false);
    expect(VenueMessageSchema.safeParse({ channel: 'auth', type: 'welcome' }).success).toBe(false);
  });
});
