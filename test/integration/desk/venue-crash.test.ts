// Issue 6: killing the embedded venue's worker never loses the desk's view of an order. The worker is ended as
// a crash would end it (nothing in flight answered); the desk's supervisor starts it again on the same folder
// and port, and the desk reconnects, reconciles, and holds exactly what the venue holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueRestClient } from '../../../src-main/connection/rest-client';
import { eventually, openTestDesk, type TestDesk } from './open-desk';

let t: TestDesk;

const call: TestDesk['call'] = (method, request) => t.call(method, request);

/** A resting buy far under the simulated market, so nothing fills it; its order id. */
async function placeRestingBuy(price: string): Promise<string> {
  const placed = await call('orders.place', { environment: 'local', product_id: 'BTC-VND', side: 'BUY', limit_price: price, base_size: '0.001', override_checks: true });
  if (placed.status !== 'placed') throw new Error(`the desk held the order: ${JSON.stringify(placed.issues)}`);
  return placed.order.order_id;
}

async function venueClient(): Promise<VenueRestClient> {
  const boot = await t.bootstrap();
  return new VenueRestClient({ baseUrl: t.venue.status().baseUrl, credentials: { apiKey: boot.api_key, apiSecret: boot.api_secret } });
}

/** The desk's open orders, and the venue's own list, by id. */
async function openOrderIds(): Promise<{ desk: string[]; venue: string[] }> {
  const desk = (await call('orders.active', { product_id: 'BTC-VND' })).map((o) => o.order_id).sort();
  const { user_id: mine } = await t.bootstrap();
  const venue = (await (await venueClient()).listActiveOrders({ product_id: 'BTC-VND' })).filter((o) => o.user_id === mine);
  return { desk, venue: venue.map((o) => o.order_id).sort() };
}

beforeAll(async () => {
  t = await openTestDesk();
  await t.desk.whenLive();
});

afterAll(async () => {
  await t.close();
});

describe('the embedded venue’s worker killed under the desk', () => {
  it('comes back on the same port, and the desk holds exactly the venue’s orders, the acknowledged one included', async () => {
    const before = t.venue.status();
    const acknowledged = await placeRestingBuy('1200000000');
    expect((await openOrderIds()).desk).toContain(acknowledged);

    // One placement in flight as the worker dies: it may or may not have reached the venue's journal.
    const inFlight = placeRestingBuy('1100000000').catch(() => undefined);
    await t.venue.terminate();
    const after = await eventually(() => (t.venue.status().state === 'ready' ? t.venue.status() : undefined), 'the venue started again');
    expect(after.baseUrl).toBe(before.baseUrl);
    await inFlight;

    await eventually(async () => ((await call('connection.status', {})).state === 'live' ? true : undefined), 'the desk live again');
    // Whatever the in-flight placement became, the desk and the venue agree, and the acknowledged order is there.
    const agreed = await eventually(async () => {
      const ids = await openOrderIds();
      return JSON.stringify(ids.desk) === JSON.stringify(ids.venue) ? ids : undefined;
    }, 'the desk reconciled with the venue');
    expect(agreed.venue).toContain(acknowledged);

    // And it trades on: a new order and a cancel both land, seen the same on both sides.
    const next = await placeRestingBuy('1300000000');
    await call('orders.cancel', { environment: 'local', order_id: acknowledged });
    const now = await eventually(async () => {
      const ids = await openOrderIds();
      return JSON.stringify(ids.desk) === JSON.stringify(ids.venue) && ids.desk.includes(next) ? ids : undefined;
    }, 'the desk and the venue agreeing after new orders');
    expect(now.desk).not.toContain(acknowledged);
    const history = await call('orders.history', { status: 'DONE', limit: 10, sort: '-updated_at' });
    expect(history.map((o) => o.order_id)).toContain(acknowledged);
  });

  it('is left stopped, not restarted, when the desk stops it', async () => {
    // (Covered last: it ends this file's venue.)
    await t.venue.stop();
    expect(t.venue.status().state).toBe('stopped');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.venue.status().state).toBe('stopped');
  });
});
