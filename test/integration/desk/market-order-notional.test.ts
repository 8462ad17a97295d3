// The max-notional check on a market order by base size when the product has no trade yet and only one side of
// its book: no last trade and no mid to price it at, so it is measured by walking the side it would take from,
// and held when there is none. It was sent unchecked: a MARKET BUY of 1.01 filled for 9,025,000,000 VND against a
// limit of 100,000,000.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { BTC, LocalVenue, eventually } from '../connection/local-venue';
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

  it('is measured at the best bid for a sell, and held when there are no bids', async () => {
    // BTC-VND has traded now (the small buy above); ETH-VND has neither a trade nor an order.
    const held = await desk.placeOrder({ ...order, product_id: 'ETH-VND', side: 'SELL' });
    expect(held.status === 'held' && held.issues[0]?.message).toContain('no bids on the book');
    // A sell trades for at most its size at the best bid: bids that thin out far below it must not make a large
    // sale look small. 50 at 90,000,000 is 4,500,000,000; at the deepest bid it would look like 50,000,000.
    const buyer = await venue.newAccount({ VND: '100000000000' });
    await venue.client(buyer).placeOrder({ product_id: 'ETH-VND', side: 'BUY', limit_price: '90000000', base_size: '0.01', wait: true });
    await venue.client(buyer).placeOrder({ product_id: 'ETH-VND', side: 'BUY', limit_price: '1000000', base_size: '100', wait: true });
    expect(await desk.placeOrder({ ...order, product_id: 'ETH-VND', side: 'SELL', base_size: '50' })).toEqual({
      status: 'held',
      issues: [{ check: 'max_notional', message: "notional about 4\u202f500\u202f000\u202f000 VND (50 at the book's best bid, 90\u202f000\u202f000) is above the limit of 100\u202f000\u202f000 VND" }],
    });
  });
});

describe('a market order by base size on a thin book', () => {
  it('is measured by what it takes from the book, not at the last trade far below it', async () => {
    const SOL = 'SOL-VND';
    const seller = await venue.newAccount({ SOL: '100', VND: '100000000000' });
    const buyer = await venue.newAccount({ SOL: '100', VND: '100000000000' });
    // One trade at 4,000,000; what rests after it is 10 SOL ten times higher.
    await venue.client(seller).placeOrder({ product_id: SOL, side: 'SELL', limit_price: '4000000', base_size: '1', wait: true });
    await venue.client(buyer).placeOrder({ product_id: SOL, side: 'BUY', limit_price: '4000000', base_size: '1', wait: true });
    await venue.client(seller).placeOrder({ product_id: SOL, side: 'SELL', limit_price: '40000000', base_size: '10', wait: true });
    const expected = {
      status: 'held',
      issues: [{ check: 'max_notional', message: 'notional about 200\u202f000\u202f000 VND (5 at up to 40\u202f000\u202f000, walking the book\'s asks) is above the limit of 100\u202f000\u202f000 VND' }],
    };
    // 5 at the last trade is 20,000,000, under the limit; it would pay 200,000,000.
    const order5 = { ...order, product_id: SOL, side: 'BUY', base_size: '5' } as const;
    expect(await desk.placeOrder(order5)).toEqual(expected);

    // So too with the product watched, its ticker and streamed book the desk's own.
    const seen = { ticker: false, book: false };
    const sub = desk.events.onDidEmit((e) => {
      if (e.name === 'ticker.changed' && e.payload.productId === SOL && e.payload.price === '4000000') seen.ticker = true;
      if (e.name === 'book.changed' && e.payload.productId === SOL && e.payload.asks.length > 0) seen.book = true;
    });
    await desk.watch(SOL, 'main');
    try {
      await eventually(() => (seen.ticker && seen.book ? true : undefined), 'the ticker and book of SOL-VND');
      expect(await desk.placeOrder(order5)).toEqual(expected);
    } finally {
      sub.dispose();
      await desk.unwatch(SOL, 'main');
    }
    // What the asks can fill within the limit still goes: 2 at 40,000,000 is 80,000,000.
    expect((await desk.placeOrder({ ...order5, base_size: '2' })).status).toBe('placed');
  });
});
