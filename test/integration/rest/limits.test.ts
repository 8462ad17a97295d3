// The venue's limits (contract: --request-rate, --order-rate, --max-open-orders; interface 7.3 and 8). Rate
// limits are HTTP 429 with E0501 or E0503 and a Retry-After header; a refused order changes nothing. Each limit
// gets a venue of its own. The floods below are sent at once, far above the limit, so some are refused however
// slow the machine is.
import { describe, expect, it } from 'vitest';
import { TestSocket } from '../ws/ws-client';
import { BTC, expectError, expectOk, getAccount, limit, nanosFromNow, placeOrder, px, useVenue, type Reply } from '../harness';

function expectRetryAfter(reply: Reply): void {
  expect(reply.headers.get('retry-after') ?? '').toMatch(/^[1-9]\d*$/);
}

function flood(count: number, send: () => Promise<Reply>): Promise<Reply[]> {
  return Promise.all(Array.from({ length: count }, send));
}

describe('the request rate limit', () => {
  const venue = useVenue({ requestRate: 5 });

  it('refuses a key over its budget with 429 E0501 and Retry-After, other keys unaffected', async () => {
    const v = venue();
    const t = await v.newTrader({});
    const replies = await flood(60, () => v.call('GET', `/accounts/${t.userId}`, { key: t.creds }));
    const refused = replies.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(replies.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(5);
    for (const r of refused) {
      expectError(r, 429, 'E0501_RateLimitExceeded');
      expectRetryAfter(r);
    }
    expect((await v.call('GET', `/accounts/${v.admin.userId}`, { key: v.admin.creds })).status).toBe(200);
    // Public endpoints carry no key and no key's budget.
    expect((await v.call('GET', `/products/${BTC}/orderbook`)).status).toBe(200);
  });

  it('bounds a flood of invalid orders, which the order budget no longer does', async () => {
    const v = venue();
    const t = await v.newTrader({});
    const replies = await flood(60, () => v.call('POST', '/api/v1/orders', { key: t.creds, body: { side: 'X' } }));
    const refused = replies.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expectError(r, 429, 'E0501_RateLimitExceeded');
  });
});

describe('the order rate limit', () => {
  const venue = useVenue({ orderRate: 3 });

  it('refuses orders over the budget with 429 E0503 and Retry-After, and refused orders are not placed', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const replies = await flood(30, () => v.call('POST', '/api/v1/orders', { key: t.creds, body: limit('BUY', px(-100), '0.001', { wait: true }) }));
    const accepted = replies.filter((r) => r.status === 200).length;
    const refused = replies.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(accepted + refused.length).toBe(30);
    for (const r of refused) {
      expectError(r, 429, 'E0503_OrderRateLimitExceeded');
      expectRetryAfter(r);
    }
    const stats = (await getAccount(v, t)).stats.order_stats;
    expect(stats.total_orders).toBe(String(accepted));
    // Reads are not orders.
    expect((await v.call('GET', '/api/v1/orders/active', { key: t.creds })).status).toBe(200);
  });

  // docs/api.md: every order *placed* takes from the order budget. An invalid one took from it too, so a client's
  // malformed orders (a bug, a bad batch) left it unable to place a valid one for a second. Its request still
  // counts against the request budget (the request rate limit's flood above).
  it('an invalid order takes nothing from it, over REST or the WebSocket', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const invalid = await flood(10, () => v.call('POST', '/api/v1/orders', { key: t.creds, body: limit('BUY', px(-100), '-1') }));
    for (const r of invalid) expectError(r, 400, 'E0101_InvalidArgument');
    expect((await v.call('POST', '/api/v1/orders', { key: t.creds, body: limit('BUY', px(-100), '0.001') })).status).toBe(200);

    const socket = await TestSocket.open(v.running.wsUrl);
    try {
      expect(await socket.auth(t.creds.key, t.creds.secret)).toMatchObject({ type: 'authenticated' });
      const from = socket.mark();
      for (let i = 0; i < 10; i++) socket.send({ op: 'create_order', request_id: `bad-${i}`, data: { type: 'limit', side: 'buy', product_id: BTC, price: px(-100), size: '-1' } });
      for (let i = 0; i < 10; i++) {
        const refusal = await socket.next((f) => f['request_id'] === `bad-${i}`, 5_000, from);
        expect(refusal, JSON.stringify(refusal)).toMatchObject({ type: 'error', code: 400 });
      }
      socket.send({ op: 'create_order', request_id: 'good', data: { type: 'limit', side: 'buy', product_id: BTC, price: px(-100), size: '0.001', client_order_id: 'after-invalid' } });
      const answer = await socket.next((f) => f['request_id'] === 'good' || (f['channel'] === 'orders' && JSON.stringify(f).includes('after-invalid')), 5_000, from);
      expect(answer['type'], JSON.stringify(answer)).not.toBe('error');
    } finally {
      socket.terminate();
    }
    await v.cancelEverything();
  });
});

