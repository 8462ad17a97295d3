// Candles of a product no window watches any more are dropped with its subscription. They were kept: a window
// watching the product again, later, was handed the candles from when it was last watched as the current ones,
// and the next update was merged into them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { BTC, LocalVenue, px } from '../connection/local-venue';
import { eventually } from '../eventually';
import { deskOnDevelopment } from './open-desk';

let venue: LocalVenue;
let desk: Desk;
let closeDesk: () => Promise<void>;

beforeAll(async () => {
  venue = await LocalVenue.start();
  ({ desk, close: closeDesk } = await deskOnDevelopment(venue, { label: 'candles' }));
});

afterAll(async () => {
  await closeDesk();
  await venue.dispose();
});

describe('the candles of a product', () => {
  it('are not kept once no window watches it', async () => {
    const seller = await venue.newAccount();
    const buyer = await venue.newAccount();
    await desk.watch(BTC, 'main');
    await venue.client(seller).placeOrder({ product_id: BTC, side: 'SELL', limit_price: px(0), base_size: '0.01', wait: true });
    await venue.client(buyer).placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(0), base_size: '0.01', wait: true });
    await eventually(async () => ((await desk.candlesOf(BTC)).some((c) => c.close === px(0)) ? true : undefined), 'a candle of the trade');

    await desk.unwatch(BTC, 'main');
    expect(await desk.candlesOf(BTC)).toEqual([]);
  });
});
