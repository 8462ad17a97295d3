// Reads and cancels answered while a commit is in flight, or after a change so large the tables take a while to
// hold it: each answer shows what is durable and matches the query that chose it, and a wait for the tables
// stalls no other client. The venue's own REST app is driven in-process where a read must land mid-commit.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import { buildHttpApi } from '../../../src-main/venue/api/http-api';
import { RateLimiter } from '../../../src-main/venue/api/rate-limit';
import { BTC, activeOrders, archivedOrders, limit, placeOrder, px, useVenue, type WireOrder } from '../harness';

// Each test starts from empty books: a resting order another test left would take the trades these make.
const venue = useVenue({ cleanBooks: true });

describe('a history read while a change is still being committed', () => {
  it('shows each order as the tables hold it, so the status it was chosen by is the status it shows', async () => {
    const v = venue();
    const [owner, other] = [await v.newTrader({ BTC: '10', VND: '100000000000' }), await v.newTrader({ BTC: '10', VND: '100000000000' })];
    for (let i = 0; i < 10; i++) {
      // Once triggered they rest: their limit is above the market.
      await placeOrder(v, owner, { product_id: BTC, type: 'STOP', side: 'SELL', order_stop_type: 'STOP_LOSS', stop_trigger_price: px(-5), limit_price: px(50), base_size: '0.001' });
    }
    await placeOrder(v, owner, limit('BUY', px(-10), '0.001'));
    // The other trader's sell into that bid is the trade that triggers them, and the read handled before that turn's commit: the same venue's REST app,
    // driven in-process, so the read runs while the stops are ACTIVE in memory and SCHEDULED in the tables.
    const { venue: running } = v.running;
    const app = buildHttpApi(running, { orderLimit: new RateLimiter(0), requestLimit: new RateLimiter(0) });
    const parsed = parseCreateOrder({ product_id: BTC, type: 'MARKET', side: 'SELL', limit_price: '0', base_size: '0.001', time_in_force: 'IOC' }, { now: running.now() });
    if (parsed instanceof ApiError) throw parsed;
    const trading = running.run(() => running.exchange.place(other.userId, parsed));
    const reading = app.inject({ method: 'GET', url: '/api/v1/orders/archived?status=SCHEDULED&limit=1000', headers: { 'nova-key': owner.creds.key, 'nova-secret': owner.creds.secret } });
    const [reply] = await Promise.all([reading, trading]);
    const listed = reply.json<{ orders: { status: string }[] }>().orders;
    expect(listed.map((o) => o.status)).toEqual(Array.from({ length: listed.length }, () => 'SCHEDULED'));
    expect((await activeOrders(v, owner)).filter((o) => o.status === 'ACTIVE')).toHaveLength(10);
    await app.close();
  });
});

describe('a read of what the venue holds in memory', () => {
  it('is answered only once the changes it shows are durable: active orders, the account, the book, the tape', async () => {
    const v = venue();
    const [owner, other] = [await v.newTrader({ BTC: '10', VND: '100000000000' }), await v.newTrader({ BTC: '10', VND: '100000000000' })];
    await placeOrder(v, owner, limit('BUY', px(-10), '0.002'));
    const { venue: running } = v.running;
    const app = buildHttpApi(running, { orderLimit: new RateLimiter(0), requestLimit: new RateLimiter(0) });
    const headers = { 'nova-key': owner.creds.key, 'nova-secret': owner.creds.secret };
    const parsed = parseCreateOrder({ product_id: BTC, type: 'MARKET', side: 'SELL', limit_price: '0', base_size: '0.001', time_in_force: 'IOC' }, { now: running.now() });
    if (parsed instanceof ApiError) throw parsed;
    // A trade whose commit is in flight, and the reads handled in the meantime, in-process.
    const events: string[] = [];
    const trading = running.run(() => running.exchange.place(other.userId, parsed)).then(() => events.push('durable'));
    const reads = ['/api/v1/orders/active', `/accounts/${owner.userId}`, `/products/${BTC}/orderbook`, `/products/${BTC}/trades`].map((url) =>
      app.inject({ method: 'GET', url, headers }).then((reply) => {
        expect(reply.statusCode, reply.body).toBe(200);
        events.push(url);
      }),
    );
    await Promise.all([trading, ...reads]);
    expect(events[0]).toBe('durable');
    await app.close();
  });
});

describe('a cancel answered while a fill of the order is being committed', () => {
  it('shows the fill with its trade, as the order stands, not as the tables still hold it', async () => {
    const v = venue();
    const [owner, other] = [await v.newTrader({ BTC: '10', VND: '100000000000' }), await v.newTrader({ BTC: '10', VND: '100000000000' })];
    const resting = await placeOrder(v, owner, limit('BUY', px(-10), '0.002'));
    const { venue: running } = v.running;
    const app = buildHttpApi(running, { orderLimit: new RateLimiter(0), requestLimit: new RateLimiter(0) });
    const parsed = parseCreateOrder({ product_id: BTC, type: 'MARKET', side: 'SELL', limit_price: '0', base_size: '0.001', time_in_force: 'IOC' }, { now: running.now() });
    if (parsed instanceof ApiError) throw parsed;
    const trading = running.run(() => running.exchange.place(other.userId, parsed));
    const cancelling = app.inject({ method: 'DELETE', url: `/api/v1/order/active?order_id=${resting.order_id}`, headers: { 'nova-key': owner.creds.key, 'nova-secret': owner.creds.secret } });
    const [reply] = await Promise.all([cancelling, trading]);
    const { order } = reply.json<{ order: WireOrder }>();
    expect(order).toMatchObject({ status: 'DONE', filled_base_size: '0.001' });
    expect(order.trades).toHaveLength(1);
    await app.close();
  });
});

describe('a history read after a large change', () => {
  it('waits for the tables without stalling other clients: a read sent after it is answered first', async () => {
    const v = venue();
    // 20 traders with as many open orders as the venue lets one account have.
    const traders = await Promise.all(Array.from({ length: 20 }, () => v.newTrader({ VND: '100000000000' })));
    const [trader] = traders;
    if (trader === undefined) throw new Error('no trader');
    const { venue: running } = v.running;
    await running.run(() => {
      for (const t of traders) {
        for (let i = 0; i < 1_000; i++) {
          const parsed = parseCreateOrder({ product_id: BTC, side: 'BUY', limit_price: px(-100 - (i % 50)), base_size: '0.001' }, { now: running.now() });
          if (parsed instanceof ApiError) throw parsed;
          running.exchange.place(t.userId, parsed);
        }
      }
    });
    await running.run(() => traders.forEach((t) => running.exchange.cancelAll(t.userId, undefined)));
    // The history read waits for 20,000 cancelled rows to reach the tables; the products read needs none of them.
    const answered: string[] = [];
    const history = archivedOrders(v, trader, { limit: '10' }).then(() => answered.push('history'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const products = v.call('GET', '/products').then(() => answered.push('products'));
    await Promise.all([history, products]);
    expect(answered).toEqual(['products', 'history']);
  });
});

