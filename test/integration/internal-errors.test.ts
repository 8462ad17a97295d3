// E0901_InternalError over real sockets: interface 7.4's WebSocket code 500 and docs/api.md's REST 500. Nothing a
// client sends makes a healthy venue fail, so each test breaks one exchange method of the running venue for its
// own duration (fault injection: the venue, its servers and its store are the real ones). A throw inside a
// command is not a failed commit: the venue commits what the command changed and goes on serving, whereas a
// failed write halts it (docs/api.md, E0901), which these tests must not trigger.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BTC, activeOrders, archivedOrders, balanceOf, expectError, expectOrderRecord, getAccount, nanosFromNow, orderReaches, placeOrder, px, useVenue, type TestVenue, type Trader } from './harness';
import { TestSocket, type Frame } from './ws/ws-client';

const venue = useVenue({ cleanBooks: true });

const opened: TestSocket[] = [];
afterEach(() => {
  // A fault left in place would fail every later test for the wrong reason.
  vi.restoreAllMocks();
  for (const socket of opened.splice(0)) {
    expect(socket.invalid, 'frames the schemas refuse').toEqual([]);
    socket.terminate();
  }
});

/** A venue bug, as the code under the API would raise one: a plain Error, not an ApiError. */
function breakMethod(v: TestVenue, method: 'place' | 'cancel'): void {
  vi.spyOn(v.running.venue.exchange, method).mockImplementation(() => {
    throw new Error(`injected fault in exchange.${method}`);
  });
}

async function trading(v: TestVenue): Promise<{ trader: Trader; socket: TestSocket }> {
  const trader = await v.newTrader({ BTC: '1', VND: '100000000000' });
  const socket = await TestSocket.open(v.running.wsUrl);
  opened.push(socket);
  // Each test has its own trader, so no other session of the key signs in this second (replay).
  const answer = await socket.auth(trader.creds.key, trader.creds.secret);
  expect(answer, JSON.stringify(answer)).toMatchObject({ channel: 'auth', type: 'authenticated' });
  return { trader, socket };
}

/** The orders-channel error interface 6 describes, with 7.4's 500 and the documented `<ref>: <description>`. */
function expectInternalErrorEvent(frame: Frame, requestId: string, data: unknown): void {
  const what = JSON.stringify(frame);
  expect(Object.keys(frame).sort(), what).toEqual(['channel', 'code', 'data', 'message', 'request_id', 'type']);
  expect(frame, what).toMatchObject({ channel: 'orders', type: 'error', code: 500, request_id: requestId });
  expect(frame['data'], 'the request data echoed').toEqual(data);
  expect(frame['message'], what).toMatch(/^E0901_InternalError: .+/);
}

const bid = (clientOrderId: string): Frame => ({ type: 'limit', side: 'buy', product_id: BTC, price: px(-500), size: '0.001', client_order_id: clientOrderId });

describe('a create_order the venue fails to carry out', () => {
  it('is a 500 error event echoing the request, and the same connection trades once the fault is gone', async () => {
    const v = venue();
    const { trader, socket } = await trading(v);
    await socket.request({ op: 'sub', channel: 'orders' });

    breakMethod(v, 'place');
    const data = bid('faulted');
    const refused = await socket.request({ op: 'create_order', data }, (f) => f['type'] === 'error' || f['type'] === 'update');
    expectInternalErrorEvent(refused, refused['request_id'] as string, data);
    // Still open and still authenticated: a venue failure is not the client's.
    await socket.barrier();
    expect(socket.closeCode).toBeUndefined();
    vi.restoreAllMocks();

    const from = socket.mark();
    const placed = await socket.request({ op: 'create_order', data: bid('after-fault') }, (f) => f['type'] === 'error' || f['type'] === 'update');
    expect(placed['type'], JSON.stringify(placed)).toBe('update');
    await socket.next((f) => f['type'] === 'update' && (f['data'] as Frame[]).some((o) => o['client_order_id'] === 'after-fault' && o['status'] === 'open'), 5_000, from);
    // The failed request left nothing behind: no order, and the client order id was never taken.
    const active = await v.call<{ orders: unknown[] }>('GET', '/api/v1/orders/active', { key: trader.creds });
    expect(active.body.orders.map((o) => expectOrderRecord(o).client_order_id)).toEqual(['after-fault']);
  });

  it('over REST is HTTP 500 with the error object, and the venue keeps serving', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000000' });
    const body = { product_id: BTC, side: 'BUY', limit_price: px(-500), base_size: '0.001', client_order_id: 'rest-faulted' };

    breakMethod(v, 'place');
    const failed = await v.call('POST', '/api/v1/orders', { key: trader.creds, body });
    expectError(failed, 500, 'E0901_InternalError', 'Internal');
    vi.restoreAllMocks();

    // The same request again, as retry_allowed says a client may.
    const retried = await v.call<{ order: unknown }>('POST', '/api/v1/orders', { key: trader.creds, body: { ...body, wait: true } });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(expectOrderRecord(retried.body.order)).toMatchObject({ status: 'ACTIVE', client_order_id: 'rest-faulted' });
  });

  it('after the order was made ends it DONE E0901 rather than leave it SUBMITTED, holding funds and its client order id', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000000' });
    const body = { product_id: BTC, side: 'BUY', limit_price: px(-500), base_size: '0.001', client_order_id: 'half-made' };
    // Past the order's creation: the hold is where a fault leaves a made order behind.
    const exchange = v.running.venue.exchange as unknown as { reserve: () => boolean };
    vi.spyOn(exchange, 'reserve').mockImplementation(() => {
      throw new Error('injected fault in exchange.reserve');
    });
    expectError(await v.call('POST', '/api/v1/orders', { key: trader.creds, body }), 500, 'E0901_InternalError', 'Internal');
    vi.restoreAllMocks();

    expect(await activeOrders(v, trader)).toEqual([]);
    const [ended] = await archivedOrders(v, trader);
    expect(ended).toMatchObject({ status: 'DONE', done_reason: 'REJECTED', reject_reason: 'E0901_InternalError', client_order_id: 'half-made' });
    expect(balanceOf(await getAccount(v, trader), 'VND')).toEqual({ balance: 100_000_000_000n, free: 100_000_000_000n, locked: 0n });
    const retried = await v.call<{ order: unknown }>('POST', '/api/v1/orders', { key: trader.creds, body: { ...body, wait: true } });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
  });

  it('is the catalogue’s E0901 record: HTTP 500, Internal, retry allowed', async () => {
    const reply = await venue().call<{ data: { errors: Record<string, unknown>[] } }>('GET', '/v1/error-codes', { query: { ref: 'E0901_InternalError' } });
    expect(reply.status).toBe(200);
    expect(reply.body.data.errors).toEqual([expect.objectContaining({ ref: 'E0901_InternalError', http_status: 500, grpc_code: 'Internal', retry_allowed: true })]);
  });
});

