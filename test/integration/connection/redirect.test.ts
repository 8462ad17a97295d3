// A venue's address that answers with a redirect (a misconfigured gateway, a hijacked name, a captive portal): the
// API key and secret travel in NOVA-KEY and NOVA-SECRET, headers fetch does not strip when it follows a redirect
// to another host, and a followed 307 sends an order's POST on to wherever it points. The redirect here is the
// real gateway in front of the real venue; the address it points at records whatever reaches it.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueRestClient } from '../../../src-main/connection/rest-client';
import { OutcomeUnknownError, VenueProtocolError } from '../../../src-main/connection/venue-error';
import type { HttpGateway } from '../desk/http-gateway';
import { BTC, px, type Account } from './local-venue';
import { venueBehindGateway } from './venue-behind-gateway';

let trader: Account;
let gateway: HttpGateway;
let elsewhere: Server;
let elsewhereUrl: string;
const reachedElsewhere: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];

venueBehindGateway((made) => ({ trader, gateway } = made));

beforeAll(async () => {
  elsewhere = createServer((incoming, outgoing) => {
    reachedElsewhere.push({ method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers });
    incoming.resume();
    outgoing.writeHead(200, { 'content-type': 'application/json' });
    outgoing.end('{}');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  // Another origin than the gateway's (another host name), as a redirect to another site would be.
  elsewhereUrl = `http://localhost:${(elsewhere.address() as AddressInfo).port}`;
});

afterAll(async () => {
  elsewhere.closeAllConnections();
  await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
});

describe('a venue address that answers with a redirect', () => {
  it('is not followed: no key, secret or order reaches the address it points at, and the answer says why', async () => {
    // Every request redirected except the placement's lookup, which the venue answers.
    gateway.rule = ({ method, path }) =>
      method === 'GET' && path === '/api/v1/order/archived' ? 'pass' : { instead: { status: 307, headers: { location: `${elsewhereUrl}${path}` }, body: '' } };
    const client = new VenueRestClient({ baseUrl: gateway.baseUrl, credentials: trader.credentials, settleMs: 20, maxRetries: 1, retryBackoff: { initialMs: 10, maxMs: 20 } });
    try {
      const read = await client.listActiveOrders().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(read).toBeInstanceOf(VenueProtocolError);
      expect((read as Error).message).toMatch(/redirect/);

      const placed = await client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-300), base_size: '0.01', client_order_id: 'redirected-1' }).then(
        () => undefined,
        (err: unknown) => err,
      );
      // Not placed at the venue, and the desk does not claim it was: looked up, found nowhere yet.
      expect(placed).toBeInstanceOf(OutcomeUnknownError);
      expect((placed as OutcomeUnknownError).placement?.lookup).toBe('not_found');
      expect(reachedElsewhere).toEqual([]);
    } finally {
      client.dispose();
      gateway.rule = () => 'pass';
    }
  });
});
