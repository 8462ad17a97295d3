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

// The desk's streamed book holds the venue's top 50 levels of a side, a REST read at most 1000: a buy that walks
// past the last level read cannot be priced at it. Watched, a MARKET BUY of 5 SOL walked the 50 streamed asks of
// 0.01 and passed as about 200,000,000 (5 at the 50th ask); it filled for 1,802,001,275 VND against a limit of
// 100,000,000 (review-6 p1).
describe('a market buy that walks past the levels read', () => {
  let deep: LocalVenue;
  let deepDesk: Desk;
  let closeDeepDesk: () => Promise<void>;

  beforeAll(async () => {
    deep = await LocalVenue.start();
    ({ desk: deepDesk, close: closeDeepDesk } = await deskOnDevelopment(deep, { label: 'market-notional-deep' }));
    deepDesk.updateSettings({ preTrade: { maxDeviationPercent: '10', maxNotional: '100000000' } });
  });

  afterAll(async () => {
    await closeDeepDesk();
    await deep.dispose();
  });

  it('is measured past the 50 streamed asks while the product is watched, as when it is not', async () => {
    const SOL = 'SOL-VND';
    const seller = await deep.newAccount({ SOL: '100', VND: '100000000000' });
    const buyer = await deep.newAccount({ SOL: '100', VND: '100000000000' });
    await deep.client(seller).placeOrder({ product_id: SOL, side: 'SELL', limit_price: '4000000', base_size: '1', wait: true });
    await deep.client(buyer).placeOrder({ product_id: SOL, side: 'BUY', limit_price: '4000000', base_size: '1', wait: true });
    for (let i = 1; i <= 50; i++) await deep.client(seller).placeOrder({ product_id: SOL, side: 'SELL', limit_price: String(4000000 + i * 100), base_size: '0.01', wait: true });
    await deep.client(seller).placeOrder({ product_id: SOL, side: 'SELL', limit_price: '400000000', base_size: '10', wait: true });
    const order5 = { environment: 'development', product_id: SOL, type: 'MARKET', side: 'BUY', base_size: '5' } as const;
    // 0.5 on the 50 levels near 4,000,000, the rest at 400,000,000: 5 at up to 400,000,000.
    const expected = {
      status: 'held',
      issues: [{ check: 'max_notional', message: "notional about 2\u202f000\u202f000\u202f000 VND (5 at up to 400\u202f000\u202f000, walking the book's asks) is above the limit of 100\u202f000\u202f000 VND" }],
    };
    expect(await deepDesk.placeOrder(order5)).toEqual(expected);

    let streamedAsks = 0;
    let ticker = false;
    const sub = deepDesk.events.onDidEmit((e) => {
      if (e.name === 'book.changed' && e.payload.productId === SOL) streamedAsks = e.payload.asks.length;
      if (e.name === 'ticker.changed' && e.payload.productId === SOL && e.payload.price === '4000000') ticker = true;
    });
    await deepDesk.watch(SOL, 'main');
    try {
      await eventually(() => (streamedAsks === 50 && ticker ? true : undefined), 'the ticker and 50 streamed asks of SOL-VND');
      expect(await deepDesk.placeOrder(order5)).toEqual(expected);
      // Within the streamed levels the stream still serves: 0.3 at up to 4,003,000 is 1,200,900.
      expect((await deepDesk.placeOrder({ ...order5, base_size: '0.3' })).status).toBe('placed');
    } finally {
      sub.dispose();
      await deepDesk.unwatch(SOL, 'main');
    }
  });

  it('is held as unmeasurable when it walks past the 1000 asks a REST read gives', async () => {
    const ETH = 'ETH-VND';
    // 1000 asks of 0.001 (the open-order cap is 1000 a user, so two sellers), then 100 far above them.
    const sellers = [await deep.newAccount({ ETH: '200', VND: '100000000000' }), await deep.newAccount({ ETH: '200', VND: '100000000000' })];
    for (let batch = 0; batch < 1000; batch += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) => batch + j).map((i) =>
          deep.client(sellers[i % 2]).placeOrder({ product_id: ETH, side: 'SELL', limit_price: String(90000000 + i * 1000), base_size: '0.001', wait: true }),
        ),
      );
    }
    const far = await deep.newAccount({ ETH: '200', VND: '100000000000' });
    await deep.client(far).placeOrder({ product_id: ETH, side: 'SELL', limit_price: '9000000000', base_size: '100', wait: true });
    expect((await deep.client().getOrderBook(ETH, 1000)).asks.length).toBe(1000);

    // 1.05 at the 1000th ask (90,999,000) would be 95,548,950, under the limit; it would pay 450,000,000 more.
    const order = { environment: 'development', product_id: ETH, type: 'MARKET', side: 'BUY', base_size: '1.05' } as const;
    expect(await deepDesk.placeOrder(order)).toEqual({
      status: 'held',
      issues: [
        {
          check: 'max_notional',
          message: 'notional cannot be measured: 1.05 reaches past the deepest of the 1000 asks the venue gives, and the book holds more beyond them; the limit of 100\u202f000\u202f000 VND',
        },
      ],
    });
    // Within the asks read it is measured as before: 1 at up to 90,999,000 is under the limit.
    expect((await deepDesk.placeOrder({ ...order, base_size: '1' })).status).toBe('placed');
  });
});
