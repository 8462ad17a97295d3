// A streamed book after its connection is lost: in doubt from the loss until a snapshot comes, however long the
// next connection's level2 sub goes unanswered. It was shown live: the session went live again over the book
// from before the outage, which the socket no longer applied updates to, while the venue's book moved on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueSession } from '../../../src-main/connection/venue-session';
import { BTC, LocalVenue, eventually, px } from './local-venue';
import { LoopbackGate } from './loopback-gate';

let venue: LocalVenue;
let gate: LoopbackGate;

beforeAll(async () => {
  venue = await LocalVenue.start();
  gate = await LoopbackGate.open(venue.port);
});

afterAll(async () => {
  await gate.close();
  await venue.dispose();
});

describe('a streamed book across a reconnect', () => {
  it('is in doubt from the loss until a snapshot comes, even once the session is live again', async () => {
    const trader = await venue.newAccount();
    const rest = venue.client(await venue.newAccount());
    const session = new VenueSession({
      baseUrl: venue.baseUrl,
      wsUrl: gate.wsUrl,
      credentials: trader.credentials,
      userId: trader.userId,
      socket: { reconnect: { initialMs: 20, maxMs: 200 }, requestTimeoutMs: 1_000 },
    });
    const sameAsVenue = async (): Promise<true | undefined> => {
      const truth = await rest.getOrderBook(BTC);
      const book = session.book(BTC);
      return book !== undefined && !book.inDoubt && book.sequence === truth.sequence && JSON.stringify([book.bids, book.asks]) === JSON.stringify([truth.bids, truth.asks]) ? true : undefined;
    };
    try {
      await session.start();
      await session.watchMarket(BTC);
      await rest.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-20), base_size: '0.01', wait: true });
      await eventually(sameAsVenue, 'the streamed book');
      const shown: boolean[] = [];
      session.onDidChangeBook((view) => shown.push(view.inDoubt));

      // The next connections' level2 subs go unanswered (sent again on each timeout, lost each time).
      gate.requestRule = (text) => text.includes('"op":"sub"') && text.includes('"channel":"level2"');
      gate.cut();
      await eventually(() => (session.book(BTC)?.inDoubt === true ? true : undefined), 'the book in doubt once the connection is lost');
      await eventually(() => (session.syncState === 'live' && session.socket.currentStatus.state === 'open' ? true : undefined), 'the session live again');
      // The market moves; the book the desk holds does not, and says so.
      await rest.cancelAllOrders();
      await rest.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-5), base_size: '0.5', wait: true });
      await session.socket.ping();
      expect(session.book(BTC)?.inDoubt).toBe(true);
      expect(shown).toContain(true);

      // The sub answered at last: a snapshot, and the book is trusted again.
      gate.requestRule = undefined;
      await eventually(sameAsVenue, 'the book after the snapshot');
      expect(shown.at(-1)).toBe(false);
    } finally {
      gate.requestRule = undefined;
      session.dispose();
    }
  });
});
