// Several windows (the workspace, popped-out books) watch products through one desk. What a window watches
// ends with it, and never with another: a watch still on its way when its window closes or unwatches must not
// outlive it, and one window's unwatch racing another's watch must leave the product fully streamed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { BTC, LocalVenue, px, type Account } from '../connection/local-venue';
import { eventually } from '../eventually';
import { deskOnDevelopment } from './open-desk';

let venue: LocalVenue;
let desk: Desk;
let closeDesk: () => Promise<void>;

beforeAll(async () => {
  venue = await LocalVenue.start();
  ({ desk, close: closeDesk } = await deskOnDevelopment(venue, { label: 'windows' }));
});

afterAll(async () => {
  await closeDesk();
  await venue.dispose();
});

/** What the desk watches now, read through an unwatch by a window that watches nothing. */
async function watching(): Promise<string[]> {
  return (await desk.unwatch(BTC, 'nobody')).watching;
}

async function tradeAt(seller: Account, buyer: Account, price: string): Promise<void> {
  await venue.client(seller).placeOrder({ product_id: BTC, side: 'SELL', limit_price: price, base_size: '0.01', wait: true });
  await venue.client(buyer).placeOrder({ product_id: BTC, side: 'BUY', limit_price: price, base_size: '0.01', wait: true });
}

describe('windows watching products', () => {
  it('keeps streaming candles to a window that watches a product as the last other window unwatches it', async () => {
    await desk.watch(BTC, 'pop-out');
    // The pop-out follows another product while the workspace opens this one: the unwatch goes first.
    await Promise.all([desk.unwatch(BTC, 'pop-out'), desk.watch(BTC, 'workspace')]);
    expect(await watching()).toEqual([BTC]);

    const seller = await venue.newAccount();
    const buyer = await venue.newAccount();
    const price = px(7_000);
    const candles: string[] = [];
    const sub = desk.events.onDidEmit((e) => {
      if (e.name === 'candles.changed' && e.payload.productId === BTC) candles.push(...e.payload.candles.map((c) => c.close));
    });
    try {
      await tradeAt(seller, buyer, price);
      await eventually(() => (candles.includes(price) ? true : undefined), `a candle closing at ${price}`);
    } finally {
      sub.dispose();
      await desk.unwatch(BTC, 'workspace');
    }
  });
  it('ends a watch that was still on its way when its window closed', async () => {
    const watch = desk.watch(BTC, 'closing');
    desk.windowClosed('closing');
    await watch;
    expect(await watching()).toEqual([]);
  });

  it('ends a watch that was still on its way when its window unwatched the product', async () => {
    const watch = desk.watch(BTC, 'flipping');
    const unwatch = desk.unwatch(BTC, 'flipping');
    await Promise.all([watch, unwatch]);
    expect(await watching()).toEqual([]);
  });

});
