// Orders through the desk while the link to the venue fails: every call answers, once, and says what happened to
// the order: sent and done, not sent, or sent with its outcome unknown. The desk trades on Development, a real
// venue behind a loopback relay that the tests break.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { deskServices, type DeskServices } from '../../../src-main/desk/services';
import { BTC, LocalVenue, px } from '../connection/local-venue';
import { LoopbackGate } from '../connection/loopback-gate';
import { eventually } from '../eventually';
import { deskOnDevelopment } from './open-desk';

let venue: LocalVenue;
let gate: LoopbackGate;
let desk: Desk;
let closeDesk: () => Promise<void>;
let services: DeskServices;

beforeAll(async () => {
  venue = await LocalVenue.start();
  gate = await LoopbackGate.open(venue.port);
  ({ desk, close: closeDesk } = await deskOnDevelopment(venue, {
    label: 'order-flow',
    address: gate,
    session: {
      rest: { timeoutMs: 400, settleMs: 50, maxRetries: 1, retryBackoff: { initialMs: 10, maxMs: 50 } },
      socket: { heartbeatIntervalMs: 300, heartbeatTimeoutMs: 300, requestTimeoutMs: 400, reconnect: { initialMs: 50, maxMs: 200 } },
    },
  }));
  services = deskServices(desk);
});

afterEach(() => {
  gate.release();
  gate.unblock();
});

afterAll(async () => {
  await closeDesk();
  await gate.close();
  await venue.dispose();
});

describe('an order while the venue does not answer', () => {
  it('is said not to have been sent when the pre-trade check could not read the market, not that the venue may have acted', async () => {
    desk.updateSettings({ preTrade: { maxDeviationPercent: '10' } });
    gate.mute();
    const result = await dispatch(services, 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: 'flow-unsent-1' });
    gate.release();

    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.message).toMatch(/^E0902_ServiceUnavailable: .*not sent/);
      expect(result.error.message).not.toMatch(/may or may not have acted/);
    }
    expect(await venue.client(venue.admin).listOrderHistory({ client_order_id: 'flow-unsent-1' })).toEqual([]);
  });

  it('is said to be of unknown outcome when its own answer is lost, and the blotter shows it once the link is back', async () => {
    desk.updateSettings({ preTrade: { maxDeviationPercent: '' } });
    const orders: string[] = [];
    const sub = desk.events.onDidEmit((e) => {
      if (e.name === 'orders.changed') orders.push(...e.payload.map((o) => `${o.client_order_id}:${o.status}`));
    });
    try {
      await desk.whenLive();
      await desk.listProducts();
      gate.mute();
      const result = await dispatch(services, 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-401), base_size: '0.001', client_order_id: 'flow-lost-1' });
      expect(result).toMatchObject({ ok: false, error: { ref: 'E0802_OrderOutcomeUnknown', message: expect.stringMatching(/MAY have been placed.*POST \/api\/v1\/orders: .*may or may not have acted.*Do not send it again/) } });
      gate.release();
      await eventually(() => (orders.includes('flow-lost-1:ACTIVE') ? true : undefined), 'the order the venue took, in the blotter');

      gate.mute();
      const cancelled = await dispatch(services, 'orders.cancelAll', { environment: 'development', product_id: BTC });
      expect(cancelled).toMatchObject({ ok: false, error: { message: expect.stringMatching(/may or may not have acted/) } });
      gate.release();
      await eventually(() => (orders.includes('flow-lost-1:DONE') ? true : undefined), 'the cancel the venue did, in the blotter');
      expect(await venue.client(venue.admin).listActiveOrders({ product_id: BTC })).toEqual([]);
    } finally {
      sub.dispose();
    }
  });
});
