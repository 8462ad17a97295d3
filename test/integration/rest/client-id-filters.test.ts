// A client order id filter under the bulk cancel's plural name: ignored as unknown, it listed every order.
import { describe, expect, it } from 'vitest';
import { activeOrders, archivedOrders, expectError, limit, placeOrder, px, useVenue } from '../harness';

const venue = useVenue({ cleanBooks: true });

describe('client_order_ids on the order lists, which take one client_order_id', () => {
  it('is refused with E0101 naming client_order_id, not ignored', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '100000000000' });
    const wanted = await placeOrder(v, t, limit('BUY', px(-100), '0.001', { client_order_id: 'wanted' }));
    await placeOrder(v, t, limit('BUY', px(-101), '0.001', { client_order_id: 'other' }));
    for (const path of ['/api/v1/orders/active', '/api/v1/orders/archived']) {
      for (const name of ['client_order_ids', 'client_order_ids[]']) {
        const reply = await v.call('GET', path, { key: t.creds, query: { [name]: 'wanted' } });
        expectError(reply, 400, 'E0101_InvalidArgument');
        expect((reply.body as { error: { message: string } }).error.message).toContain('client_order_id');
      }
    }
    // The singular name still filters, and an empty plural counts as absent.
    expect((await activeOrders(v, t, { client_order_id: 'wanted' })).map((o) => o.order_id)).toEqual([wanted.order_id]);
    expect(await archivedOrders(v, t, { client_order_ids: '' })).toHaveLength(2);
  });
});
