// A placement whose answer was lost is carried by its OutcomeUnknownError as it was sent (client_order_id, product,
// side, the time before it went, the orders it can never be), and the REST client's one lookup takes that to find
// it later: the session's lookups and placeOrder's own are the same code on the same clock.
import { describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../../../src-main/connection/venue-error';
import { GATEWAY_TIMEOUT, type HttpGateway } from '../desk/http-gateway';
import { BTC, px, type Account, type LocalVenue } from './local-venue';
import { venueBehindGateway } from './venue-behind-gateway';

const BAD_GATEWAY = { status: 502, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' };

let venue: LocalVenue;
let trader: Account;
let gateway: HttpGateway;
venueBehindGateway((made) => ({ venue, trader, gateway } = made));

describe('a placement whose answer and first lookup were lost', () => {
  it('carries what was sent, and is found later by lookUpPlacement with it', async () => {
    const client = venue.client(trader, { baseUrl: gateway.baseUrl, maxRetries: 0, settleMs: 20 });
    // Passed on to the venue (placed), its answer replaced by the gateway's; the lookup right after is refused too.
    let lookups = 0;
    gateway.rule = ({ method, path }) => {
      if (method === 'POST' && path === '/api/v1/orders') return { after: GATEWAY_TIMEOUT };
      if (method === 'GET' && path === '/api/v1/order/archived' && lookups++ === 0) return { instead: BAD_GATEWAY };
      return 'pass';
    };
    const before = BigInt(Date.now()) * 1_000_000n;
    const lost = await client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-300), base_size: '0.01', client_order_id: 'lost-then-found' }, {}, new Set(['an-older-order'])).then(
      (order) => order,
      (err: unknown) => err,
    );
    const after = BigInt(Date.now()) * 1_000_000n;
    gateway.rule = () => 'pass';

    expect(lost).toBeInstanceOf(OutcomeUnknownError);
    const { placement, clientOrderId } = lost as OutcomeUnknownError;
    expect(clientOrderId).toBe('lost-then-found');
    expect(placement).toMatchObject({ clientOrderId: 'lost-then-found', productId: BTC, side: 'BUY', lookup: 'failed' });
    expect(placement!.sentAfterNs >= before && placement!.sentAfterNs <= after).toBe(true);
    expect([...placement!.earlierOrderIds]).toEqual(['an-older-order']);
    expect(placement!.settlesBy).toBeGreaterThan(Number(placement!.sentAfterNs / 1_000_000n));

    const found = await client.lookUpPlacement(placement!);
    expect(found).toMatchObject({ client_order_id: 'lost-then-found', product_id: BTC, side: 'BUY', status: 'ACTIVE' });
    // The same id on the other side, or an order the caller already held under it, is not this placement's.
    expect(await client.lookUpPlacement({ ...placement!, side: 'SELL' })).toBeUndefined();
    expect(await client.lookUpPlacement({ ...placement!, earlierOrderIds: new Set([found!.order_id]) })).toBeUndefined();
    expect(await client.lookUpPlacement({ ...placement!, clientOrderId: 'never-sent' })).toBeUndefined();
    await client.cancelOrder({ order_id: found!.order_id });
  });
});
