// POST /sim/reset takes nothing: it cancels every order of every account and puts every balance back. A client
// that sent it a filter (a user, a product) had the filter ignored and the whole venue reset, as the cancel-all
// did with a misspelt product filter.
import { describe, expect, it } from 'vitest';
import { BTC, activeOrders, expectError, expectOk, placeOrder, px, useVenue } from '../harness';

const venue = useVenue();

describe('POST /sim/reset with a filter it does not take', () => {
  it('is 400 E0101 naming it, and resets nothing', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const order = await placeOrder(v, t, { product_id: BTC, side: 'BUY', limit_price: px(-100), base_size: '0.001' });
    for (const [options, named] of [
      [{ body: { user_id: t.userId } }, 'request body'],
      [{ body: { product_id: BTC } }, 'request body'],
      [{ body: [] }, 'request body'],
      [{ query: { user_id: t.userId } }, 'user_id'],
      [{ query: { product_id: '' } }, 'product_id'],
    ] as const) {
      const reply = await v.call('POST', '/sim/reset', { key: v.admin.creds, ...options });
      expectError(reply, 400, 'E0101_InvalidArgument');
      expect((reply.body as { error: { message: string } }).error.message, JSON.stringify(options)).toContain(`${named}: `);
    }
    expect((await activeOrders(v, t)).map((o) => o.order_id)).toEqual([order.order_id]);
    // Without a filter, with or without an empty body, it resets as before.
    expect(expectOk(await v.call('POST', '/sim/reset', { key: v.admin.creds, body: {} }))).toEqual({ reset: true });
    expect(await activeOrders(v, t)).toEqual([]);
    expect(expectOk(await v.call('POST', '/sim/reset', { key: v.admin.creds }))).toEqual({ reset: true });
  });
});
