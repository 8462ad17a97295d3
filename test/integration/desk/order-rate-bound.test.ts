// An order goes out within the rate bound of the trader's click (2 s by default) or not at all. The reads the
// desk makes for its pre-trade checks spend the same rate limits: one refused with a Retry-After longer than the
// bound must not hold the order back for that long and then send it. The gateway in front of the real venue
// refuses the check's read of the tape once, for longer than this desk's bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { deskServices } from '../../../src-main/desk/services';
import { BTC, LocalVenue, px } from '../connection/local-venue';
import { openHttpGateway, type HttpGateway } from './http-gateway';
import { deskOnDevelopment } from './open-desk';

let venue: LocalVenue;
let gateway: HttpGateway;
let desk: Desk;
let closeDesk: () => Promise<void>;
let refuseTape = false;

beforeAll(async () => {
  venue = await LocalVenue.start();
  gateway = await openHttpGateway(venue.port);
  gateway.rule = ({ method, path }) => {
    if (!(refuseTape && method === 'GET' && path === `/products/${BTC}/trades`)) return 'pass';
    refuseTape = false;
    return {
      instead: {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '3' },
        body: JSON.stringify({ error: { code: 'RESOURCE_EXHAUSTED', message: 'E0501_RateLimitExceeded: too many requests' } }),
      },
    };
  };
  ({ desk, close: closeDesk } = await deskOnDevelopment(venue, {
    label: 'order-rate-bound',
    address: { baseUrl: gateway.baseUrl, wsUrl: venue.wsUrl },
    session: { rest: { timeoutMs: 5_000, orderRateWaitMs: 500 } },
  }));
});

afterAll(async () => {
  await closeDesk();
  await gateway.close();
  await venue.dispose();
});

describe('an order whose pre-trade read is held back by a rate limit', () => {
  it('is refused as not sent, rather than sent once the Retry-After has passed', async () => {
    desk.updateSettings({ preTrade: { maxDeviationPercent: '10' } });
    refuseTape = true;
    const result = await dispatch(deskServices(desk), 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: 'rate-bound-1' });
    expect(result).toMatchObject({ ok: false, error: { ref: 'E0501_RateLimitExceeded', message: expect.stringMatching(/^E0501_RateLimitExceeded: the order was not sent: a read for its checks is held back by the venue's rate limit/) } });
    expect(await venue.client(venue.admin).listOrderHistory({ client_order_id: 'rate-bound-1' })).toEqual([]);
  });
});
