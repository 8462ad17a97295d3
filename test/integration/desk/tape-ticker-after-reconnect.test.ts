// The tape, the ticker and the candles of a product after the WebSocket was lost and made again with their subs
// unanswered: they say they are not updated (in doubt, as a book is) until the subs are answered. The session was
// live again, so they were shown as the market's, frozen, with nothing telling the trader. So they say to a window
// that starts watching meanwhile, and after the product is unwatched and watched again with its subs unanswered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../src-main/desk/desk-events';
import type { Desk } from '../../../src-main/desk/desk';
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
    label: 'tape-ticker-reconnect',
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

type Told<N extends DeskEvent['name']> = Extract<DeskEvent, { name: N }>['payload'];

describe('the tape and the ticker across a reconnect whose trades and ticker subs go unanswered', () => {
  it('are in doubt from the loss until the subs are answered, and the tape then has what traded meanwhile', async () => {
    const seller = await venue.newAccount();
    const buyer = await venue.newAccount();
    const tape: Told<'trades.received'>[] = [];
    const tickers: Told<'ticker.changed'>[] = [];
    const sub = desk.events.onDidEmit((e) => {
      if (e.name === 'trades.received' && e.payload.productId === BTC) tape.push(e.payload);
      if (e.name === 'ticker.changed' && e.payload.productId === BTC) tickers.push(e.payload);
    });
    const printed = (price: string): boolean => tape.some((told) => told.trades.some((t) => t.price === price));
    await desk.watch(BTC, 'main');
    const then = px(0);
    await tradeAt(seller, buyer, then);
    await eventually(() => (printed(then) && tickers.at(-1)?.price === then ? true : undefined), `a trade and a ticker at ${then}`);
    expect(tape.at(-1)?.inDoubt).toBeUndefined();
    expect(tickers.at(-1)?.inDoubt).toBeUndefined();

    // The next connections' trades and ticker subs go unanswered (sent again on each timeout, lost each time).
    gate.requestRule = (text) => text.includes('"op":"sub"') && (text.includes('"channel":"trades"') || text.includes('"channel":"ticker"'));
    try {
      gate.cut();
      await eventually(() => (desk.status().state === 'reconnecting' ? true : undefined), 'the session reconnecting');
      await eventually(() => (desk.status().state === 'live' ? true : undefined), 'the session live again');
      // The market moves; the tape and the ticker the desk holds do not, and say so.
      const now = px(50_000);
      await tradeAt(seller, buyer, now);
      // The book streams (its sub is answered): once it has the trade's commit, so would a tape that streamed.
      const rest = venue.client(seller);
      await eventually(async () => ((await desk.book(BTC)).sequence === (await rest.getOrderBook(BTC)).sequence ? true : undefined), 'the book at the venue\'s sequence');
      expect(printed(now)).toBe(false);
      expect(tape.at(-1)?.inDoubt).toBe(true);
      expect(tickers.at(-1)).toMatchObject({ price: then, inDoubt: true });

      // The subs answered at last: the ticker is the venue's again, and the tape has the trade it missed.
      gate.requestRule = undefined;
      await eventually(() => (tickers.at(-1)?.price === now && tickers.at(-1)?.inDoubt === undefined ? true : undefined), `a ticker at ${now}, not in doubt`);
      await eventually(() => (printed(now) && tape.at(-1)?.inDoubt === undefined ? true : undefined), `the trade at ${now} on a tape not in doubt`);
    } finally {
      gate.requestRule = undefined;
      sub.dispose();
      await desk.unwatch(BTC, 'main');
    }
  });

  it('say so to a window watching meanwhile and after the product is watched again, and so do the candles', async () => {
    const seller = await venue.newAccount();
    const buyer = await venue.newAccount();
    const tape: Told<'trades.received'>[] = [];
    const candles: Told<'candles.changed'>[] = [];
    const tickers: Told<'ticker.changed'>[] = [];
    const sub = desk.events.onDidEmit((e) => {
      if (e.name === 'trades.received' && e.payload.productId === BTC) tape.push(e.payload);
      if (e.name === 'candles.changed' && e.payload.productId === BTC) candles.push(e.payload);
      if (e.name === 'ticker.changed' && e.payload.productId === BTC) tickers.push(e.payload);
    });
    const printed = (price: string): boolean => tape.some((told) => told.trades.some((t) => t.price === price));
    const closedAt = (price: string): boolean => candles.at(-1)?.candles.at(-1)?.close === price;
    const rest = venue.client(seller);
    const bookCaughtUp = (): Promise<true> =>
      eventually(async () => ((await desk.book(BTC)).sequence === (await rest.getOrderBook(BTC)).sequence ? true : undefined), 'the book at the venue\'s sequence');
    await desk.watch(BTC, 'main');
    const then = px(1_000);
    await tradeAt(seller, buyer, then);
    await eventually(() => (printed(then) && closedAt(then) ? true : undefined), `a trade and a candle at ${then}`);
    expect(tape.at(-1)?.inDoubt).toBeUndefined();
    expect(candles.at(-1)?.inDoubt).toBeUndefined();

    gate.requestRule = (text) => text.includes('"op":"sub"') && /"channel":"(trades|ticker|candles)"/.test(text);
    try {
      gate.cut();
      await eventually(() => (desk.status().state === 'reconnecting' ? true : undefined), 'the session reconnecting');
      await eventually(() => (desk.status().state === 'live' ? true : undefined), 'the session live again');
      const moved = px(51_000);
      await tradeAt(seller, buyer, moved);
      await bookCaughtUp();
      // The candles are as cut off as the tape, and say so.
      expect(closedAt(moved)).toBe(false);
      expect(candles.at(-1)?.inDoubt).toBe(true);
      expect(tape.at(-1)?.inDoubt).toBe(true);

      // Another window starting to watch the product reads the tape and the candles: its watch tells it their doubt,
      // which no event will tell it until it changes.
      expect((await desk.watch(BTC, 'second')).feedsInDoubt).toEqual(['trades', 'ticker', 'candles']);
      await desk.unwatch(BTC, 'second');

      // Unwatched and watched again, the subs still unanswered: the tape and candles the desk holds are still frozen.
      await desk.unwatch(BTC, 'main');
      const told = tape.length;
      expect((await desk.watch(BTC, 'main')).feedsInDoubt).toEqual(['trades', 'ticker', 'candles']);
      expect(tape.slice(told).at(-1)?.inDoubt).toBe(true);
      const again = px(52_000);
      await tradeAt(seller, buyer, again);
      await bookCaughtUp();
      expect(printed(again)).toBe(false);
      expect(tape.at(-1)?.inDoubt).toBe(true);
      expect(candles.at(-1)?.inDoubt).toBe(true);

      // The subs answered at last (each when sent again): the tape, the candles and the ticker are the venue's again.
      gate.requestRule = undefined;
      await eventually(() => (printed(again) && tape.at(-1)?.inDoubt === undefined ? true : undefined), `the trade at ${again} on a tape not in doubt`);
      await eventually(() => (closedAt(again) && candles.at(-1)?.inDoubt === undefined ? true : undefined), `a candle at ${again}, not in doubt`);
      await eventually(() => (tickers.at(-1)?.price === again && tickers.at(-1)?.inDoubt === undefined ? true : undefined), `a ticker at ${again}`);
      expect((await desk.watch(BTC, 'second')).feedsInDoubt).toBeUndefined();
      await desk.unwatch(BTC, 'second');
    } finally {
      gate.requestRule = undefined;
      sub.dispose();
      await desk.unwatch(BTC, 'main');
    }
  });
});
