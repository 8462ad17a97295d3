// A product filter under another endpoint's name. The active and cancel-all endpoints take `product_id`, the
// history `product_ids`, and the bulk cancel a body: a client that mixes them up must not get (or cancel) every
// product's orders because the name it used was ignored as unknown.
import { describe, expect, it } from 'vitest';
import { BTC, activeOrders, archivedOrders, expectError, expectOk, limit, placeOrder, px, useVenue, type Trader, type TestVenue } from '../harness';

const venue = useVenue({ cleanBooks: true });

const ETH_ORDER = { product_id: 'ETH-VND', side: 'BUY', limit_price: '1000000', base_size: '0.01' };

async function twoProducts(v: TestVenue): Promise<{ t: Trader; btc: string; eth: string }> {
  const t = await v.newTrader({ VND: '100000000000' });
  const btc = (await placeOrder(v, t, limit('BUY', px(-100), '0.001'))).order_id;
  const eth = (await placeOrder(v, t, ETH_ORDER)).order_id;
  return { t, btc, eth };
}

describe('DELETE /api/v1/orders/active/all', () => {
  it('refuses product_ids (the history’s name) rather than cancel every product', async () => {
    const v = venue();
    const { t, btc, eth } = await twoProducts(v);
    for (const query of [{ product_ids: 'ETH-VND' }, { 'product_ids[]': 'ETH-VND' }]) {
      const reply = await v.call('DELETE', '/api/v1/orders/active/all', { key: t.creds, query });
      expectError(reply, 400, 'E0101_InvalidArgument');
      expect((reply.body as { error: { message: string } }).error.message).toContain('product_id');
    }
    expect((await activeOrders(v, t)).map((o) => o.order_id).sort()).toEqual([btc, eth].sort());
  });

  it('refuses a body (its product_id goes in the query) rather than cancel every product', async () => {
    const v = venue();
    const { t, btc, eth } = await twoProducts(v);
    for (const body of [{ product_id: 'ETH-VND' }, { product_ids: ['ETH-VND'] }]) {
      expectError(await v.call('DELETE', '/api/v1/orders/active/all', { key: t.creds, body }), 400, 'E0101_InvalidArgument');
    }
    expect((await activeOrders(v, t)).map((o) => o.order_id).sort()).toEqual([btc, eth].sort());
    // An empty object or no body at all is still the plain cancel-all.
    const all = expectOk(await v.call<{ cancel_requested_orders: unknown[] }>('DELETE', '/api/v1/orders/active/all', { key: t.creds, body: {} }));
    expect(all.cancel_requested_orders).toHaveLength(2);
  });
});

describe('GET /api/v1/orders/active', () => {
  it('refuses product_ids rather than list every product', async () => {
    const v = venue();
    const { t } = await twoProducts(v);
    expectError(await v.call('GET', '/api/v1/orders/active', { key: t.creds, query: { product_ids: 'ETH-VND' } }), 400, 'E0101_InvalidArgument');
  });
});

describe('GET /api/v1/orders/archived', () => {
  it('takes product_id as a spelling of product_ids, as Coinbase did', async () => {
    const v = venue();
    const { t, eth } = await twoProducts(v);
    expect((await archivedOrders(v, t, { product_id: 'ETH-VND' })).map((o) => o.order_id)).toEqual([eth]);
    expect((await archivedOrders(v, t, { product_id: 'ETH-VND', product_ids: BTC })).map((o) => o.product_id).sort()).toEqual([BTC, 'ETH-VND']);
    expectError(await v.call('GET', '/api/v1/orders/archived', { key: t.creds, query: { product_id: 'NOPE-VND' } }), 400, 'E0104_InvalidSymbol');
  });
});
