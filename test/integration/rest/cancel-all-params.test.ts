// DELETE /api/v1/orders/active/all (interface 4.6) takes one filter, product_id. Every other endpoint ignores a
// query parameter it does not know, as Coinbase does; here an ignored one makes the request broader: a client that
// misspells the filter (productId, product, symbol) meant one product and had every product's orders cancelled.
import { describe, expect, it } from 'vitest';
import { BTC, activeOrders, expectError, expectOk, placeOrder, px, useVenue } from '../harness';

const venue = useVenue({ cleanBooks: true });

describe('DELETE /api/v1/orders/active/all with a query parameter it does not take', () => {
  it('is 400 E0101 naming it, and cancels nothing', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const btc = await placeOrder(v, t, { product_id: BTC, side: 'BUY', limit_price: px(-100), base_size: '0.001' });
    const eth = await placeOrder(v, t, { product_id: 'ETH-VND', side: 'BUY', limit_price: '1000000', base_size: '0.01' });

    for (const [name, value] of [
      ['productId', BTC],
      ['product', BTC],
      ['symbol', BTC],
      ['order_id', btc.order_id],
    ] as const) {
      const reply = await v.call('DELETE', '/api/v1/orders/active/all', { key: t.creds, query: { [name]: value } });
      expectError(reply, 400, 'E0101_InvalidArgument', 'InvalidArgument');
      expect((reply.body as { error: { message: string } }).error.message).toContain(`${name}: not a parameter of this endpoint`);
    }
    expect((await activeOrders(v, t)).map((o) => o.order_id).sort()).toEqual([btc.order_id, eth.order_id].sort());
  });

  it('still takes product_id, with or without an empty unknown parameter beside it', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const btc = await placeOrder(v, t, { product_id: BTC, side: 'BUY', limit_price: px(-100), base_size: '0.001' });
    const eth = await placeOrder(v, t, { product_id: 'ETH-VND', side: 'BUY', limit_price: '1000000', base_size: '0.01' });
    const some = expectOk(
      await v.call<{ cancel_requested_orders: { order_id: string }[] }>('DELETE', '/api/v1/orders/active/all', { key: t.creds, query: { product_id: BTC, note: '' } }),
    );
    expect(some.cancel_requested_orders.map((o) => o.order_id)).toEqual([btc.order_id]);
    expect((await activeOrders(v, t)).map((o) => o.order_id)).toEqual([eth.order_id]);
  });
});
