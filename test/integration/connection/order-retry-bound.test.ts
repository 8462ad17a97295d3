// An order the venue says it did nothing with (503 E0902, starting or stopping), or that never left this machine,
// is sent again after a backoff, but only within the order's bound from the trader's click (orderRateWaitMs):
// later, the trader is told instead, rather than the order leaving seconds after it was sent. The gateway in front
// of the real venue answers the first placement 503 E0902 in its place.
import { beforeAll, describe, expect, it } from 'vitest';
import type { RequestAttempt } from '../../../src-main/connection/rest-client';
import { VenueError } from '../../../src-main/connection/venue-error';
import type { HttpGateway } from '../desk/http-gateway';
import { BTC, px, type Account, type LocalVenue } from './local-venue';
import { venueBehindGateway } from './venue-behind-gateway';

let venue: LocalVenue;
let trader: Account;
let gateway: HttpGateway;
let refuseNextPlacement = false;
venueBehindGateway((made) => ({ venue, trader, gateway } = made));

beforeAll(() => {
  gateway.rule = ({ method, path }) => {
    if (!(refuseNextPlacement && method === 'POST' && path === '/api/v1/orders')) return 'pass';
    refuseNextPlacement = false;
    return { instead: { status: 503, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 'Unavailable', message: 'E0902_ServiceUnavailable: the venue is starting' } }) } };
  };
});

describe('an order the venue did nothing with', () => {
  it('is not sent again once its backoff would take it past the bound: the refusal comes back', async () => {
    const attempts: RequestAttempt[] = [];
    // The backoff's jitter at its top: about 2 s, past the 300 ms this client lets an order wait.
    const client = venue.client(trader, { baseUrl: gateway.baseUrl, orderRateWaitMs: 300, retryBackoff: { initialMs: 2_000, maxMs: 2_000 }, random: () => 0.99 });
    client.onDidAttempt((a) => attempts.push(a));
    refuseNextPlacement = true;
    const err = await client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: 'retry-bound-1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VenueError);
    expect(err).toMatchObject({ ref: 'E0902_ServiceUnavailable' });
    expect(attempts.filter((a) => a.operation === 'POST /api/v1/orders').map((a) => a.attempt)).toEqual([0]);
    expect(await venue.client(trader).listOrderHistory({ client_order_id: 'retry-bound-1' })).toEqual([]);
    client.dispose();
  });

  it('is still sent again when the backoff fits in the bound', async () => {
    const client = venue.client(trader, { baseUrl: gateway.baseUrl, orderRateWaitMs: 5_000, retryBackoff: { initialMs: 20, maxMs: 20 } });
    refuseNextPlacement = true;
    const order = await client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: 'retry-bound-2' });
    expect(order.client_order_id).toBe('retry-bound-2');
    await client.cancelOrder({ order_id: order.order_id });
    client.dispose();
  });
});
