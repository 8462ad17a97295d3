// A venue that no longer has an order the desk holds as working (a venue restored from an older backup, a
// database that lost a row): the reconnect's reconcile reads it by id and is told 404 E0301. That order is given
// up on, said so, and the reconcile goes on; it used to fail the whole reconcile, retried for ever, so the session
// never became live again (no account, no backfill, the panels marked stale for good). Here the venue's answers
// about that one order are replaced by a real gateway in front of the real venue; the socket runs through a relay
// the test cuts to make the reconnect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueSession } from '../../../src-main/connection/venue-session';
import type { HttpGateway } from '../desk/http-gateway';
import { BTC, px, type Account, type LocalVenue } from './local-venue';
import { LoopbackGate } from './loopback-gate';
import { venueBehindGateway } from './venue-behind-gateway';

let venue: LocalVenue;
let trader: Account;
let gateway: HttpGateway;
let socketGate: LoopbackGate;
venueBehindGateway((made) => ({ venue, trader, gateway } = made));

beforeAll(async () => {
  socketGate = await LoopbackGate.open(venue.port);
});

afterAll(async () => {
  await socketGate.close();
});

describe('an order the venue no longer has', () => {
  it('does not keep the session from becoming live again', async () => {
    const session = new VenueSession({
      baseUrl: gateway.baseUrl,
      wsUrl: socketGate.wsUrl,
      credentials: trader.credentials,
      userId: trader.userId,
      rest: { timeoutMs: 2_000, maxRetries: 0 },
      socket: { reconnect: { initialMs: 20, maxMs: 50 } },
    });
    try {
      await session.start();
      const lost = await session.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-800), base_size: '0.01', wait: true });
      expect(lost.status).toBe('ACTIVE');
      const ordersWithout = JSON.stringify({ orders: [] });
      gateway.rule = ({ method, path }) => {
        if (method !== 'GET') return 'pass';
        if (path === '/api/v1/orders/active' || path === '/api/v1/orders/archived') return { after: { status: 200, headers: { 'content-type': 'application/json' }, body: ordersWithout } };
        if (path === '/api/v1/order/archived') return { after: { status: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 'NOT_FOUND', message: 'E0301_OrderNotFound: no such order' } }) } };
        return 'pass';
      };
      const failures: string[] = [];
      // The first of: live again, or the reconcile failing a second time on the same order.
      const outcome = new Promise<string>((resolve) => {
        session.onDidFail((err) => {
          failures.push(err.message);
          if (failures.filter((m) => m.includes('E0301')).length >= 2) resolve(`reconcile failed again: ${err.message}`);
        });
        session.onDidReconcile(() => resolve('live'));
      });
      socketGate.cut();
      expect(await outcome).toBe('live');
      expect(session.syncState).toBe('live');
      expect(failures.some((m) => m.includes(lost.order_id))).toBe(true);
    } finally {
      gateway.rule = () => 'pass';
      session.dispose();
    }
  });
});
