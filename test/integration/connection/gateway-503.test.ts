// A gateway in front of the venue that answers 503 in its own words after passing the request on (Envoy's
// "upstream connect error or disconnect/reset before headers", a load balancer whose backend reset): the order
// may well be placed. Read as the venue's E0902 ("did nothing, retry"), the placement was sent again under its
// client_order_id, which an IOC that filled at once had already freed: a second order, a second fill. Only the
// venue's own 503 (its error body) says nothing was done.
import { beforeAll, describe, expect, it } from 'vitest';
import { VenueRestClient } from '../../../src-main/connection/rest-client';
import type { HttpGateway } from '../desk/http-gateway';
import { BTC, px, type Account, type LocalVenue } from './local-venue';
import { venueBehindGateway } from './venue-behind-gateway';

let venue: LocalVenue;
let maker: Account;
let trader: Account;
let gateway: HttpGateway;
venueBehindGateway((made) => ({ venue, trader, gateway } = made));

beforeAll(async () => {
  maker = await venue.newAccount();
});

describe('a gateway’s 503 after it passed the order on', () => {
  it('is an unknown outcome, looked up, and the order is not sent twice', async () => {
    // Enough resting to fill the order twice over.
    await venue.client(maker).placeOrder({ product_id: BTC, side: 'SELL', limit_price: px(5), base_size: '0.05', wait: true });
    let first = true;
    gateway.rule = ({ method, path }) => {
      if (method !== 'POST' || path !== '/api/v1/orders' || !first) return 'pass';
      first = false;
      return { after: { status: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream connect error or disconnect/reset before headers. reset reason: connection termination' } };
    };
    const client = new VenueRestClient({ baseUrl: gateway.baseUrl, credentials: trader.credentials, settleMs: 50, retryBackoff: { initialMs: 10, maxMs: 20 } });
    try {
      const order = await client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(5), base_size: '0.01', time_in_force: 'IOC', client_order_id: 'through-503', wait: true });
      expect(order.client_order_id).toBe('through-503');
      const placed = await venue.client(trader).listOrderHistory({ client_order_id: 'through-503' });
      expect(placed).toHaveLength(1);
    } finally {
      gateway.rule = () => 'pass';
      client.dispose();
    }
  });

  it('from the venue itself (its E0902 body) is still sent again: the venue did nothing', async () => {
    let first = true;
    gateway.rule = ({ method, path }) => {
      if (method !== 'POST' || path !== '/api/v1/orders' || !first) return 'pass';
      first = false;
      return { instead: { status: 503, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'E0902_ServiceUnavailable: the venue is starting' } }) } };
    };
    const client = new VenueRestClient({ baseUrl: gateway.baseUrl, credentials: trader.credentials, settleMs: 50, retryBackoff: { initialMs: 10, maxMs: 20 } });
    try {
      const order = await client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-900), base_size: '0.01', client_order_id: 'after-venue-503', wait: true });
      expect(order.status).toBe('ACTIVE');
    } finally {
      gateway.rule = () => 'pass';
      client.dispose();
    }
  });
});
