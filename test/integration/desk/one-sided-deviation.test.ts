// The price-deviation check (on by default, at 10%) when a product has no trade yet and one side of its book:
// the limit is measured from that side's best price. It was not measured at all, having no last trade and no
// mid: a LIMIT BUY at ten times the only ask went out and swept the asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { BTC, LocalVenue } from '../connection/local-venue';
import { deskOnDevelopment } from './open-desk';

let venue: LocalVenue;
let desk: Desk;
let closeDesk: () => Promise<void>;

beforeAll(async () => {
  venue = await LocalVenue.start();
  ({ desk, close: closeDesk } = await deskOnDevelopment(venue, { label: 'one-sided' }));
  desk.updateSettings({ preTrade: { maxDeviationPercent: '10', maxNotional: '' } });
});

afterAll(async () => {
  await closeDesk();
  await venue.dispose();
});

const limit = { environment: 'development', product_id: BTC, type: 'LIMIT', base_size: '0.01' } as const;

describe('a limit on a product with no trade and one side of the book', () => {
  it('rests unchecked while the book is empty: there is no market to be far from', async () => {
    const placed = await desk.placeOrder({ ...limit, side: 'BUY', limit_price: '100000000' });
    expect(placed.status).toBe('placed');
    if (placed.status === 'placed') await desk.cancelOrder({ environment: 'development', order_id: placed.order.order_id });
  });

  it('is measured from the best price of the side there is', async () => {
    const seller = await venue.newAccount();
    await venue.client(seller).placeOrder({ product_id: BTC, side: 'SELL', limit_price: '2500000000', base_size: '1', wait: true });
    expect(await venue.client().listTrades(BTC, 1)).toEqual([]);

    // A slip of a digit: ten times the only ask.
    expect(await desk.placeOrder({ ...limit, side: 'BUY', limit_price: '25000000000' })).toEqual({
      status: 'held',
      issues: [{ check: 'price_deviation', message: 'limit 25\u202f000\u202f000\u202f000 is 900% from the book\'s best ask (2\u202f500\u202f000\u202f000), with no trade yet and no bids; the limit is 10%' }],
    });
    // A sell at a tenth of it would rest for the next buyer to take at that price.
    const low = await desk.placeOrder({ ...limit, side: 'SELL', limit_price: '250000000' });
    expect(low.status === 'held' && low.issues.map((i) => i.check)).toEqual(['price_deviation']);
    // Near it, a buy goes and trades.
    const near = await desk.placeOrder({ ...limit, side: 'BUY', limit_price: '2600000000' });
    expect(near.status).toBe('placed');
  });
});
