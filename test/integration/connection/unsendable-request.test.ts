// A request fetch refuses to make at all (an address with a user name and password in it, a port fetch blocks):
// nothing reached the venue, so an order sent there is not placed, and the trader is told so, not that it may
// have been placed and must be looked for before sending it again (which, every lookup failing alike, never ends).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueRestClient } from '../../../src-main/connection/rest-client';
import { VenueUnreachableError } from '../../../src-main/connection/venue-error';
import { BTC, LocalVenue, px, type Account } from './local-venue';

let venue: LocalVenue;
let trader: Account;

beforeAll(async () => {
  venue = await LocalVenue.start();
  trader = await venue.newAccount();
});

afterAll(async () => {
  await venue.dispose();
});

async function failure(call: () => Promise<unknown>): Promise<unknown> {
  return call().then(
    () => undefined,
    (err: unknown) => err,
  );
}

describe('a request fetch will not make', () => {
  it('is not sent, and an order so sent is said not placed', async () => {
    const withCredentials = venue.baseUrl.replace('http://', 'http://trader:password@');
    const client = new VenueRestClient({ baseUrl: withCredentials, credentials: trader.credentials, settleMs: 10, maxRetries: 1, retryBackoff: { initialMs: 5, maxMs: 10 } });
    const blockedPort = new VenueRestClient({ baseUrl: 'http://127.0.0.1:6667', credentials: trader.credentials, settleMs: 10, maxRetries: 0 });
    try {
      const placed = await failure(() => client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-300), base_size: '0.01', client_order_id: 'never-made' }));
      expect(placed).toBeInstanceOf(VenueUnreachableError);
      expect((placed as Error).message).not.toContain('password');
      expect(await failure(() => blockedPort.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-300), base_size: '0.01' }))).toBeInstanceOf(VenueUnreachableError);
      expect(await failure(() => client.listActiveOrders())).toBeInstanceOf(VenueUnreachableError);
      expect(await venue.client(trader).listOrderHistory({ client_order_id: 'never-made' })).toEqual([]);
    } finally {
      client.dispose();
      blockedPort.dispose();
    }
  });
});
