// An order sent whose answer is lost (here a gateway's 504, as Development and Production sit behind one) may be
// live at the venue. The trader is told it MAY have been placed and not to send it again, and the desk looks it
// up until the venue answers, saying what it found: placed (it is among the orders) or not placed. The gateway
// is a real HTTP relay in front of the real venue; the desk's socket goes to the venue directly.
import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { deskServices, type DeskServices } from '../../../src-main/desk/services';
import { BTC, LocalVenue, px } from '../connection/local-venue';
import { deskOnDevelopment, eventually } from './open-desk';

let venue: LocalVenue;
let gateway: Server;
let desk: Desk;
let services: DeskServices;
let closeDesk: () => Promise<void>;

/** What the gateway does to the next order placement: answer 504 without passing it on, or pass it on and answer 504. */
let nextPlacement: 'pass' | 'lose_request' | 'lose_answer' = 'pass';
/** Lookups of one order (GET /api/v1/order/archived) the gateway answers 504 without passing on. */
let lookupsToFail = 0;

function gatewayTimeout(outgoing: ServerResponse): void {
  outgoing.writeHead(504, { 'content-type': 'text/html' });
  outgoing.end('<html><body><h1>504 Gateway Time-out</h1></body></html>');
}

beforeAll(async () => {
  venue = await LocalVenue.start();
  gateway = createServer((incoming, outgoing) => {
    const path = new URL(incoming.url ?? '/', 'http://x').pathname;
    let loseAnswer = false;
    if (incoming.method === 'POST' && path === '/api/v1/orders' && nextPlacement !== 'pass') {
      const what = nextPlacement;
      nextPlacement = 'pass';
      if (what === 'lose_request') {
        incoming.resume();
        gatewayTimeout(outgoing);
        return;
      }
      loseAnswer = true;
    }
    if (incoming.method === 'GET' && path === '/api/v1/order/archived' && lookupsToFail > 0) {
      lookupsToFail--;
      incoming.resume();
      gatewayTimeout(outgoing);
      return;
    }
    const upstream = httpRequest({ host: '127.0.0.1', port: venue.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      if (loseAnswer) {
        answer.resume();
        gatewayTimeout(outgoing);
        return;
      }
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  ({ desk, close: closeDesk } = await deskOnDevelopment(venue, {
    label: 'outcome-unknown',
    address: { baseUrl, wsUrl: venue.wsUrl },
    session: { rest: { timeoutMs: 5_000, settleMs: 50, maxRetries: 0 }, placementLookupMs: 50 },
  }));
  services = deskServices(desk);
});

afterAll(async () => {
  await closeDesk();
  gateway.closeAllConnections();
  await new Promise<void>((resolve) => gateway.close(() => resolve()));
  await venue.dispose();
});

async function placeRefused(clientOrderId: string): Promise<string> {
  const result = await dispatch(services, 'orders.place', { product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: clientOrderId, override_checks: true });
  if (result.ok) throw new Error('the placement was answered');
  return result.error.message;
}

describe('an order placement whose answer a gateway lost', () => {
  it('is said to MAY have been placed, and once looked up again, not placed when the venue never had it', async () => {
    nextPlacement = 'lose_request';
    const said = await placeRefused('unknown-never-placed');
    expect(said).toMatch(/^E0902_ServiceUnavailable: the order MAY have been placed: it was sent and its answer was lost \(POST \/api\/v1\/orders: a gateway answered in the venue's place; /);
    expect(said).toMatch(/Development held no order under its client order id when asked/);
    expect(said).toMatch(/looking it up by its client order id unknown-never-placed.*Do not send it again until then/);
    const detail = await eventually(() => (/unknown-never-placed/.test(desk.status().detail) ? desk.status().detail : undefined), 'the lookup to be reported');
    expect(detail).toMatch(/the order unknown-never-placed, whose outcome was unknown, was not placed: Development holds no order under that client order id/);
    expect((await desk.activeOrders(BTC)).some((o) => o.client_order_id === 'unknown-never-placed')).toBe(false);
  });

  it('is looked up again after a failed lookup, and reported placed when the venue had it', async () => {
    nextPlacement = 'lose_answer';
    lookupsToFail = 1;
    const said = await placeRefused('unknown-placed');
    expect(said).toMatch(/the order MAY have been placed: .*looking it up failed too\. The desk is looking it up by its client order id unknown-placed/);
    const detail = await eventually(() => (/unknown-placed,/.test(desk.status().detail) ? desk.status().detail : undefined), 'the lookup to be reported');
    expect(detail).toMatch(/the order unknown-placed, whose outcome was unknown, was placed: order \S+, (ACTIVE|SUBMITTED)/);
    const placed = (await desk.activeOrders(BTC)).filter((o) => o.client_order_id === 'unknown-placed');
    expect(placed).toHaveLength(1);
    await desk.cancelOrder({ order_id: placed[0]?.order_id ?? '' });
  });
});
