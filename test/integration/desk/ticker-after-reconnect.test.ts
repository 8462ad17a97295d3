// The market the pre-trade price check measures against, after the WebSocket was lost and made again with the
// ticker sub unanswered: the venue's last trade, not the ticker from before the outage. The session was live
// again, so the desk kept using that ticker, frozen, and a limit far from the market went out unchecked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { groupDigits } from '../../../src-shared/protocol/decimal';
import { BTC, LocalVenue, px, type Account } from '../connection/local-venue';
import { LoopbackGate } from '../connection/loopback-gate';
import { eventually } from '../eventually';
import { deskOnDevelopment } from './open-desk';

let venue: LocalVenue;
let gate: LoopbackGate;
let desk: Desk;
let closeDesk: () => Promise<void>;

beforeAll(async () => {
  venue = await LocalVenue.start();
  gate = await LoopbackGate.open(venue.port);
  ({ desk, close: closeDesk } = await deskOnDevelopment(venue, {
    label: 'ticker-reconnect',
    address: { baseUrl: venue.baseUrl, wsUrl: gate.wsUrl },
    session: { rest: { timeoutMs: 5_000 }, socket: { reconnect: { initialMs: 20, maxMs: 200 }, requestTimeoutMs: 1_000 } },
  }));
});

afterAll(async () => {
  await closeDesk();
  await gate.close();
  await venue.dispose();
});

async function tradeAt(seller: Account, buyer: Account, price: string): Promise<void> {
  await venue.client(seller).placeOrder({ product_id: BTC, side: 'SELL', limit_price: price, base_size: '0.01', wait: true });
  await venue.client(buyer).placeOrder({ product_id: BTC, side: 'BUY', limit_price: price, base_size: '0.01', wait: true });
}

describe('the market a limit is measured against after a reconnect', () => {
  it('is not the ticker from before the outage while the new ticker sub goes unanswered', async () => {
    const seller = await venue.newAccount();
    const buyer = await venue.newAccount();
    const then = px(0);
    const prices: string[] = [];
    const sub = desk.events.onDidEmit((e) => {
      if (e.name === 'ticker.changed' && e.payload.productId === BTC) prices.push(e.payload.price);
    });
    await desk.watch(BTC, 'main');
    await tradeAt(seller, buyer, then);
    await eventually(() => (prices.includes(then) ? true : undefined), `a ticker at ${then}`);

    gate.requestRule = (text) => text.includes('"op":"sub"') && text.includes('"channel":"ticker"');
    try {
      gate.cut();
      await eventually(() => (desk.status().state === 'reconnecting' ? true : undefined), 'the session reconnecting');
      await eventually(() => (desk.status().state === 'live' ? true : undefined), 'the session live again');
      // The market moves 20% while no ticker reaches the desk.
      const now = px(50_000);
      await tradeAt(seller, buyer, now);
      desk.updateSettings({ preTrade: { maxDeviationPercent: '5' } });
      const far = await desk.placeOrder({ environment: 'development', product_id: BTC, side: 'BUY', type: 'LIMIT', limit_price: then, base_size: '0.001' });
      if (far.status === 'placed') await desk.cancelOrder({ environment: 'development', order_id: far.order.order_id });
      expect(prices).not.toContain(now);
      expect(far).toMatchObject({ status: 'held', issues: [{ check: 'price_deviation', message: expect.stringContaining(`the market (${groupDigits(now)})`) }] });
    } finally {
      gate.requestRule = undefined;
      sub.dispose();
      await desk.unwatch(BTC, 'main');
    }
  });
});
