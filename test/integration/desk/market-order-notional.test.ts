// The max-notional check on a market order by base size when the product has no trade yet and only one side of
// its book: no last trade and no mid to price it at, so it is measured by walking the side it would take from,
// and held when there is none. It was sent unchecked: a MARKET BUY of 1.01 filled for 9,025,000,000 VND against a
// limit of 100,000,000.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { BTC, LocalVenue } from '../connection/local-venue';
import { deskOnDevelopment } from './open-desk';

let venue: LocalVenue;
let desk: Desk;
let closeDesk: () => Promise<void>;

beforeAll(async () => {
  venue = await LocalVenue.start();
  ({ desk, close: closeDesk } = await deskOnDevelopment(venue, { label: 'market-notional' }));
  desk.updateSettings({ preTrade: { maxDeviationPercent: '10', maxNotional: '100000000' } });
});

afterAll(async () => {
  await closeDesk();
  await venue.dispose();
});

const order = { environment: 'development', product_id: BTC, type: 'MARKET', base_size: '1.01' } as const;

describe('a market order by base size with no price to measure it at', () => {
  it('is held while the side it would take from is empty, and an override still sends it', async () => {
    const held = await desk.placeOrder({ ...order, side: 'BUY' });
    expect(held).toEqual({ status: 'held', issues: [{ check: 'max_notional', message: expect.stringContaining('no market price to measure it against') }] });
    expect(held.status === 'held' && held.issues[0]?.message).toContain('no asks on the book');
    const sent = await desk.placeOrder({ ...order, side: 'BUY', override_checks: true });
    // Nothing to buy from: the venue takes it and it ends unfilled, or refuses it; either way it went out.
    expect(sent.status).toBe('placed');
  });

  it('is measured by walking the asks, up to the worst price it reaches', async () => {
    const seller = await venue.newAccount();
    await venue.client(seller).placeOrder({ product_id: BTC, side: 'SELL', limit_price: '2500000000', base_size: '0.01', wait: true });
    await venue.client(seller).placeOrder({ product_id: BTC, side: 'SELL', limit_price: '9000000000', base_size: '1', wait: true });
    expect((await venue.client().listTrades(BTC, 1)).length).toBe(0);

    const held = await desk.placeOrder({ ...order, side: 'BUY' });
    expect(held).toEqual({
      status: 'held',
      issues: [{ check: 'max_notional', message: 'notional about 9\u202f090\u202f000\u202f000 VND (1.01 at up to 9\u202f000\u202f000\u202f000, walking the book\'s asks) is above the limit of 100\u202f000\u202f000 VND' }],
    });
    // Past what the side holds: priced at its deepest.
    const thin = await desk.placeOrder({ ...order, side: 'BUY', base_size: '2' });
    expect(thin.status === 'held' && thin.issues[0]?.message).toContain("the book's asks hold less than 2; priced at their deepest, 9\u202f000\u202f000\u202f000");
    // Within the limit, the walk lets it through: 0.01 at 2,500,000,000 is 25,000,000.
    const small = await desk.placeOrder({ ...order, side: 'BUY', base_size: '0.01' });
    expect(small.status).toBe('placed');
  });

  it('is measured by the bids for a sell, and held when there are none', async () => {
    // BTC-VND has traded now (the small buy above); ETH-VND has neither a trade nor an order.
    const held = await desk.placeOrder({ ...order, product_id: 'ETH-VND', side: 'SELL' });
    expect(held.status === 'held' && held.issues[0]?.message).toContain('no bids on the book');
  });
});
