// The desk's client parses every venue answer with the schemas of src-shared/protocol/records.ts. Whatever the
// venue sends over real HTTP must parse with them, and what the client reads must carry what the venue meant.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AccountResponseSchema,
  ApiKeyResponseSchema,
  AssetsResponseSchema,
  BulkCancelResponseSchema,
  CancelAllResponseSchema,
  ErrorCodesResponseSchema,
  ErrorResponseSchema,
  OrderBookResponseSchema,
  OrderResponseSchema,
  OrdersResponseSchema,
  ProductsResponseSchema,
  SimUserResponseSchema,
  TradesResponseSchema,
} from '../../../src-shared/protocol/records';
import { BTC, expectOk, limit, placeOrder, px, useVenue, type Reply } from '../harness';

const venue = useVenue({ cleanBooks: true });

function parses(schema: z.ZodType, reply: Reply, what: string): void {
  const result = schema.safeParse(reply.body);
  const problems = result.success ? '' : JSON.stringify(result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  expect(result.success, `${what} does not parse with the client's schema: ${problems}`).toBe(true);
}

describe("the client's schemas accept the venue's answers", () => {
  it('public records', async () => {
    const v = venue();
    const maker = await v.newTrader({ BTC: '1', VND: '1000000000' });
    await placeOrder(v, maker, limit('SELL', px(1), '0.01'));
    await placeOrder(v, maker, limit('BUY', px(-1), '0.01'));
    const taker = await v.newTrader({ VND: '1000000000' });
    await placeOrder(v, taker, limit('BUY', px(1), '0.005'));

    parses(ProductsResponseSchema, await v.call('GET', '/products'), 'GET /products');
    parses(AssetsResponseSchema, await v.call('GET', '/assets'), 'GET /assets');
    parses(TradesResponseSchema, await v.call('GET', `/products/${BTC}/trades`), 'GET /products/{id}/trades');
    parses(ErrorCodesResponseSchema, await v.call('GET', '/v1/error-codes'), 'GET /v1/error-codes');
    parses(ErrorResponseSchema, await v.call('GET', '/products/NOPE-VND/trades'), 'the error object');
  });

  it('the order book', async () => {
    const v = venue();
    const maker = await v.newTrader({ VND: '1000000000' });
    await placeOrder(v, maker, limit('BUY', px(-1), '0.01'));
    parses(OrderBookResponseSchema, await v.call('GET', `/products/${BTC}/orderbook`), 'GET /products/{id}/orderbook');
  });

  it('orders, cancels, accounts, keys and simulated users', async () => {
    const v = venue();
    const created = await v.call('POST', '/sim/users', { key: v.admin.creds, body: { balances: { BTC: '1', VND: '1000000000' } } });
    parses(SimUserResponseSchema, created, 'POST /sim/users');
    const t = await v.newTrader({ BTC: '1', VND: '1000000000' });
    const other = await v.newTrader({ BTC: '1', VND: '1000000000' });
    await placeOrder(v, other, limit('SELL', px(0), '0.01'));

    parses(OrderResponseSchema, await v.call('POST', '/api/v1/orders', { key: t.creds, body: limit('BUY', px(0), '0.02', { wait: true }) }), 'POST /api/v1/orders (wait)');
    parses(OrderResponseSchema, await v.call('POST', '/api/v1/orders', { key: t.creds, body: limit('BUY', px(-5), '0.01', { client_order_id: 'schema-1' }) }), 'POST /api/v1/orders (submitted)');
    parses(OrdersResponseSchema, await v.call('GET', '/api/v1/orders/active', { key: t.creds }), 'GET /api/v1/orders/active');
    parses(OrdersResponseSchema, await v.call('GET', '/api/v1/orders/archived', { key: t.creds }), 'GET /api/v1/orders/archived');
    parses(OrderResponseSchema, await v.call('GET', '/api/v1/order/archived', { key: t.creds, query: { order: 'schema-1' } }), 'GET /api/v1/order/archived');
    parses(OrderResponseSchema, await v.call('DELETE', '/api/v1/order/active', { key: t.creds, query: { client_order_id: 'schema-1' } }), 'DELETE /api/v1/order/active');
    parses(BulkCancelResponseSchema, await v.call('DELETE', '/api/v1/orders/active', { key: t.creds, body: { product_ids: [BTC] } }), 'DELETE /api/v1/orders/active');
    await placeOrder(v, t, limit('BUY', px(-5), '0.01'));
    parses(CancelAllResponseSchema, await v.call('DELETE', '/api/v1/orders/active/all', { key: t.creds }), 'DELETE /api/v1/orders/active/all');
    parses(AccountResponseSchema, await v.call('GET', `/accounts/${t.userId}`, { key: t.creds }), 'GET /accounts/{id}');
    parses(ApiKeyResponseSchema, await v.call('POST', '/api-keys', { key: t.creds, body: { name: 'schema' } }), 'POST /api-keys');
  });

  it("a rejected order's reason reaches the client", async () => {
    const v = venue();
    const poor = await v.newTrader({ VND: '1000' });
    const reply = await v.call('POST', '/api/v1/orders', { key: poor.creds, body: limit('BUY', px(), '0.01', { wait: true }) });
    const order = OrderResponseSchema.parse(expectOk(reply)).order;
    expect(order).toMatchObject({ status: 'DONE', done_reason: 'REJECTED' });
    expect(order.reject_reason, 'OrderSchema.reject_reason of a rejected order').toBe('E0201_InsufficientBalance');
  });
});
