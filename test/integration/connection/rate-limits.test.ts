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

  it('waits out E0503 on orders', async () => {
    const client = venue.client(trader, { maxRetries: 6 });
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
