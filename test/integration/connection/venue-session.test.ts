// VenueSession against the real local venue, reached through a loopback relay the test can break. The story
// of a desk losing its venue: orders placed before the outage, the venue stopped and started again on the same
// folder and port, orders placed, filled and cancelled by another client while the desk is still trying to
// reconnect; once the desk is back, its orders equal the venue's, none missing, none doubled.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../../src-shared/protocol/records';
import { nextEvent } from '../../../src-main/connection/events';
import type { VenueRestClient } from '../../../src-main/connection/rest-client';
import { VenueSession, type PlacementResolution, type PollingSwitch, type TradesChange } from '../../../src-main/connection/venue-session';
import { OutcomeUnknownError } from '../../../src-main/connection/venue-error';
import { BTC, LocalVenue, eventually, px, type Account } from './local-venue';
import { LoopbackGate } from './loopback-gate';

let venue: LocalVenue;
let gate: LoopbackGate;
const sessions: VenueSession[] = [];

beforeAll(async () => {
  venue = await LocalVenue.start();
  gate = await LoopbackGate.open(venue.port);
});

afterEach(() => {
  for (const session of sessions.splice(0)) session.dispose();
  gate.unblock();
  gate.release();
});

afterAll(async () => {
  await gate.close();
  await venue.dispose();
});

/** A desk's session for `account`, through the relay, with timings small enough for a test. */
function deskSession(account: Account): VenueSession {
  const session = new VenueSession({
    baseUrl: gate.baseUrl,
    wsUrl: gate.wsUrl,
    credentials: account.credentials,
    userId: account.userId,
    rest: { timeoutMs: 1_000, maxRetries: 1, settleMs: 50, retryBackoff: { initialMs: 10, maxMs: 50 } },
    socket: { reconnect: { initialMs: 50, maxMs: 300 }, heartbeatIntervalMs: 200, heartbeatTimeoutMs: 1_000, requestTimeoutMs: 2_000 },
    pollIntervalMs: 100,
  });
  sessions.push(session);
  return session;
}

interface Shown {
  status: string;
  done_reason: string;
  filled_base_size: string;
  cancel_requested_at: string;
}

function shown(orders: readonly Order[]): Map<string, Shown> {
  return new Map(orders.map((o) => [o.order_id, { status: o.status, done_reason: o.done_reason, filled_base_size: o.filled_base_size, cancel_requested_at: o.cancel_requested_at }]));
}

/** Every order of the account as the venue holds it, straight from the venue. */
async function venueOrders(rest: VenueRestClient): Promise<Map<string, Shown>> {
  return shown(await rest.listOrderHistory({ limit: 1000 }));
}

async function expectDeskEqualsVenue(session: VenueSession, rest: VenueRestClient): Promise<void> {
  const desk = session.orders();
  expect(new Set(desk.map((o) => o.order_id)).size).toBe(desk.length);
  const truth = await venueOrders(rest);
  // The socket keeps feeding the desk after the reconcile; wait until it has caught up, then compare.
  await eventually(() => (sameOrders(shown(session.orders()), truth) ? true : undefined), 'the desk to hold the venue’s orders', 5_000).catch(() => undefined);
  expect(shown(session.orders())).toEqual(truth);
}

function sameOrders(a: Map<string, Shown>, b: Map<string, Shown>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, order] of a) if (JSON.stringify(order) !== JSON.stringify(b.get(id))) return false;
  return true;
}

const limit = (side: 'BUY' | 'SELL', ticks: number, size = '0.01') => ({ product_id: BTC, side, limit_price: px(ticks), base_size: size, wait: true }) as const;