describe('a cancel the venue fails to carry out', () => {
  it('is a 500 error event on the WebSocket and HTTP 500 over REST; the order stays and cancels once the fault is gone', async () => {
    const v = venue();
    const { trader, socket } = await trading(v);
    const order = await v.call<{ order: unknown }>('POST', '/api/v1/orders', {
      key: trader.creds,
      body: { product_id: BTC, side: 'BUY', limit_price: px(-500), base_size: '0.001', wait: true },
    });
    const { order_id: orderId } = expectOrderRecord(order.body.order);

    breakMethod(v, 'cancel');
    const data = { order_id: orderId };
    const refused = await socket.request({ op: 'cancel_order', data }, (f) => f['type'] === 'error' || f['type'] === 'update');
    expectInternalErrorEvent(refused, refused['request_id'] as string, data);
    expectError(await v.call('DELETE', '/api/v1/order/active', { key: trader.creds, query: { order_id: orderId } }), 500, 'E0901_InternalError', 'Internal');
    await socket.barrier();
    vi.restoreAllMocks();

    const active = await v.call<{ orders: unknown[] }>('GET', '/api/v1/orders/active', { key: trader.creds });
    expect(active.body.orders.map((o) => expectOrderRecord(o).order_id)).toEqual([orderId]);
    const cancelled = await socket.request({ op: 'cancel_order', data }, (f) => f['type'] === 'error' || f['type'] === 'update');
    expect(cancelled['type'], JSON.stringify(cancelled)).toBe('update');
    expect(cancelled['data']).toEqual([expect.objectContaining({ id: orderId, status: 'cancelled' })]);
  });
});

describe('a fault in the clock’s work on one order', () => {
  it('ends that order DONE E0901 and lets the others due in the same tick go on', async () => {
    const v = venue();
    const trader = await v.newTrader({ VND: '100000000000' });
    const at = nanosFromNow(1_500);
    const faulted = await placeOrder(v, trader, { product_id: BTC, side: 'BUY', limit_price: px(-500), base_size: '0.001', scheduled_at: at });
    const healthy = await placeOrder(v, trader, { product_id: BTC, side: 'BUY', limit_price: px(-501), base_size: '0.001', scheduled_at: at });
    const exchange = v.running.venue.exchange as unknown as { start: (order: { row: { orderId: string } }) => void };
    const start = exchange.start.bind(exchange);
    vi.spyOn(exchange, 'start').mockImplementation((order) => {
      if (order.row.orderId === faulted.order_id) throw new Error('injected fault in exchange.start');
      start(order);
    });
    expect(await orderReaches(v, trader, healthy.order_id, 'ACTIVE')).toMatchObject({ status: 'ACTIVE' });
    expect(await orderReaches(v, trader, faulted.order_id, 'DONE')).toMatchObject({ done_reason: 'REJECTED', reject_reason: 'E0901_InternalError' });
    vi.restoreAllMocks();
    // The faulted order holds nothing: with the healthy one cancelled, nothing is locked.
    expect((await v.call('DELETE', '/api/v1/order/active', { key: trader.creds, query: { order_id: healthy.order_id } })).status).toBe(200);
    expect(balanceOf(await getAccount(v, trader), 'VND').locked).toBe(0n);
  });
});
