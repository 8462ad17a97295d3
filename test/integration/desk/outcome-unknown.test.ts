// An order sent whose answer is lost (here a gateway's 504, as Development and Production sit behind one) may be
// live at the venue. The trader is told it MAY have been placed and not to send it again, and the desk looks it
// up until the venue answers, saying what it found: placed (it is among the orders) or not placed, which it says
// only once the request can no longer reach the venue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { deskServices, type DeskServices } from '../../../src-main/desk/services';
import { BTC, LocalVenue, px } from '../connection/local-venue';
import { LoopbackGate } from '../connection/loopback-gate';
import { GATEWAY_TIMEOUT, openHttpGateway, type HttpGateway } from './http-gateway';
import { deskOnDevelopment, eventually } from './open-desk';

let venue: LocalVenue;
let gateway: HttpGateway;
let desk: Desk;
let services: DeskServices;
let closeDesk: () => Promise<void>;

/**
 * What the gateway does to the next order placement: answer 504 without passing it on, pass it on and answer 504,
 * or answer 504 and pass it on only once `heldUntil` resolves.
 */
let nextPlacement: 'pass' | 'lose_request' | 'lose_answer' | 'hold_request' | 'garble_answer' | 'fault_answer' = 'pass';
let heldUntil: Promise<void> = Promise.resolve();
/** Lookups of one order (GET /api/v1/order/archived) the gateway answers 504 without passing on. */
let lookupsToFail = 0;
/** Lookups of one order the gateway has seen. */
let lookupsSeen = 0;

