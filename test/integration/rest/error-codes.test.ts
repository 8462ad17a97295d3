// GET /v1/error-codes (interface 4.10, 2.5, 7.3) and the contract's rule that every reference the venue emits
// is in the catalogue, with the HTTP status the venue actually answers with.
import { describe, expect, it } from 'vitest';
import { expectError, expectErrorCodeRecord, expectOk, limit, px, useVenue, type Reply, type WireErrorCode } from '../harness';

const venue = useVenue();

async function lookup(query: Record<string, string> = {}): Promise<WireErrorCode[]> {
  const reply = await venue().call<{ data: { errors: unknown[] } }>('GET', '/v1/error-codes', { query });
  const body = expectOk(reply);
  expect(Object.keys(body)).toEqual(['data']);
  expect(Object.keys(body.data)).toEqual(['errors']);
  return body.data.errors.map(expectErrorCodeRecord);
}

const INTERFACE_REFS = [
  'E0001_AuthRequired',
  'E0003_PermissionDenied',
  'E0004_InsufficientScope',
  'E0101_InvalidArgument',
  'E0104_InvalidSymbol',
  'E0110_ValueOutOfRange',
  'E0201_InsufficientBalance',
  'E0210_OrderLimitExceeded',
  'E0213_InvalidStopPrice',
  'E0501_RateLimitExceeded',
  'E0503_OrderRateLimitExceeded',
  'E0601_WithdrawalSuspended',
  'E0603_MinWithdrawalAmount',
  'E0605_DailyWithdrawalLimitExceeded',
];

const CATEGORIES = ['auth', 'validation', 'trading', 'account', 'market', 'rate_limit', 'funding', 'system'];

describe('GET /v1/error-codes', () => {
  it('serves the whole catalogue, every record with every field of 2.5, refs unique', async () => {
    const all = await lookup();
    const refs = all.map((r) => r.ref);
    expect(new Set(refs).size).toBe(refs.length);
    for (const record of all) {
      expect(Object.keys(record).sort()).toEqual(
        ['action', 'category', 'code', 'grpc_code', 'http_status', 'message', 'ref', 'retry_allowed', 'severity', 'title'],
      );
      expect(record.http_status).toBeGreaterThanOrEqual(400);
      expect(record.http_status).toBeLessThan(600);
    }
    for (const ref of INTERFACE_REFS) expect(refs, ref).toContain(ref);
    expect(all.find((r) => r.ref === 'E0101_InvalidArgument')).toMatchObject({
      code: 'E0101',
      category: 'validation',
      grpc_code: 'InvalidArgument',
      http_status: 400,
      severity: 'warning',
      retry_allowed: true,
      action: 'none',
    });
    expect(all.find((r) => r.ref === 'E0001_AuthRequired')).toMatchObject({ category: 'auth', grpc_code: 'Unauthenticated', http_status: 401 });
    expect(all.find((r) => r.ref === 'E0501_RateLimitExceeded')).toMatchObject({ category: 'rate_limit', http_status: 429 });
  });

  it('filters by category; the categories partition the catalogue', async () => {
    const all = await lookup();
    let total = 0;
    for (const category of CATEGORIES) {
      const some = await lookup({ category });
      for (const r of some) expect(r.category).toBe(category);
      total += some.length;
    }
    expect(total).toBe(all.length);
  });

  it('finds one record by ref', async () => {
    const [only, ...rest] = await lookup({ ref: 'E0213_InvalidStopPrice' });
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ ref: 'E0213_InvalidStopPrice', code: 'E0213' });
  });

  it('refuses an unknown category and a malformed or unknown ref with 400', async () => {
    const v = venue();
    expectError(await v.call('GET', '/v1/error-codes', { query: { category: 'weather' } }), 400, 'E0101_InvalidArgument');
    expectError(await v.call('GET', '/v1/error-codes', { query: { ref: 'not a ref' } }), 400, 'E0101_InvalidArgument');
    // Well-formed but not in the catalogue: a value outside what exists, not a malformed one.
    expectError(await v.call('GET', '/v1/error-codes', { query: { ref: 'E0999_NoSuchThing' } }), 400, 'E0110_ValueOutOfRange', 'OutOfRange');
    expectError(await v.call('GET', '/v1/error-codes', { query: { ref: 'E0999_NoSuchThing', category: 'system' } }), 400, 'E0110_ValueOutOfRange');
    expectError(await v.call('GET', '/v1/error-codes', { query: { ref: 'E0101_InvalidArgument', category: 'weather' } }), 400, 'E0101_InvalidArgument');
  });

  it('with ref and category together, returns the record only when both match, else an empty list', async () => {
    const [record] = await lookup({ ref: 'E0201_InsufficientBalance' });
    if (record === undefined) throw new Error('E0201_InsufficientBalance is not in the catalogue');
    expect((await lookup({ ref: record.ref, category: record.category })).map((r) => r.ref)).toEqual([record.ref]);
    for (const category of CATEGORIES.filter((c) => c !== record.category)) {
      // lookup checks the { data: { errors } } shape of the empty answer too.
      expect(await lookup({ ref: record.ref, category }), category).toEqual([]);
    }
  });
});