// The same for an order the venue refuses after the parse, as the exchange finds it cannot be placed (a stop its
// trigger already met, a client order id an open order holds): no order is created, and docs/api.md has such
// refusals take from the request budget only. They took an order token each, so a client retrying with the same
// client order id (as after a lost answer) was soon refused its next, valid order 429 E0503.
describe('an order refused before it is placed', () => {
  const venue = useVenue({ orderRate: 3 });

  it.each([
    ['E0213 (a stop its trigger already met)', 400, 'E0213_InvalidStopPrice'],
    ['E0303 (a client order id an open order holds)', 409, 'E0303_DuplicateClientOrderId'],
  ])('%s takes nothing from the order budget', async (_what, status, ref) => {
    const v = venue();
    // Other keys lay the last trade at px() and the open order holding the client order id: their budgets are their own.
    const seller = await v.newTrader({ BTC: '1' });
    const buyer = await v.newTrader({ VND: '1000000000' });
    await placeOrder(v, seller, limit('SELL', px(), '0.001'));
    expect((await placeOrder(v, buyer, limit('BUY', px(), '0.001'))).status).toBe('DONE');
    const t = await v.newTrader({ VND: '1000000000' });
    await placeOrder(v, t, limit('BUY', px(-100), '0.001', { client_order_id: 'held' }));
    const refused =
      ref === 'E0213_InvalidStopPrice'
        ? { product_id: BTC, side: 'SELL', type: 'STOP', order_stop_type: 'STOP_LOSS', stop_trigger_price: px(10), limit_price: '0', base_size: '0.001' }
        : limit('BUY', px(-101), '0.001', { client_order_id: 'held' });
    const replies = await flood(10, () => v.call('POST', '/api/v1/orders', { key: t.creds, body: refused }));
    for (const r of replies) expectError(r, status, ref);
    expect((await v.call('POST', '/api/v1/orders', { key: t.creds, body: limit('BUY', px(-100), '0.001') })).status).toBe(200);
    await v.cancelEverything();
  });

  it('an order the exchange refuses takes nothing from it over the WebSocket either (E0303)', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    await placeOrder(v, t, limit('BUY', px(-100), '0.001', { client_order_id: 'held-ws' }));
    const socket = await TestSocket.open(v.running.wsUrl);
    try {
      expect(await socket.auth(t.creds.key, t.creds.secret)).toMatchObject({ type: 'authenticated' });
      const from = socket.mark();
      const order = (id: string, clientOrderId: string) => ({ op: 'create_order', request_id: id, data: { type: 'limit', side: 'buy', product_id: BTC, price: px(-101), size: '0.001', client_order_id: clientOrderId } });
      for (let i = 0; i < 10; i++) socket.send(order(`dup-${i}`, 'held-ws'));
      for (let i = 0; i < 10; i++) {
        const refusal = await socket.next((f) => f['request_id'] === `dup-${i}`, 5_000, from);
        expect(refusal, JSON.stringify(refusal)).toMatchObject({ type: 'error', code: 409, message: expect.stringContaining('E0303') as unknown });
      }
      socket.send(order('good', 'after-refusals'));
      const answer = await socket.next((f) => f['request_id'] === 'good', 5_000, from);
      expect(answer['type'], JSON.stringify(answer)).not.toBe('error');
    } finally {
      socket.terminate();
    }
    await v.cancelEverything();
  });
});

describe('the open-order limit', () => {
  const venue = useVenue({ maxOpenOrders: 3 });

  it('refuses an order beyond the limit with E0210 until one is done; scheduled orders count, rejected ones do not', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    expect((await placeOrder(v, t, limit('SELL', px(), '0.01'))).reject_reason).toBe('E0201_InsufficientBalance');
    const first = await placeOrder(v, t, limit('BUY', px(-100), '0.001'));
    await placeOrder(v, t, limit('BUY', px(-101), '0.001'));
    await placeOrder(v, t, limit('BUY', px(-102), '0.001', { scheduled_at: nanosFromNow(600_000) }));

    const over = await v.call('POST', '/api/v1/orders', { key: t.creds, body: limit('BUY', px(-103), '0.001', { wait: true }) });
    expectError(over, 400, 'E0210_OrderLimitExceeded');
    expect((await getAccount(v, t)).stats.order_stats.total_orders).toBe('4');

    expectOk(await v.call('DELETE', '/api/v1/order/active', { key: t.creds, query: { order_id: first.order_id } }));
    expect((await placeOrder(v, t, limit('BUY', px(-103), '0.001'))).status).toBe('ACTIVE');

    // The limit is per account.
    const other = await v.newTrader({ VND: '1000' });
    expect((await placeOrder(v, other, limit('BUY', px(), '0.01'))).status).toBe('DONE');
  });
});
