// Retry-After honoured: against a venue that allows 2 requests and 1 order per key and second, a client that
// is asked for more waits as long as each refusal says, then succeeds, and sends nothing while it waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorRecord } from '../../../src-shared/errors/catalogue';
import type { RequestAttempt } from '../../../src-main/connection/rest-client';
import { VenueError } from '../../../src-main/connection/venue-error';
import { BTC, LocalVenue, px, type Account } from './local-venue';

let venue: LocalVenue;
let trader: Account;

beforeAll(async () => {
  venue = await LocalVenue.start({ requestRate: 2, orderRate: 1 });
  trader = await venue.newAccount();
});

afterAll(async () => {
  await venue.dispose();
});

/** Every attempt sent after a refusal's answer arrived was sent no earlier than its Retry-After allowed. */
function expectWaitsHonoured(attempts: readonly RequestAttempt[]): void {
  const refusals = attempts.filter((a) => a.outcome === 'rate_limited');
  for (const refusal of refusals) {
    expect(refusal.retryAfterMs).toBeGreaterThanOrEqual(1_000);
    for (const later of attempts.filter((a) => a.sentAt > refusal.answeredAt)) {
      expect(later.sentAt - refusal.answeredAt).toBeGreaterThanOrEqual(refusal.retryAfterMs!);
    }
  }
}

describe('rate limits', () => {
  it('waits out E0501 and then answers every request', async () => {
    const client = venue.client(trader, { maxRetries: 6 });
    const attempts: RequestAttempt[] = [];
    client.onDidAttempt((a) => attempts.push(a));

    const answers = await Promise.all(Array.from({ length: 6 }, () => client.listActiveOrders()));

    expect(answers).toHaveLength(6);
    expect(attempts.filter((a) => a.outcome === 'ok')).toHaveLength(6);
    const refused = attempts.filter((a) => a.outcome === 'rate_limited');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((a) => a.httpStatus === 429)).toBe(true);
    expectWaitsHonoured(attempts);
  });

  it('waits out E0503 on orders when they may wait that long', async () => {
    // Three orders at one a second wait up to two Retry-After periods: more than an order waits by default.
    const client = venue.client(trader, { maxRetries: 6, orderRateWaitMs: 60_000 });
    const attempts: RequestAttempt[] = [];
    client.onDidAttempt((a) => attempts.push(a));

    const orders = await Promise.all(
      [0, 1, 2].map((i) => client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-100 - i), base_size: '0.01', wait: true })),
    );

    expect(orders.map((o) => o.status)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
    expect(attempts.some((a) => a.outcome === 'rate_limited')).toBe(true);
    expectWaitsHonoured(attempts);
    // Each order exists once, whatever it took to get it in.
    const mine = await client.listActiveOrders({ product_id: BTC });
    expect(mine.map((o) => o.order_id).sort()).toEqual(orders.map((o) => o.order_id).sort());
  });

  it('gives up after maxRetries with the refusal, its Retry-After and the catalogue explanation', async () => {
    const client = venue.client(trader, { maxRetries: 0 });
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => client.listActiveOrders()));
    const refusals = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(refusals.length).toBeGreaterThan(0);
    const record = errorRecord('E0501_RateLimitExceeded');
    for (const err of refusals) {
      expect(err).toBeInstanceOf(VenueError);
      expect(err).toMatchObject({ ref: 'E0501_RateLimitExceeded', httpStatus: 429, title: record.title, action: record.action, isRateLimit: true });
      expect((err as VenueError).retryAfterMs).toBeGreaterThanOrEqual(1_000);
    }
  });
});

// A venue that tells every refused order to wait 3 s or more (a quarter of an order a second): more than an
// order placement may wait by default (2 s), so the trader is told at once rather than the order leaving later.
describe('an order the rate limit would hold back too long', () => {
  let slow: LocalVenue;
  let slowTrader: Account;

  beforeAll(async () => {
    slow = await LocalVenue.start({ orderRate: 0.25 });
    slowTrader = await slow.newAccount();
  });

  afterAll(async () => {
    await slow.dispose();
  });

  it('is refused at once with E0503 and its Retry-After, never sent again, and the next not sent at all', async () => {
    const client = slow.client(slowTrader);
    const attempts: RequestAttempt[] = [];
    client.onDidAttempt((a) => attempts.push(a));
    const place = (ticks: number): Promise<unknown> =>
      client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-200 - ticks), base_size: '0.01', wait: true }).then(
        (order) => order,
        (err: unknown) => err,
      );

    const outcomes = [await place(0), await place(1), await place(2)];

    const placements = attempts.filter((a) => a.operation === 'POST /api/v1/orders');
    // Each placement sent at most once: a refusal for rate is not re-sent past the bound.
    expect(placements.every((a) => a.attempt === 0)).toBe(true);
    const refused = outcomes.filter((o): o is VenueError => o instanceof VenueError);
    expect(refused.length).toBeGreaterThan(0);
    for (const err of refused) {
      expect(err).toMatchObject({ ref: 'E0503_OrderRateLimitExceeded', isRateLimit: true, title: errorRecord('E0503_OrderRateLimitExceeded').title });
      expect(err.retryAfterMs).toBeGreaterThan(2_000);
    }
    // Once refused, the next came while the gate was still closed for seconds: refused without being sent.
    expect(placements.length).toBeLessThan(3);
    expect(outcomes[2]).toBeInstanceOf(VenueError);
    expect((outcomes[2] as VenueError).description).toMatch(/not sent/);
    // Only what was answered as placed is on the book.
    const placed = outcomes.filter((o) => !(o instanceof VenueError));
    expect(await client.listActiveOrders({ product_id: BTC })).toHaveLength(placed.length);
  }, 30_000);

  it('is still re-sent after a Retry-After that fits in the time an order may wait', async () => {
    const client = slow.client(slowTrader, { orderRateWaitMs: 60_000, maxRetries: 1 });
    const attempts: RequestAttempt[] = [];
    client.onDidAttempt((a) => attempts.push(a));
    const err = await client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-300), base_size: '0.01', wait: true }).catch((e: unknown) => e);
    // This venue refuses every order, so the one retry allowed is spent and the last refusal comes back.
    expect(err).toMatchObject({ ref: 'E0503_OrderRateLimitExceeded' });
    expect(attempts.filter((a) => a.operation === 'POST /api/v1/orders').map((a) => a.attempt)).toEqual([0, 1]);
  }, 30_000);
});

describe('a cancel the rate limit would hold back too long', () => {
  it('is refused with E0501 and its Retry-After rather than held back in silence', async () => {
    // The bound (10 s by default, against Retry-Afters of minutes) made shorter than this venue's 1 s Retry-After.
    const client = venue.client(trader, { maxRetries: 3, cancelRateWaitMs: 500 });
    const attempts: RequestAttempt[] = [];
    client.onDidAttempt((a) => attempts.push(a));
    await Promise.all([client.listActiveOrders({ product_id: BTC }), client.listActiveOrders({ product_id: BTC })]);
    const started = Date.now();
    const err = await client.cancelOrder({ client_order_id: 'rate-held' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ ref: 'E0501_RateLimitExceeded', isRateLimit: true });
    expect((err as VenueError).retryAfterMs).toBeGreaterThan(500);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(attempts.filter((a) => a.operation === 'DELETE /api/v1/order/active').map((a) => a.attempt)).toEqual([0]);
  }, 15_000);
});
