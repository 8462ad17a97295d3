// Contract "Running the local venue headless": restarting on the same folder resumes everything — users, keys,
// balances, resting orders, trades — as the REST API shows them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BTC,
  activeOrders,
  archivedOrders,
  balanceOf,
  expectError,
  expectOk,
  getAccount,
  getOrder,
  limit,
  nanosFromNow,
  placeOrder,
  px,
  useVenue,
  type Credentials,
  type TestVenue,
  type Trader,
  type WireOrderBook,
  type WirePublicTrade,
} from '../harness';

const venue = useVenue();

async function view(v: TestVenue, traders: Trader[]) {
  const book = expectOk(await v.call<{ orderbook: WireOrderBook }>('GET', `/products/${BTC}/orderbook`)).orderbook;
  const trades = expectOk(await v.call<{ trades: WirePublicTrade[] }>('GET', `/products/${BTC}/trades`)).trades;
  const perTrader = [];
  for (const t of traders) {
    perTrader.push({ account: await getAccount(v, t), active: await activeOrders(v, t), archived: await archivedOrders(v, t) });
  }
  return { bids: book.bids, asks: book.asks, trades, perTrader };
}

describe('a restart on the same data folder', () => {
  it('resumes users, keys, balances, resting orders and trades, and trading goes on', async () => {
    const v = venue();
    const alice = await v.newTrader({ BTC: '1', VND: '1000000000' });
    const bob = await v.newTrader({ BTC: '1', VND: '1000000000' });
    const readOnlyRecord = expectOk(
      await v.call<{ api_key: { api_key: string; api_secret: string } }>('POST', '/api-keys', { key: alice.creds, body: { name: 'viewer', read_only: true } }),
    ).api_key;
    const readOnly: Credentials = { key: readOnlyRecord.api_key, secret: readOnlyRecord.api_secret };

    await placeOrder(v, alice, limit('SELL', px(0), '0.03', { client_order_id: 'ask-1' })); // partly filled below
    await placeOrder(v, bob, limit('BUY', px(0), '0.01'));
    const bid = await placeOrder(v, bob, limit('BUY', px(-5), '0.02', { client_order_id: 'bid-1' }));
    const canceled = await placeOrder(v, bob, limit('BUY', px(-6), '0.02'));
    expectOk(await v.call('DELETE', '/api/v1/order/active', { key: bob.creds, query: { order_id: canceled.order_id } }));
    const scheduled = await placeOrder(v, alice, limit('BUY', px(-50), '0.01', { scheduled_at: nanosFromNow(600_000) }));
    const before = await view(v, [alice, bob, v.admin]);
    const oldUrl = v.baseUrl;

    await v.restart();
    expect(v.baseUrl).not.toBe(oldUrl);
    const boot = JSON.parse(fs.readFileSync(path.join(v.dataDir, 'bootstrap.json'), 'utf8')) as { user_id: string; api_key: string; base_url: string };
    expect(boot).toMatchObject({ user_id: v.admin.userId, api_key: v.admin.creds.key, base_url: v.baseUrl });

    expect(await view(v, [alice, bob, v.admin])).toEqual(before);
    expect((await getOrder(v, alice, scheduled.order_id)).status).toBe('SCHEDULED');
    expect((await v.call('GET', `/accounts/${alice.userId}`, { key: readOnly })).status).toBe(200);
    expectError(await v.call('POST', '/api/v1/orders', { key: readOnly, body: limit('BUY', px(-9), '0.01') }), 403, 'E0004_InsufficientScope', 'INSUFFICIENT_SCOPE');
    expectError(await v.call('POST', '/api/v1/orders', { key: bob.creds, body: limit('BUY', px(-9), '0.01', { client_order_id: 'BID-1' }) }), 409, 'E0303_DuplicateClientOrderId');

    // The restored ask still trades, and the restored bid still cancels.
    const bobBtc = balanceOf(await getAccount(v, bob), 'BTC').balance;
    const take = await placeOrder(v, bob, limit('BUY', px(0), '0.02'));
    expect(take).toMatchObject({ status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.02' });
    expect(balanceOf(await getAccount(v, bob), 'BTC').balance - bobBtc).toBe(2_000_000n);
    expect((await getOrder(v, alice, 'ask-1'))).toMatchObject({ status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.03' });
    expectOk(await v.call('DELETE', '/api/v1/order/active', { key: bob.creds, query: { client_order_id: 'bid-1' } }));
    expect((await getOrder(v, bob, bid.order_id)).status).toBe('DONE');
    expect(balanceOf(await getAccount(v, bob), 'VND').locked).toBe(0n);
  });
});
