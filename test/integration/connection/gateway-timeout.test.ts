// Development and production sit behind gateways (a load balancer, a CDN) that answer 502 or 504 in the venue's
// place when it is slow or its connection breaks: the request may well have reached the venue, and an order
// may be live. Such an answer is the venue's outcome unknown, not its refusal. The gateway here is a real HTTP
// relay in front of the real venue that passes the request on, drops the venue's answer and says 504.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueRestClient, type PlacementRecovery, type RequestAttempt } from '../../../src-main/connection/rest-client';
import { OutcomeUnknownError } from '../../../src-main/connection/venue-error';
import { BTC, LocalVenue, px, type Account } from './local-venue';

let venue: LocalVenue;
let trader: Account;
let gateway: Server;
let gatewayUrl: string;
/** "METHOD /path" of the requests whose answers the gateway replaces with a 504, each once. */
const timeOut = new Set<string>();

beforeAll(async () => {
  venue = await LocalVenue.start();
  trader = await venue.newAccount();
  gateway = createServer((incoming, outgoing) => {
    const key = `${incoming.method} ${new URL(incoming.url ?? '/', 'http://x').pathname}`;
    const upstream = httpRequest({ host: '127.0.0.1', port: venue.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      if (timeOut.delete(key)) {
        answer.resume();
        outgoing.writeHead(504, { 'content-type': 'text/html' });
        outgoing.end('<html><body><h1>504 Gateway Time-out</h1></body></html>');
        return;
      }
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});

afterAll(async () => {
  gateway.closeAllConnections();
  await new Promise<void>((resolve) => gateway.close(() => resolve()));
  await venue.dispose();
});

function client(): { client: VenueRestClient; attempts: RequestAttempt[]; recoveries: PlacementRecovery[] } {
  const made = new VenueRestClient({ baseUrl: gatewayUrl, credentials: trader.credentials, settleMs: 50, retryBackoff: { initialMs: 10, maxMs: 50 } });
  const attempts: RequestAttempt[] = [];
  const recoveries: PlacementRecovery[] = [];
  made.onDidAttempt((a) => attempts.push(a));
  made.onDidRecoverPlacement((r) => recoveries.push(r));
  return { client: made, attempts, recoveries };
}

describe('a gateway that answers 504 in the venue’s place', () => {
  it('leaves an order placement to be looked up, and finds the order the venue placed, sent once', async () => {
    const { client: c, attempts, recoveries } = client();
    timeOut.add('POST /api/v1/orders');

    const order = await c.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-300), base_size: '0.01', client_order_id: 'gw-1', wait: true });

    expect(order).toMatchObject({ client_order_id: 'gw-1', status: 'ACTIVE' });
    expect(recoveries).toMatchObject([{ clientOrderId: 'gw-1', found: { order_id: order.order_id } }]);
    expect(attempts.filter((a) => a.operation === 'POST /api/v1/orders').map((a) => a.outcome)).toEqual(['outcome_unknown']);
    expect((await venue.client(trader).listActiveOrders({ client_order_id: 'gw-1' })).map((o) => o.order_id)).toEqual([order.order_id]);
    await venue.client(trader).cancelOrder({ order_id: order.order_id });
  });

  it('says a cancel may have been done, rather than that the venue failed with its state unchanged', async () => {
    const placed = await venue.client(trader).placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-301), base_size: '0.01', wait: true });
    const { client: c } = client();
    timeOut.add('DELETE /api/v1/order/active');

    const err = await c.cancelOrder({ order_id: placed.order_id }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as Error).message).toMatch(/may or may not have acted/);
    // It had: the order is cancelled.
    expect(await venue.client(trader).getOrder(placed.order_id)).toMatchObject({ status: 'DONE' });
  });

  it('reads again, as after any read whose answer was lost', async () => {
    const { client: c, attempts } = client();
    timeOut.add('GET /api/v1/orders/active');
    await expect(c.listActiveOrders()).resolves.toBeInstanceOf(Array);
    expect(attempts.filter((a) => a.operation === 'GET /api/v1/orders/active').map((a) => a.outcome)).toEqual(['outcome_unknown', 'ok']);
  });
});
