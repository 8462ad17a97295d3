// Two order placements whose answers a gateway lost at once (504s; the venue never had them). The trader is told
// of each that the connection status says if it was not placed; it says so of both, each for its minute. It kept
// one note: the first order's "was not placed" was replaced by the second's within milliseconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { deskServices, type DeskServices } from '../../../src-main/desk/services';
import { BTC, LocalVenue, px } from '../connection/local-venue';
import { GATEWAY_TIMEOUT, openHttpGateway, type HttpGateway } from './http-gateway';
import { deskOnDevelopment, eventually } from './open-desk';

let venue: LocalVenue;
let gateway: HttpGateway;
let desk: Desk;
let services: DeskServices;
let closeDesk: () => Promise<void>;
/** Order placements the gateway answers 504 without passing on. */
let toLose = 0;

beforeAll(async () => {
  venue = await LocalVenue.start();
  gateway = await openHttpGateway(venue.port);
  gateway.rule = ({ method, path }) => {
    if (method === 'POST' && path === '/api/v1/orders' && toLose > 0) {
      toLose--;
      return { instead: GATEWAY_TIMEOUT };
    }
    return 'pass';
  };
  ({ desk, close: closeDesk } = await deskOnDevelopment(venue, {
    label: 'two-unknown',
    address: { baseUrl: gateway.baseUrl, wsUrl: venue.wsUrl },
    session: { rest: { timeoutMs: 5_000, settleMs: 50, maxRetries: 0 }, placementLookupMs: 50 },
  }));
  services = deskServices(desk);
});

afterAll(async () => {
  await closeDesk();
  await gateway.close();
  await venue.dispose();
});

describe('two placements whose outcome is unknown', () => {
  it('each have what their lookup found in the connection status', async () => {
    toLose = 2;
    const place = (clientOrderId: string) =>
      dispatch(services, 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: clientOrderId, override_checks: true });
    const answers = await Promise.all([place('lost-first'), place('lost-second')]);
    for (const answer of answers) expect(answer.ok ? 'placed' : answer.error.message).toMatch(/^E0802_OrderOutcomeUnknown: /);

    const notPlaced = (id: string): RegExp => new RegExp(`the order ${id}, whose outcome was unknown, was not placed`);
    const detail = await eventually(() => {
      const shown = desk.status().detail;
      return notPlaced('lost-first').test(shown) && notPlaced('lost-second').test(shown) ? shown : undefined;
    }, 'both lookups in the status');
    expect(detail.match(/whose outcome was unknown/g)).toHaveLength(2);
    expect((await desk.activeOrders(BTC)).filter((o) => o.client_order_id.startsWith('lost-'))).toEqual([]);
  });
});

describe('what a placement\'s lookup found, or that it stopped', () => {
  it('stays in the status for its minute when the desk reconnects or switches meanwhile', async () => {
    toLose = 1;
    const lost = await dispatch(services, 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: 'lost-then-reconnect', override_checks: true });
    expect(lost.ok ? 'placed' : lost.error.message).toMatch(/^E0802_OrderOutcomeUnknown: /);
    const notPlaced = /the order lost-then-reconnect, whose outcome was unknown, was not placed: Development holds no order/;
    await eventually(() => (notPlaced.test(desk.status().detail) ? true : undefined), 'the lookup in the status');

    // The trader saves Development's addresses again (or picks another key): a new session, the answer still there.
    await desk.configureEnvironment({ id: 'development', baseUrl: gateway.baseUrl, wsUrl: venue.wsUrl });
    await desk.whenLive();
    expect(desk.status().detail).toMatch(notPlaced);

    // Off to Local and back: named as Development's, it is still shown on either.
    await desk.switchEnvironment('local');
    expect(desk.status().detail).toMatch(notPlaced);
    await desk.switchEnvironment('development');
    await desk.whenLive();
    expect(desk.status().detail).toMatch(notPlaced);
  });
});