beforeAll(async () => {
  venue = await LocalVenue.start();
  gateway = await openHttpGateway(venue.port);
  gateway.rule = ({ method, path }) => {
    if (method === 'POST' && path === '/api/v1/orders' && nextPlacement !== 'pass') {
      const what = nextPlacement;
      nextPlacement = 'pass';
      if (what === 'hold_request') return { late: GATEWAY_TIMEOUT, until: heldUntil };
      if (what === 'fault_answer') return { after: { status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"E0901_InternalError: a fault after the order was taken"}' } };
      if (what === 'garble_answer') return { after: { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Please sign in to the network</body></html>' } };
      return what === 'lose_request' ? { instead: GATEWAY_TIMEOUT } : { after: GATEWAY_TIMEOUT };
    }
    if (method === 'GET' && path === '/api/v1/order/archived') lookupsSeen++;
    if (method === 'GET' && path === '/api/v1/order/archived' && lookupsToFail > 0) {
      lookupsToFail--;
      return { instead: GATEWAY_TIMEOUT };
    }
    return 'pass';
  };
  ({ desk, close: closeDesk } = await deskOnDevelopment(venue, {
    label: 'outcome-unknown',
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

async function placeRefused(clientOrderId: string): Promise<string> {
  const result = await dispatch(services, 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: clientOrderId, override_checks: true });
  if (result.ok) throw new Error('the placement was answered');
  return result.error.message;
}

describe('an order placement whose answer a gateway lost', () => {
  it('is said to MAY have been placed, and once looked up again, not placed when the venue never had it', async () => {
    nextPlacement = 'lose_request';
    const said = await placeRefused('unknown-never-placed');
    expect(said).toMatch(/^E0802_OrderOutcomeUnknown: the order MAY have been placed: it was sent and its answer was lost \(POST \/api\/v1\/orders: a gateway answered in the venue's place; /);
    expect(said).toMatch(/Development held no order under its client order id when asked/);
    expect(said).toMatch(/looking it up by its client order id unknown-never-placed.*Do not send it again until then/);
    const detail = await eventually(() => (/unknown-never-placed/.test(desk.status().detail) ? desk.status().detail : undefined), 'the lookup to be reported');
    expect(detail).toMatch(/the order unknown-never-placed, whose outcome was unknown, was not placed: Development holds no order from it under that client order id/);
    // Said by its client order id too, for the window that sent it to follow (the ticket's Last order line).
    expect(desk.status().notPlaced).toContain('unknown-never-placed');
    expect((await desk.activeOrders(BTC)).some((o) => o.client_order_id === 'unknown-never-placed')).toBe(false);
  });

  it('sent again under the client order id found not placed, is no longer said not placed while the new send is in doubt', async () => {
    // The first send never reached the venue, and the lookup says so, inviting the trader to send it again.
    nextPlacement = 'lose_request';
    await placeRefused('unknown-sent-again');
    await eventually(() => (desk.status().notPlaced?.includes('unknown-sent-again') === true ? true : undefined), 'the first send to be reported not placed');
    // The second, under the same id (in other letters: client order ids are case-insensitive), is answered 504
    // while the gateway still holds it on its way to the venue: what the status said of the first is not of it.
    let letThrough = (): void => undefined;
    heldUntil = new Promise<void>((resolve) => (letThrough = resolve));
    try {
      nextPlacement = 'hold_request';
      expect(await placeRefused('UNKNOWN-sent-again')).toMatch(/^E0802_OrderOutcomeUnknown: the order MAY have been placed/);
      expect((desk.status().notPlaced ?? []).filter((id) => /sent-again/i.test(id))).toEqual([]);
      expect(desk.status().detail).not.toMatch(/sent-again, whose outcome was unknown, was not placed/i);
      letThrough();
      const detail = await eventually(() => (/UNKNOWN-sent-again,/.test(desk.status().detail) ? desk.status().detail : undefined), 'the second send to be reported');
      expect(detail).toMatch(/the order UNKNOWN-sent-again, whose outcome was unknown, was placed: order \S+, (ACTIVE|SUBMITTED)/);
      expect((desk.status().notPlaced ?? []).filter((id) => /sent-again/i.test(id))).toEqual([]);
    } finally {
      letThrough();
      const placed = await eventually(async () => (await venue.client(venue.admin).listActiveOrders({ client_order_id: 'unknown-sent-again' }))[0], 'the second send to reach the venue');
      await venue.client(venue.admin).cancelOrder({ order_id: placed.order_id });
    }
  });

  it('is looked up, and answered placed, when a success came back in a body that is not an order', async () => {
    nextPlacement = 'garble_answer';
    const result = await dispatch(services, 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: 'unreadable-placed', override_checks: true });
    expect(result).toMatchObject({ ok: true, value: { status: 'placed', order: { client_order_id: 'unreadable-placed' } } });
    const placed = (await desk.activeOrders(BTC)).filter((o) => o.client_order_id === 'unreadable-placed');
    expect(placed).toHaveLength(1);
    await desk.cancelOrder({ environment: 'development', order_id: placed[0]?.order_id ?? '' });
  });

  it('is looked up, and answered placed, when the venue answered E0901 after taking it', async () => {
    nextPlacement = 'fault_answer';
    const result = await dispatch(services, 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: 'fault-placed', override_checks: true });
    expect(result).toMatchObject({ ok: true, value: { status: 'placed', order: { client_order_id: 'fault-placed' } } });
    const placed = (await desk.activeOrders(BTC)).filter((o) => o.client_order_id === 'fault-placed');
    expect(placed).toHaveLength(1);
    await desk.cancelOrder({ environment: 'development', order_id: placed[0]?.order_id ?? '' });
  });

  it('is not taken for an older order that used the same client order id', async () => {
    // The older order: placed and cancelled, which frees its client order id for the next.
    const admin = venue.client(venue.admin);
    const older = await admin.placeOrder({ product_id: BTC, side: 'SELL', limit_price: px(400), base_size: '0.001', client_order_id: 'unknown-reused' });
    await admin.cancelOrder({ order_id: older.order_id });
    nextPlacement = 'lose_request';
    expect(await placeRefused('unknown-reused')).toMatch(/^E0802_OrderOutcomeUnknown: the order MAY have been placed/);
    const detail = await eventually(() => (/unknown-reused,/.test(desk.status().detail) ? desk.status().detail : undefined), 'the lookup to be reported');
    expect(detail).toMatch(/the order unknown-reused, whose outcome was unknown, was not placed/);
  });

  it('is looked up again after a failed lookup, and reported placed when the venue had it', async () => {
    nextPlacement = 'lose_answer';
    lookupsToFail = 1;
    const said = await placeRefused('unknown-placed');
    expect(said).toMatch(/the order MAY have been placed: .*looking it up failed too\. The desk is looking it up by its client order id unknown-placed/);
    const detail = await eventually(() => (/unknown-placed,/.test(desk.status().detail) ? desk.status().detail : undefined), 'the lookup to be reported');
    expect(detail).toMatch(/the order unknown-placed, whose outcome was unknown, was placed: order \S+, (ACTIVE|SUBMITTED)/);
    expect(desk.status().notPlaced ?? []).not.toContain('unknown-placed');
    const placed = (await desk.activeOrders(BTC)).filter((o) => o.client_order_id === 'unknown-placed');
    expect(placed).toHaveLength(1);
    await desk.cancelOrder({ environment: 'development', order_id: placed[0]?.order_id ?? '' });
  });
});

describe('an order placement whose answer a gateway gave up on while the request is still on its way', () => {
  it('is not said to be not placed before the request can no longer arrive, and is reported placed once it arrives', async () => {
    // Its own desk, whose requests may take a minute: the request the gateway holds could arrive until then.
    const { desk: patient, close } = await deskOnDevelopment(venue, {
      label: 'outcome-unknown-held',
      address: { baseUrl: gateway.baseUrl, wsUrl: venue.wsUrl },
      session: { rest: { timeoutMs: 60_000, settleMs: 50, maxRetries: 0 }, placementLookupMs: 50 },
    });
    let letThrough = (): void => undefined;
    heldUntil = new Promise<void>((resolve) => (letThrough = resolve));
    try {
      nextPlacement = 'hold_request';
      const result = await dispatch(deskServices(patient), 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: 'unknown-held', override_checks: true });
      expect(result).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^E0802_OrderOutcomeUnknown: the order MAY have been placed/) } });
      // The desk looks it up round after round, finding nothing, while the gateway still holds the request; it
      // must not conclude from that.
      const seen = lookupsSeen;
      const notPlaced = /unknown-held, whose outcome was unknown, was not placed/;
      await eventually(() => (lookupsSeen >= seen + 3 || notPlaced.test(patient.status().detail) ? true : undefined), 'three lookups while the request is held');
      expect(patient.status().detail).not.toMatch(notPlaced);
      letThrough();
      const detail = await eventually(() => (/unknown-held,/.test(patient.status().detail) ? patient.status().detail : undefined), 'the lookup to be reported');
      expect(detail).toMatch(/the order unknown-held, whose outcome was unknown, was placed: order \S+, (ACTIVE|SUBMITTED)/);
    } finally {
      letThrough();
      const held = await eventually(async () => (await venue.client(venue.admin).listActiveOrders({ client_order_id: 'unknown-held' }))[0], 'the held order to reach the venue');
      await venue.client(venue.admin).cancelOrder({ order_id: held.order_id });
      await close();
    }
  });
});

describe('an order placement whose answer was lost while the socket cannot reconnect', () => {
  it('is reported not placed in the status beside the socket\'s error', async () => {
    // REST through the gateway, the socket through a relay the test cuts and keeps shut.
    const socketGate = await LoopbackGate.open(venue.port);
    const { desk: cutOff, close } = await deskOnDevelopment(venue, {
      label: 'outcome-unknown-socket-down',
      address: { baseUrl: gateway.baseUrl, wsUrl: socketGate.wsUrl },
      session: { rest: { timeoutMs: 2_000, settleMs: 50, maxRetries: 0 }, placementLookupMs: 50, socket: { reconnect: { initialMs: 50, maxMs: 200 } } },
    });
    try {
      socketGate.block();
      socketGate.cut();
      await eventually(() => (cutOff.status().state === 'reconnecting' && cutOff.status().detail !== '' ? true : undefined), 'the socket to be reconnecting, with its error');
      nextPlacement = 'lose_request';
      const result = await dispatch(deskServices(cutOff), 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: 'unknown-socket-down', override_checks: true });
      expect(result).toMatchObject({ ok: false, error: { message: expect.stringMatching(/MAY have been placed/) } });
      const detail = await eventually(() => (/unknown-socket-down,/.test(cutOff.status().detail) ? cutOff.status().detail : undefined), 'the lookup to be reported');
      expect(detail).toMatch(/the order unknown-socket-down, whose outcome was unknown, was not placed/);
      expect(cutOff.status().state).toBe('reconnecting');
    } finally {
      await close();
      await socketGate.close();
    }
  });
});

describe('an order placement whose answer was lost, when the desk leaves the environment before it is found', () => {
  it('is said to be looked up no more, naming it and where to look', async () => {
    // A desk of its own, whose next lookup would come only after the switch.
    const { desk: leaving, close } = await deskOnDevelopment(venue, {
      label: 'outcome-unknown-leaving',
      address: { baseUrl: gateway.baseUrl, wsUrl: venue.wsUrl },
      session: { rest: { timeoutMs: 5_000, settleMs: 50, maxRetries: 0 }, placementLookupMs: 600_000 },
    });
    try {
      nextPlacement = 'lose_request';
      const result = await dispatch(deskServices(leaving), 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: 'unknown-left', override_checks: true });
      expect(result).toMatchObject({ ok: false, error: { message: expect.stringMatching(/MAY have been placed/) } });
      await leaving.switchEnvironment('local');
      expect(leaving.status().detail).toMatch(/the desk stopped looking up the order unknown-left on leaving its Development session, whose outcome is unknown: look for it among Development's orders before sending it again/);
    } finally {
      await close();
    }
  });
});