describe('every reference the REST API answers with', () => {
  it('is in the catalogue, with the HTTP status the venue used', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '1000000000' });
    const readOnly = expectOk(await v.call<{ api_key: { api_key: string; api_secret: string } }>('POST', '/api-keys', { key: trader.creds, body: { read_only: true } })).api_key;
    const order = expectOk(await v.call<{ order: { order_id: string } }>('POST', '/api/v1/orders', { key: trader.creds, body: { ...limit('BUY', px(-100), '0.001'), client_order_id: 'cat', wait: true } })).order;

    const replies: Reply[] = [
      await v.call('GET', `/accounts/${trader.userId}`),
      await v.call('GET', `/accounts/${v.admin.userId}`, { key: trader.creds }),
      await v.call('POST', '/api/v1/orders', { key: { key: readOnly.api_key, secret: readOnly.api_secret }, body: limit('BUY', px(), '0.01') }),
      await v.call('POST', '/api/v1/orders', { key: trader.creds, body: limit('BUY', 'abc', '0.01') }),
      await v.call('POST', '/api/v1/orders', { key: trader.creds, rawBody: '{"side":', headers: { 'content-type': 'application/json' } }),
      await v.call('POST', '/api/v1/orders', { key: trader.creds, rawBody: 'side=BUY', headers: { 'content-type': 'text/plain' } }),
      await v.call('POST', '/api/v1/orders', { key: trader.creds, body: limit('BUY', px(), '0.01', { product_id: 'XYZ-VND' }) }),
      await v.call('POST', '/api/v1/orders', { key: trader.creds, body: limit('BUY', px(), '5000') }),
      await v.call('POST', '/api/v1/orders', { key: trader.creds, body: limit('BUY', px(-100), '0.001', { client_order_id: 'CAT' }) }),
      await v.call('POST', '/api/v1/orders', { key: trader.creds, body: limit('BUY', px(), '0.01', { type: 'STOP', order_stop_type: 'STOP_LOSS' }) }),
      await v.call('GET', '/no/such/route'),
      await v.call('DELETE', '/api/v1/order/active', { key: trader.creds, query: { order_id: '0b6c8a4e-1d3f-4c6b-9a7e-2f5d8c1b3a90' } }),
      await v.call('GET', `/products/XYZ-VND/trades`),
      await v.call('POST', '/sim/deposit', { key: v.admin.creds, body: { user_id: 'nobody', asset: 'VND', amount: '1' } }),
    ];
    expectOk(await v.call('DELETE', '/api/v1/order/active', { key: trader.creds, query: { order_id: order.order_id } }));
    replies.push(await v.call('DELETE', '/api/v1/order/active', { key: trader.creds, query: { order_id: order.order_id } }));

    const catalogue = new Map((await lookup()).map((r) => [r.ref, r]));
    const seen = new Set<string>();
    for (const reply of replies) {
      const message = (reply.body as { error?: { message?: unknown } }).error?.message;
      if (typeof message !== 'string') throw new Error(`not an error object: ${reply.status} ${JSON.stringify(reply.body)}`);
      const ref = /^(E\d{4}_[A-Za-z0-9]+): /.exec(message)?.[1];
      if (ref === undefined) throw new Error(`message without a reference: ${message}`);
      seen.add(ref);
      const record = catalogue.get(ref);
      expect(record, `${ref} is in the catalogue`).toBeDefined();
      // The one documented exception: an unknown product in a product path is 404.
      const status = ref === 'E0104_InvalidSymbol' && reply.status === 404 ? 404 : record?.http_status;
      expect(reply.status, `HTTP status of ${ref}`).toBe(status);
    }
    expect(seen.size).toBeGreaterThanOrEqual(12);
  });
});
