// POST /sim/reset (contract "Simulation endpoints"): cancel every order and restore starting balances. It acts
// on the whole venue, so it has a venue of its own.
import { describe, expect, it } from 'vitest';
import {
  BTC,
  activeOrders,
  expectError,
  expectOk,
  getAccount,
  getOrder,
  limit,
  nanosFromNow,
  placeOrder,
  px,
  useVenue,
  type WireOrderBook,
} from '../harness';

const venue = useVenue();

describe('POST /sim/reset', () => {
  it('is 403 for a non-admin key and changes nothing', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const order = await placeOrder(v, t, limit('BUY', px(-10), '0.01'));
    expectError(await v.call('POST', '/sim/reset', { key: t.creds }), 403, 'E0003_PermissionDenied');
    expect((await getOrder(v, t, order.order_id)).status).toBe('ACTIVE');
  });

  it('cancels every order of every user and puts every account back to its starting funds', async () => {
    const v = venue();
    const alice = await v.newTrader({ BTC: '1', VND: '500000000' });
    const bob = await v.newTrader({ BTC: '2', VND: '100000000' });
    const adminStart = await getAccount(v, v.admin);
    const aliceStart = await getAccount(v, alice);
    const bobStart = await getAccount(v, bob);

    await placeOrder(v, alice, limit('SELL', px(0), '0.05'));
    await placeOrder(v, bob, limit('BUY', px(0), '0.02')); // trades
    const resting = await placeOrder(v, bob, limit('BUY', px(-5), '0.01'));
    const scheduled = await placeOrder(v, alice, { product_id: 'SOL-VND', side: 'BUY', limit_price: '100000', base_size: '1', scheduled_at: nanosFromNow(600_000) });
    await placeOrder(v, v.admin, limit('BUY', px(-20), '0.1'));
    expectOk(await v.call('POST', '/sim/deposit', { key: v.admin.creds, body: { user_id: bob.userId, asset: 'VND', amount: '777' } }));
    expect((await getAccount(v, bob)).asset_balances).not.toEqual(bobStart.asset_balances);

    const reply = await v.call<{ reset: boolean }>('POST', '/sim/reset', { key: v.admin.creds });
    expect(expectOk(reply)).toEqual({ reset: true });

    for (const trader of [alice, bob, v.admin]) expect(await activeOrders(v, trader)).toEqual([]);
    expect(await getOrder(v, bob, resting.order_id)).toMatchObject({ status: 'DONE', done_reason: 'CANCELED' });
    expect(await getOrder(v, alice, scheduled.order_id)).toMatchObject({ status: 'DONE', done_reason: 'CANCELED' });
    const book = expectOk(await v.call<{ orderbook: WireOrderBook }>('GET', `/products/${BTC}/orderbook`)).orderbook;
    expect([book.bids, book.asks]).toEqual([[], []]);

    expect((await getAccount(v, alice)).asset_balances).toEqual(aliceStart.asset_balances);
    expect((await getAccount(v, bob)).asset_balances).toEqual(bobStart.asset_balances);
    expect((await getAccount(v, v.admin)).asset_balances).toEqual(adminStart.asset_balances);

    // Trading goes on normally afterwards.
    expect((await placeOrder(v, alice, limit('SELL', px(0), '0.01'))).status).toBe('ACTIVE');
  });
});
