// DELETE /api/v1/orders/active/all with its filter present and empty. Elsewhere an empty query value counts as
// absent, which for a read lists every product; for this cancel it cancelled every product's orders, so a client
// that builds the URL from a variable that happened to be empty lost all its orders instead of one product's.
import { describe, expect, it } from 'vitest';
import { BTC, activeOrders, expectError, expectOk, placeOrder, px, useVenue, type TestVenue, type Trader } from '../harness';

const venue = useVenue({ cleanBooks: true });

async function twoProducts(v: TestVenue): Promise<{ t: Trader; ids: string[] }> {
  const t = await v.newTrader({ VND: '1000000000' });
  const btc = await placeOrder(v, t, { product_id: BTC, side: 'BUY', limit_price: px(-100), base_size: '0.001' });
  const eth = await placeOrder(v, t, { product_id: 'ETH-VND', side: 'BUY', limit_price: '1000000', base_size: '0.01' });
  return { t, ids: [btc.order_id, eth.order_id].sort() };
}

function messageOf(reply: { body: unknown }): string {
  return (reply.body as { error: { message: string } }).error.message;
}

describe('DELETE /api/v1/orders/active/all with an empty filter', () => {
  it('refuses product_id= and a bare product_id as an unknown product would be, and cancels nothing', async () => {
    const v = venue();
    const { t, ids } = await twoProducts(v);
    for (const path of ['/api/v1/orders/active/all?product_id=', '/api/v1/orders/active/all?product_id']) {
      const reply = await v.call('DELETE', path, { key: t.creds });
      expectError(reply, 400, 'E0104_InvalidSymbol');
      expect(messageOf(reply), path).toContain('product_id: empty');
    }
    expect((await activeOrders(v, t)).map((o) => o.order_id).sort()).toEqual(ids);
  });

  it('refuses an empty filter under another name when nothing else narrows the cancel', async () => {
    const v = venue();
    const { t, ids } = await twoProducts(v);
    for (const name of ['product_ids', 'product_ids[]', 'productId', 'symbol']) {
      const reply = await v.call('DELETE', '/api/v1/orders/active/all', { key: t.creds, query: { [name]: '' } });
      expectError(reply, 400, 'E0101_InvalidArgument');
      expect(messageOf(reply), name).toContain(`${name}: `);
    }
    expect((await activeOrders(v, t)).map((o) => o.order_id).sort()).toEqual(ids);
  });

  it('still cancels every product with no query at all, and reads still take product_id= as every product', async () => {
    const v = venue();
    const { t, ids } = await twoProducts(v);
    expect((await activeOrders(v, t, { product_id: '' })).map((o) => o.order_id).sort()).toEqual(ids);
    const all = expectOk(await v.call<{ cancel_requested_orders: { order_id: string }[] }>('DELETE', '/api/v1/orders/active/all', { key: t.creds }));
    expect(all.cancel_requested_orders.map((o) => o.order_id).sort()).toEqual(ids);
  });
});
