// Cancel all, the trader's panic button, answered as the venue answered it. The session then read every cancelled
// order one by one before answering: against a venue that allows 3 requests a key and second, the cancel went
// through and the answer was a rate-limit refusal all the same, and each order cost the answer a round trip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueError } from '../../../src-main/connection/venue-error';
import { VenueSession } from '../../../src-main/connection/venue-session';
import { sleep } from '../../../src-main/connection/backoff';
import { BTC, LocalVenue, eventually, px, type Account } from './local-venue';

let venue: LocalVenue;
let trader: Account;

beforeAll(async () => {
  venue = await LocalVenue.start({ requestRate: 3 });
  trader = await venue.newAccount();
});

afterAll(async () => {
  await venue.dispose();
});

describe('cancel all', () => {
  it('answers with what the venue cancelled, and the records follow', async () => {
    // A second key of the same user places the orders, so they spend none of the session key's requests.
    const made = await venue.client(trader).createApiKey({ name: 'placer' });
    const placer = venue.client({ userId: trader.userId, credentials: { apiKey: made.api_key, apiSecret: made.api_secret ?? '' } }, { maxRetries: 10 });
    const session = new VenueSession({ baseUrl: venue.baseUrl, wsUrl: venue.wsUrl, credentials: trader.credentials, rest: { maxRetries: 0 } });
    try {
      await session.start();
      const placed: { order_id: string }[] = [];
      for (let i = 0; i < 10; i++) placed.push(await placer.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-100 - i), base_size: '0.01', wait: true }));

      let outcome: unknown;
      for (;;) {
        outcome = await session.cancelAllOrders(BTC).catch((e: unknown) => e);
        if (!(outcome instanceof VenueError && outcome.isRateLimit)) break;
        // Refused, and the orders cancelled all the same: what the trader was told is wrong.
        if ((await placer.listActiveOrders({ product_id: BTC })).length === 0) break;
        // Refused before anything was cancelled: the venue's wait, then the button again.
        await sleep(outcome.retryAfterMs ?? 1_000);
      }
      expect(outcome).toBe(10);
      expect(await placer.listActiveOrders({ product_id: BTC })).toEqual([]);
      await eventually(() => (placed.every((o) => session.order(o.order_id)?.status === 'DONE') ? true : undefined), 'every cancelled order DONE in the blotter');
    } finally {
      session.dispose();
      placer.dispose();
    }
  });
});
