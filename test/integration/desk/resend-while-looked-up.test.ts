// An order sent again under a client order id whose in-doubt placement the desk is still looking up (the trader
// told not to, and doing it anyway), and that send in doubt too: the lookup of the first, still running, must not
// answer for the second. Its "not placed", found while the second was on its way, was the status's word on the id
// (the ticket reads that as the second's), and it ended the second's lookup, so the second was never reported placed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { deskServices, type DeskServices } from '../../../src-main/desk/services';
import { BTC, LocalVenue, px } from '../connection/local-venue';
import { GATEWAY_TIMEOUT, openHttpGateway, type HttpGateway } from './http-gateway';
import { deskOnDevelopment, eventually } from './open-desk';

/** The desk's request timeout and settle time: a lost placement's request may arrive until they have passed. */
const TIMEOUT_MS = 3_000;
const SETTLE_MS = 50;

let venue: LocalVenue;
let gateway: HttpGateway;
let desk: Desk;
let services: DeskServices;
let closeDesk: () => Promise<void>;

/** What the gateway does to the next order placement: answer 504 without passing it on, or pass it on only once `heldUntil` resolves. */
let nextPlacement: 'pass' | 'lose_request' | 'hold_request' = 'pass';
let heldUntil: Promise<void> = Promise.resolve();
/** When the last order placement reached the gateway: it was sent before. */
let placementSeenAt = 0;
/**
 * Set while the test waits for a lookup of the first send made once its request can no longer arrive, bounded by
 * `earliest` and `latest` (what its settle time can be). Lookups that might be either side of it are failed, and
 * the first one after a failure answered past `latest` is held at the gateway and handed to `decisive`.
 */
let awaiting: { earliest: number; latest: number; failedPastLatest: boolean; decisive?: () => void } | undefined;
/** Lookups of one order the gateway has seen. */
let lookupsSeen = 0;

beforeAll(async () => {
  venue = await LocalVenue.start();
  gateway = await openHttpGateway(venue.port);
  gateway.rule = ({ method, path }) => {
    if (method === 'POST' && path === '/api/v1/orders') {
      placementSeenAt = Date.now();
      const what = nextPlacement;
      nextPlacement = 'pass';
      if (what === 'lose_request') return { instead: GATEWAY_TIMEOUT };
      if (what === 'hold_request') return { late: GATEWAY_TIMEOUT, until: heldUntil };
      return 'pass';
    }
    if (method !== 'GET' || path !== '/api/v1/order/archived') return 'pass';
    lookupsSeen++;
    const now = Date.now();
    if (awaiting === undefined || awaiting.decisive !== undefined || now < awaiting.earliest) return 'pass';
    // Lookups are made one after another: one that comes after an answer given past `latest` was asked past it.
    if (!awaiting.failedPastLatest) {
      awaiting.failedPastLatest = now > awaiting.latest;
      return { instead: GATEWAY_TIMEOUT };
    }
    const held = awaiting;
    return { held: new Promise<void>((resolve) => (held.decisive = resolve)) };
  };
  ({ desk, close: closeDesk } = await deskOnDevelopment(venue, {
    label: 'resend-while-looked-up',
    address: { baseUrl: gateway.baseUrl, wsUrl: venue.wsUrl },
    session: { rest: { timeoutMs: TIMEOUT_MS, settleMs: SETTLE_MS, maxRetries: 0 }, placementLookupMs: 50 },
  }));
  services = deskServices(desk);
});

afterAll(async () => {
  await closeDesk();
  await gateway.close();
  await venue.dispose();
});

async function placeRefused(clientOrderId: string): Promise<string> {
  const result = await dispatch(services, 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: clientOrderId, override_checks: true });
  if (result.ok) throw new Error('the placement was answered');
  return result.error.message;
}

describe('an order sent again while the lookup of its first send is running', () => {
  it.each([
    ['in the same letters', 'resent-in-doubt', 'resent-in-doubt'],
    ['in other letters (client order ids are case-insensitive)', 'resent-other-letters', 'RESENT-other-letters'],
  ])('%s: the first send\'s lookup does not answer for the second, whose own lookup reports it placed', async (_, firstId, secondId) => {
    const sameId = new RegExp(firstId, 'i');
    // The first send never reaches the venue. Its lookup's deciding round (after its request could have arrived) is
    // held at the gateway, on its way to the venue, while the trader sends the order again.
    const sentFrom = Date.now();
    nextPlacement = 'lose_request';
    awaiting = { earliest: Number.MAX_SAFE_INTEGER, latest: Number.MAX_SAFE_INTEGER, failedPastLatest: false };
    expect(await placeRefused(firstId)).toMatch(/^E0802_OrderOutcomeUnknown: /);
    awaiting.earliest = sentFrom + TIMEOUT_MS + SETTLE_MS;
    awaiting.latest = placementSeenAt + TIMEOUT_MS + SETTLE_MS;
    const deciding = awaiting;
    const releaseLookup = await eventually(() => deciding.decisive, 'a lookup of the first send past its settle time');
    awaiting = undefined;

    let letThrough = (): void => undefined;
    heldUntil = new Promise<void>((resolve) => (letThrough = resolve));
    try {
      // The second send: answered 504 while the gateway still holds it on its way to the venue.
      nextPlacement = 'hold_request';
      expect(await placeRefused(secondId)).toMatch(/^E0802_OrderOutcomeUnknown: the order MAY have been placed/);

      // The first send's lookup finds no order (the second has not arrived): nothing to say of the second.
      releaseLookup();
      const answered = lookupsSeen;
      const notPlaced = new RegExp(`${firstId}, whose outcome was unknown, was not placed`, 'i');
      await eventually(() => (lookupsSeen >= answered + 2 || notPlaced.test(desk.status().detail) ? true : undefined), 'the second send looked up after the first\'s lookup');
      expect((desk.status().notPlaced ?? []).filter((id) => sameId.test(id))).toEqual([]);
      expect(desk.status().detail).not.toMatch(notPlaced);

      // The second send arrives: its own lookup finds it.
      letThrough();
      const detail = await eventually(() => (new RegExp(`${secondId},`).test(desk.status().detail) ? desk.status().detail : undefined), 'the second send to be reported');
      expect(detail).toMatch(new RegExp(`the order ${secondId}, whose outcome was unknown, was placed: order \\S+, (ACTIVE|SUBMITTED)`));
      expect((desk.status().notPlaced ?? []).filter((id) => sameId.test(id))).toEqual([]);
    } finally {
      letThrough();
      const placed = await eventually(async () => (await venue.client(venue.admin).listActiveOrders({ client_order_id: firstId }))[0], 'the second send to reach the venue');
      await venue.client(venue.admin).cancelOrder({ order_id: placed.order_id });
    }
  });
});
