// A client_order_id is free again once its order is done, and a trader may type the same one twice within a
// minute. When the second placement's answer is lost (a gateway's 504, here without passing it on: nothing was
// placed), looking it up by the id finds the first order, same product and side, made seconds before: within
// the clock skew allowed, so it was taken for the second placement's, and the trader told an order that never
// reached the venue was placed. The desk held that first order already: it is never this placement's.
import { describe, expect, it } from 'vitest';
import { VenueSession, type PlacementResolution } from '../../../src-main/connection/venue-session';
import { OutcomeUnknownError } from '../../../src-main/connection/venue-error';
import { GATEWAY_TIMEOUT, type HttpGateway } from '../desk/http-gateway';
import { BTC, eventually, px, type Account, type LocalVenue } from './local-venue';
import { venueBehindGateway } from './venue-behind-gateway';

let venue: LocalVenue;
let trader: Account;
let gateway: HttpGateway;
venueBehindGateway((made) => ({ venue, trader, gateway } = made));

describe('a lost placement under a client_order_id an order of the desk used before', () => {
  it('is not taken for that older order: unknown, then not placed', async () => {
    const session = new VenueSession({
      baseUrl: gateway.baseUrl,
      wsUrl: venue.wsUrl,
      credentials: trader.credentials,
      userId: trader.userId,
      rest: { timeoutMs: 1_000, maxRetries: 0, settleMs: 20 },
      placementLookupMs: 50,
    });
    const resolutions: PlacementResolution[] = [];
    session.onDidResolvePlacement((r) => resolutions.push(r));
    try {
      await session.start();
      // The first: an IOC far under the asks, done at once (nothing to match), which frees its id.
      const first = await session.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-500), base_size: '0.01', time_in_force: 'IOC', client_order_id: 'typed-twice', wait: true });
      expect(first.status).toBe('DONE');

      let sent = 0;
      gateway.rule = ({ method, path }) => (method === 'POST' && path === '/api/v1/orders' && sent++ === 0 ? { instead: GATEWAY_TIMEOUT } : 'pass');
      const second = await session.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.02', client_order_id: 'typed-twice', wait: true }).then(
        (order) => order,
        (err: unknown) => err,
      );
      expect(second).toBeInstanceOf(OutcomeUnknownError);
      expect((second as OutcomeUnknownError).placement?.lookup).toBe('not_found');
      // Looked up until the request can no longer arrive: not placed, not the first order.
      const resolved = await eventually(() => resolutions.find((r) => r.clientOrderId === 'typed-twice'), 'the placement to be settled');
      expect(resolved.order).toBeUndefined();
      expect((await venue.client(trader).listOrderHistory({ client_order_id: 'typed-twice' })).map((o) => o.order_id)).toEqual([first.order_id]);
    } finally {
      gateway.rule = () => 'pass';
      session.dispose();
    }
  });
});
