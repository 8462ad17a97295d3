// The pre-trade price check measures a limit against the market: the last trade the desk's ticker showed, else
// one read from the venue. A ticker the desk no longer receives (its product unwatched) is not the market.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { groupDigits } from '../../../src-shared/protocol/decimal';
import { BTC, LocalVenue, px, type Account } from '../connection/local-venue';
import { LoopbackGate } from '../connection/loopback-gate';
import { eventually } from '../eventually';
import { deskOnDevelopment } from './open-desk';

let venue: LocalVenue;
let desk: Desk;
let closeDesk: () => Promise<void>;

beforeAll(async () => {
  venue = await LocalVenue.start();
  ({ desk, close: closeDesk } = await deskOnDevelopment(venue, { label: 'reference' }));
});

afterAll(async () => {
  await closeDesk();
  await venue.dispose();
});

/** One trade at `price` between two users other than the desk's. */
async function tradeAt(seller: Account, buyer: Account, price: string): Promise<void> {
  await venue.client(seller).placeOrder({ product_id: BTC, side: 'SELL', limit_price: price, base_size: '0.01', wait: true });
  await venue.client(buyer).placeOrder({ product_id: BTC, side: 'BUY', limit_price: price, base_size: '0.01', wait: true });
}

describe('the market a limit is measured against', () => {
  it('is not a ticker left from a product the desk stopped watching', async () => {
    const seller = await venue.newAccount();
    const buyer = await venue.newAccount();
    const then = px(0);
    await tradeAt(seller, buyer, then);
    const prices: string[] = [];
    const sub = desk.events.onDidEmit((e) => {
      if (e.name === 'ticker.changed' && e.payload.productId === BTC) prices.push(e.payload.price);
    });
    await desk.watch(BTC, 'main');
    await eventually(() => (prices.includes(then) ? true : undefined), `a ticker at ${then}`);
    sub.dispose();
    await desk.unwatch(BTC, 'main');

    // The market moves 20% while nothing on the desk watches BTC-VND.
    const now = px(50_000);
    await tradeAt(seller, buyer, now);
    desk.updateSettings({ preTrade: { maxDeviationPercent: '5' } });
    const far = await desk.placeOrder({ environment: 'development', product_id: BTC, side: 'BUY', type: 'LIMIT', limit_price: then, base_size: '0.001' });
    if (far.status === 'placed') await desk.cancelOrder({ environment: 'development', order_id: far.order.order_id });
    expect(far).toMatchObject({ status: 'held', issues: [{ check: 'price_deviation', message: expect.stringContaining(`the market (${groupDigits(now)})`) }] });
  });

  it('is not a ticker frozen by a WebSocket that dropped while the venue still answers over REST', async () => {
    // Only the WebSocket goes through the gate: orders and reads still reach the venue.
    const gate = await LoopbackGate.open(venue.port);
    try {
      await desk.configureEnvironment({ id: 'development', baseUrl: venue.baseUrl, wsUrl: gate.wsUrl });
      await desk.whenLive();
      const seller = await venue.newAccount();
      const buyer = await venue.newAccount();
      const then = px(60_000);
      const prices: string[] = [];
      const sub = desk.events.onDidEmit((e) => {
        if (e.name === 'ticker.changed' && e.payload.productId === BTC) prices.push(e.payload.price);
      });
      await desk.watch(BTC, 'main');
      await tradeAt(seller, buyer, then);
      await eventually(() => (prices.includes(then) ? true : undefined), `a ticker at ${then}`);
      sub.dispose();

      gate.block();
      gate.cut();
      await eventually(() => (desk.status().state === 'reconnecting' ? true : undefined), 'the session reconnecting');
      const now = px(110_000);
      await tradeAt(seller, buyer, now);
      desk.updateSettings({ preTrade: { maxDeviationPercent: '5' } });
      const far = await desk.placeOrder({ environment: 'development', product_id: BTC, side: 'BUY', type: 'LIMIT', limit_price: then, base_size: '0.001' });
      if (far.status === 'placed') await desk.cancelOrder({ environment: 'development', order_id: far.order.order_id });
      expect(far).toMatchObject({ status: 'held', issues: [{ check: 'price_deviation', message: expect.stringContaining(`the market (${groupDigits(now)})`) }] });
      await desk.unwatch(BTC, 'main');
    } finally {
      gate.unblock();
      await gate.close();
    }
  });
});
