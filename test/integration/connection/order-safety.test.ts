// An order whose answer is lost is looked up by its client_order_id and never sent again, so it is never
// placed twice. The loss is real: a loopback relay between the client and the venue swallows the
// venue's answer (the order was placed) or the request itself (it was not).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VenueRestClient, type PlacementRecovery, type RequestAttempt } from '../../../src-main/connection/rest-client';
import { OutcomeUnknownError } from '../../../src-main/connection/venue-error';
import { BTC, LocalVenue, px, type Account } from './local-venue';
import { LoopbackGate } from './loopback-gate';

let venue: LocalVenue;
let gate: LoopbackGate;
let trader: Account;
let maker: Account;

beforeAll(async () => {
  venue = await LocalVenue.start();
  gate = await LoopbackGate.open(venue.port);
  trader = await venue.newAccount();
  maker = await venue.newAccount();
});

afterEach(() => {
  gate.release();
});

afterAll(async () => {
  await gate.close();
  await venue.dispose();
});

function watch(client: VenueRestClient): { attempts: RequestAttempt[]; recoveries: PlacementRecovery[] } {
  const attempts: RequestAttempt[] = [];
  const recoveries: PlacementRecovery[] = [];
  client.onDidAttempt((a) => attempts.push(a));
  client.onDidRecoverPlacement((r) => recoveries.push(r));
  return { attempts, recoveries };
}

/** A client through the relay that gives up on an answer quickly. */
function impatientClient(): VenueRestClient {
  return new VenueRestClient({
    baseUrl: gate.baseUrl,
    credentials: trader.credentials,
    timeoutMs: 300,
    settleMs: 50,
    maxRetries: 2,
    retryBackoff: { initialMs: 10, maxMs: 50 },
  });
}

/** Restore the relay as soon as the client reports the lost answer, so its lookup gets through. */
function releaseOnFirstLoss(client: VenueRestClient): void {
  const sub = client.onDidAttempt((a) => {
    if (a.outcome !== 'outcome_unknown') return;
    sub.dispose();
    gate.release();
  });
}

async function ordersNamed(clientOrderId: string) {
  return venue.client(trader).listOrderHistory({ client_order_id: clientOrderId, limit: 1000 });
}

describe('placing an order when the answer is lost', () => {
  it('finds the order the venue placed and does not send it again', async () => {
    await venue.client(maker).placeOrder({ product_id: BTC, side: 'SELL', limit_price: px(), base_size: '0.05', wait: true });
    const client = impatientClient();
    const { attempts, recoveries } = watch(client);
    releaseOnFirstLoss(client);
    gate.mute();

    // A fully filled order frees its client_order_id at once: a blind resend would be a second order.
    const order = await client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(), base_size: '0.05', time_in_force: 'IOC', wait: true });

    expect(order).toMatchObject({ status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.05' });
    expect(recoveries).toEqual([{ clientOrderId: order.client_order_id, reason: 'timeout', found: order }]);
    expect(attempts.filter((a) => a.operation === 'POST /api/v1/orders')).toHaveLength(1);
    expect((await ordersNamed(order.client_order_id)).map((o) => o.order_id)).toEqual([order.order_id]);
  });

  it('does not send it again when the venue never saw it: a request still on its way could trade a second time', async () => {
    await venue.client(maker).placeOrder({ product_id: BTC, side: 'SELL', limit_price: px(), base_size: '0.05', wait: true });
    const client = impatientClient();
    const { attempts, recoveries } = watch(client);
    releaseOnFirstLoss(client);
    gate.hold();

    const err = await client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(), base_size: '0.05', time_in_force: 'IOC', client_order_id: 'lost-1', wait: true }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err).toMatchObject({ clientOrderId: 'lost-1', operation: 'POST /api/v1/orders', reason: 'timeout' });
    expect(recoveries).toEqual([{ clientOrderId: 'lost-1', reason: 'timeout', found: undefined }]);
    expect(attempts.filter((a) => a.operation === 'POST /api/v1/orders').map((a) => a.outcome)).toEqual(['outcome_unknown']);
    expect(await ordersNamed('lost-1')).toEqual([]);
  });

  it('hands the client_order_id back, and sends nothing more, when even the lookup is not answered', async () => {
    const client = impatientClient();
    const { attempts } = watch(client);
    gate.hold();

    const err = await client.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-50), base_size: '0.01', client_order_id: 'lost-2' }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err).toMatchObject({ clientOrderId: 'lost-2', operation: 'POST /api/v1/orders' });
    expect(attempts.filter((a) => a.operation === 'POST /api/v1/orders')).toHaveLength(1);
    gate.release();
    expect(await ordersNamed('lost-2')).toEqual([]);
  });
});