describe('the desk’s orders after a venue restart', () => {
  it('equal the venue’s: none missing, none doubled', async () => {
    const alice = await venue.newAccount();
    const bob = await venue.newAccount();
    const session = deskSession(alice);
    await session.start();
    const reconciles: number[] = [];
    session.onDidReconcile((r) => reconciles.push(r.connection));
    const resolutions: PlacementResolution[] = [];
    session.onDidResolvePlacement((r) => resolutions.push(r));

    // Before the outage: resting orders, one over the socket, a partial fill, a cancel.
    const buyLow = await session.placeOrder(limit('BUY', -10));
    const sellHigh = await session.placeOrder(limit('SELL', 10, '0.02'));
    const doomed = await session.placeOrder(limit('BUY', -11));
    const overSocket = await session.socket.createOrder({ type: 'limit', side: 'buy', product_id: BTC, price: px(-12), size: '0.01' });
    await venue.client(bob).placeOrder(limit('BUY', 10));
    await session.cancelOrder({ order_id: doomed.order_id });
    await eventually(() => (session.order(sellHigh.order_id)?.filled_base_size === '0.01' ? true : undefined), 'the partial fill on the desk');
    await eventually(() => session.order(overSocket.id), 'the socket order on the desk');
    await expectDeskEqualsVenue(session, venue.client(alice));

    // The outage: the venue stops; the desk's connection drops and it keeps trying.
    const dropped = nextEvent(session.onDidChangeConnection, (c) => c.sync === 'reconnecting');
    await venue.stop();
    await dropped;
    gate.block();
    const lost = await session.placeOrder(limit('BUY', -14)).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(OutcomeUnknownError);
    const lostId = (lost as OutcomeUnknownError).clientOrderId!;

    // Back on the same folder and port; the desk is still shut out while another client changes things.
    await venue.restart();
    const direct = venue.client(alice);
    const placedMeanwhile = await direct.placeOrder(limit('BUY', -13));
    await venue.client(bob).placeOrder(limit('BUY', 10));
    const filledMeanwhile = await direct.placeOrder(limit('SELL', 20));
    await venue.client(bob).placeOrder(limit('BUY', 20));
    await direct.cancelOrder({ order_id: buyLow.order_id });
    const cancelledMeanwhile = await direct.placeOrder(limit('SELL', 30));
    await direct.cancelOrder({ client_order_id: cancelledMeanwhile.client_order_id });
    expect(session.syncState).toBe('reconnecting');
    expect(session.order(placedMeanwhile.order_id)).toBeUndefined();

    // The desk gets through, reconciles, and holds exactly what the venue holds.
    gate.unblock();
    await session.whenLive();
    await expectDeskEqualsVenue(session, direct);
    expect(reconciles.length).toBeGreaterThanOrEqual(1);
    expect(session.order(filledMeanwhile.order_id)).toMatchObject({ status: 'DONE', done_reason: 'FILLED' });
    expect(session.order(sellHigh.order_id)).toMatchObject({ status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.02' });
    expect(session.order(buyLow.order_id)).toMatchObject({ status: 'DONE', done_reason: 'CANCELED' });
    // The placement tried during the outage never reached the venue, and the desk says so, once its request can
    // no longer arrive (its timeout, 1 s here): the reconcile may look it up before then.
    await eventually(() => (resolutions.length > 0 ? true : undefined), 'the lost placement to be settled');
    expect(resolutions).toEqual([{ clientOrderId: lostId, order: undefined }]);
    expect(session.orders().some((o) => o.client_order_id === lostId)).toBe(false);
    expect(session.account()?.id).toBe(alice.userId);

    // And it is live: the next change arrives over the socket.
    const later = await direct.placeOrder(limit('BUY', -15));
    await eventually(() => session.order(later.order_id), 'a live update after the reconnect');
    await expectDeskEqualsVenue(session, direct);
  });

  it('equal the venue’s after only the socket was dropped while orders changed', async () => {
    const alice = await venue.newAccount();
    const bob = await venue.newAccount();
    const session = deskSession(alice);
    await session.start();
    const resting = await session.placeOrder(limit('BUY', -20));
    const partly = await session.placeOrder(limit('SELL', 40, '0.03'));

    const dropped = nextEvent(session.onDidChangeConnection, (c) => c.sync === 'reconnecting');
    gate.block();
    gate.cut();
    await dropped;

    const direct = venue.client(alice);
    await direct.cancelOrder({ order_id: resting.order_id });
    await venue.client(bob).placeOrder(limit('BUY', 40));
    const placedMeanwhile = await direct.placeOrder(limit('BUY', -21));
    const filledMeanwhile = await direct.placeOrder(limit('SELL', 39));
    await venue.client(bob).placeOrder(limit('BUY', 39));

    gate.unblock();
    await session.whenLive();
    await expectDeskEqualsVenue(session, direct);
    expect(session.order(partly.order_id)).toMatchObject({ status: 'ACTIVE', filled_base_size: '0.01' });
    expect(session.order(placedMeanwhile.order_id)?.status).toBe('ACTIVE');
    expect(session.order(filledMeanwhile.order_id)?.done_reason).toBe('FILLED');
    await direct.cancelAllOrders();
  });
});

describe('the tape', () => {
  it('is sent the trades made while the socket was down, once it comes back', async () => {
    const alice = await venue.newAccount();
    const bob = await venue.newAccount();
    const session = deskSession(alice);
    // The renderer's tape keeps each trade id once, so a trade sent twice (streamed, then read back) is fine.
    const tape = new Set<string>();
    session.onDidReceiveTrades(({ productId, trades }) => {
      if (productId === BTC) for (const t of trades) tape.add(t.id);
    });
    await session.start();
    await session.watchMarket(BTC);
    const trade = async (ticks: number): Promise<void> => {
      await venue.client(bob).placeOrder(limit('SELL', ticks));
      await venue.client(alice).placeOrder(limit('BUY', ticks));
    };
    await trade(51);

    const dropped = nextEvent(session.onDidChangeConnection, (c) => c.sync === 'reconnecting');
    gate.block();
    gate.cut();
    await dropped;
    await trade(52);
    await trade(53);
    gate.unblock();
    await session.whenLive();
    await trade(54);

    const venueTape = (await venue.client(alice).listTrades(BTC, 4)).map((t) => t.id);
    await eventually(() => (venueTape.every((id) => tape.has(id)) ? true : undefined), 'every trade on the desk’s tape', 5_000).catch(() => undefined);
    expect(venueTape.filter((id) => !tape.has(id))).toEqual([]);
    await venue.client(alice).cancelAllOrders();
    await venue.client(bob).cancelAllOrders();
  });
});

describe('books', () => {
  it('keeps the level2 book equal to the venue’s, through a lost update', async () => {
    const alice = await venue.newAccount();
    const session = deskSession(alice);
    await session.start();
    await session.watchMarket(BTC);
    const rest = venue.client(alice);
    const sameAsVenue = async () => {
      const truth = await rest.getOrderBook(BTC);
      const book = session.book(BTC);
      return book !== undefined && JSON.stringify([book.bids, book.asks]) === JSON.stringify([truth.bids, truth.asks]) ? book : undefined;
    };

    await session.placeOrder(limit('BUY', -30));
    await session.placeOrder(limit('SELL', 50));
    const streamed = await eventually(sameAsVenue, 'the streamed book');
    expect(streamed.source).toBe('stream');

    const gaps: unknown[] = [];
    session.socket.onDidDetectBookGap((g) => gaps.push(g));
    const views: { inDoubt: boolean }[] = [];
    session.onDidChangeBook((view) => views.push(view));
    gate.dropNextFrame((text) => text.includes('"l2update"'));
    await session.placeOrder(limit('BUY', -31));
    await session.placeOrder(limit('BUY', -32, '0.02'));
    await eventually(() => (gaps.length > 0 ? true : undefined), 'the gap to be noticed');
    await eventually(sameAsVenue, 'the book after the resync');
    // Between the gap and the fresh snapshot the book said it was in doubt, and it is trusted again after.
    expect(views.some((v) => v.inDoubt)).toBe(true);
    expect(session.book(BTC)?.inDoubt).toBe(false);
    await rest.cancelAllOrders();
  });

  it('is dropped on unwatch, and not brought back by the snapshot of a sub still on its way', async () => {
    const session = deskSession(await venue.newAccount());
    await session.start();
    const changed: string[] = [];
    session.onDidChangeBook((view) => changed.push(view.productId));
    // The sub goes out, then the unsub: the venue answers the sub with its snapshot before it takes the unsub.
    const watching = session.watchMarket(BTC);
    const snapshot = nextEvent(session.socket.onDidReceiveBookSnapshot, (s) => s.product_id === BTC);
    await session.unwatchMarket(BTC);
    await Promise.all([watching, snapshot]);
    await session.socket.ping();
    expect(session.book(BTC)).toBeUndefined();
    expect(changed).toEqual([]);
  });

  it('falls back to polling the public endpoints where the venue refuses the stream', async () => {
    const alice = await venue.newAccount({ ETH: '10', VND: '100000000000' });
    const session = deskSession(alice);
    await session.start();
    const switches: PollingSwitch[] = [];
    session.onDidSwitchToPolling((s) => switches.push(s));
    await session.watchMarket('DOGE-VND');
    expect(switches.map((s) => [s.productId, s.reason.ref])).toEqual([['DOGE-VND', 'E0104_InvalidSymbol']]);
    expect(session.polledProducts()).toEqual(['DOGE-VND']);
    await session.unwatchMarket('DOGE-VND');

    // The same path for a product the venue knows: its book and trades now come from REST.
    const trades: TradesChange[] = [];
    session.onDidReceiveTrades((t) => trades.push(t));
    session.switchToPolling('ETH-VND', switches[0]!.reason);
    await session.placeOrder({ product_id: 'ETH-VND', side: 'SELL', limit_price: '91000000', base_size: '0.5', wait: true });
    const buyer = await venue.newAccount();
    await venue.client(buyer).placeOrder({ product_id: 'ETH-VND', side: 'BUY', limit_price: '91000000', base_size: '0.1', wait: true });
    const book = await eventually(() => {
      const b = session.book('ETH-VND');
      return b?.asks[0]?.size === '0.4' ? b : undefined;
    }, 'the polled book');
    expect(book).toMatchObject({ source: 'poll', asks: [{ price: '91000000', size: '0.4', order_count: 1 }] });
    // Polls that go unanswered leave the book in doubt; answered again, it is trusted again.
    gate.hold();
    await eventually(() => (session.book('ETH-VND')?.inDoubt === true ? true : undefined), 'the polled book in doubt');
    gate.release();
    await eventually(() => (session.book('ETH-VND')?.inDoubt === false ? true : undefined), 'the polled book trusted again');
    const polled = await eventually(() => trades.find((t) => t.productId === 'ETH-VND' && t.source === 'poll'), 'polled trades');
    expect(polled.trades.at(-1)).toMatchObject({ price: '91000000', size: '0.1', side: 'BUY' });
    await venue.client(alice).cancelAllOrders();
  });
});
