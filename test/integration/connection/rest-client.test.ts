// VenueRestClient against the real local venue: every endpoint, the catalogue's explanation of a refusal, and
// no credential in anything a failure leaves behind.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, errorRecord } from '../../../src-shared/errors/catalogue';
import { VenueRestClient } from '../../../src-main/connection/rest-client';
import { VenueError, VenueUnreachableError, OutcomeUnknownError } from '../../../src-main/connection/venue-error';
import { BTC, LocalVenue, freePort, px, type Account } from './local-venue';
import { LoopbackGate } from './loopback-gate';

let venue: LocalVenue;
let alice: Account;
let bob: Account;
let rest: VenueRestClient;
let bobRest: VenueRestClient;

beforeAll(async () => {
  venue = await LocalVenue.start();
  alice = await venue.newAccount({ BTC: '5', ETH: '5', VND: '100000000000' });
  bob = await venue.newAccount({ BTC: '5', VND: '100000000000' });
  rest = venue.client(alice);
  bobRest = venue.client(bob);
});

afterAll(async () => {
  await venue.dispose();
});

async function refusal(call: Promise<unknown>): Promise<VenueError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof VenueError)) throw new Error(`expected a VenueError, got ${String(err)}`);
  return err;
}

describe('public market data', () => {
  it('lists the products and assets of the contract', async () => {
    const products = await rest.listProducts();
    expect(products.map((p) => p.id).sort()).toEqual(['BTC-VND', 'ETH-VND', 'SOL-VND']);
    expect(products.find((p) => p.id === BTC)).toMatchObject({ base_asset_id: 'BTC', quote_asset_id: 'VND', price_increment: '10000', status: 'online' });
    const assets = await rest.listAssets();
    expect(assets.map((a) => a.id).sort()).toEqual(['BTC', 'ETH', 'SOL', 'VND']);
    expect(assets.find((a) => a.id === 'VND')?.decimals).toBe(0);
  });

  it('reads the book and the trades a match leaves behind', async () => {
    await rest.placeOrder({ product_id: 'ETH-VND', side: 'SELL', limit_price: '90000000', base_size: '0.5', wait: true });
    let book = await rest.getOrderBook('ETH-VND', 5);
    expect(book.asks[0]).toEqual({ price: '90000000', size: '0.5', order_count: 1 });
    await bobRest.placeOrder({ product_id: 'ETH-VND', side: 'BUY', type: 'MARKET', base_size: '0.2', wait: true });
    book = await rest.getOrderBook('ETH-VND');
    expect(book.asks[0]).toEqual({ price: '90000000', size: '0.3', order_count: 1 });
    const trades = await rest.listTrades('ETH-VND', 10);
    expect(trades[0]).toMatchObject({ product_id: 'ETH-VND', price: '90000000', size: '0.2', side: 'BUY' });
  });

  it('reads the error catalogue, whole and filtered', async () => {
    const all = await rest.listErrorCodes();
    expect(all.map((e) => e.ref).sort()).toEqual(ERROR_CATALOGUE.map((e) => e.ref).sort());
    const limits = await rest.listErrorCodes({ category: 'rate_limit' });
    expect(limits.map((e) => e.ref).sort()).toEqual(['E0501_RateLimitExceeded', 'E0503_OrderRateLimitExceeded']);
    const one = await rest.listErrorCodes({ ref: 'E0101_InvalidArgument' });
    expect(one).toEqual([errorRecord('E0101_InvalidArgument')]);
  });

  it('explains an unknown product with the catalogue', async () => {
    const err = await refusal(rest.getOrderBook('DOGE-VND'));
    expect(err).toMatchObject({ ref: 'E0104_InvalidSymbol', code: 'E0104', httpStatus: 404 });
    expect(err.title).toBe(errorRecord('E0104_InvalidSymbol').title);
  });
});

describe('orders', () => {
  it('places an order with a generated client_order_id and finds it every way', async () => {
    const order = await rest.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-100), base_size: '0.01', wait: true });
    expect(order).toMatchObject({ status: 'ACTIVE', product_id: BTC, side: 'BUY', limit_price: px(-100), base_size: '0.01', user_id: alice.userId });
    expect(order.client_order_id).toMatch(/^desk-[0-9a-f]{24}$/);

    expect((await rest.listActiveOrders()).map((o) => o.order_id)).toContain(order.order_id);
    expect((await rest.listActiveOrders({ product_id: BTC, client_order_id: order.client_order_id })).map((o) => o.order_id)).toEqual([order.order_id]);
    expect((await rest.getOrder(order.order_id)).order_id).toBe(order.order_id);
    expect((await rest.getOrder(order.client_order_id)).order_id).toBe(order.order_id);

    const cancelled = await rest.cancelOrder({ order_id: order.order_id });
    expect(cancelled).toMatchObject({ order_id: order.order_id, status: 'DONE', done_reason: 'CANCELED' });
    expect(cancelled.cancel_requested_at).not.toBe('0');
  });

  it('answers SUBMITTED without wait, and cancels by client_order_id', async () => {
    const order = await rest.placeOrder({ product_id: BTC, side: 'SELL', limit_price: px(200), base_size: '0.01', client_order_id: 'alice:sell-1' });
    expect(order).toMatchObject({ status: 'SUBMITTED', client_order_id: 'alice:sell-1' });
    const cancelled = await rest.cancelOrder({ client_order_id: 'ALICE:SELL-1' });
    expect(cancelled).toMatchObject({ order_id: order.order_id, status: 'DONE', done_reason: 'CANCELED' });
    const again = await refusal(rest.cancelOrder({ order_id: order.order_id }));
    expect(again.ref).toMatch(/^E030[12]_/);
  });

  it('cancels in bulk by order ids, client order ids and products, and cancels all', async () => {
    const place = (coid: string, product = BTC) =>
      rest.placeOrder({ product_id: product, side: 'BUY', limit_price: product === BTC ? px(-300) : '80000000', base_size: '0.01', client_order_id: coid, wait: true });
    const [a, b, c, d, e] = await Promise.all([place('bulk-a'), place('bulk-b'), place('bulk-c'), place('bulk-d', 'ETH-VND'), place('bulk-e')]);

    const byIds = await rest.cancelOrders({ order_ids: [a.order_id, '00000000-0000-4000-8000-000000000000'] });
    expect(byIds.cancel_requested_orders).toEqual([{ id: a.order_id, client_order_id: 'bulk-a' }]);
    expect(byIds.not_opened_orders.map((o) => o.id)).toEqual(['00000000-0000-4000-8000-000000000000']);

    const byClientIds = await rest.cancelOrders({ client_order_ids: ['bulk-b', 'bulk-a'] });
    expect(byClientIds.cancel_requested_orders.map((o) => o.id)).toEqual([b.order_id]);
    expect(byClientIds.already_cancel_requested_orders.map((o) => o.id)).toEqual([a.order_id]);

    const byProduct = await rest.cancelOrders({ product_ids: ['ETH-VND'] });
    expect(byProduct.cancel_requested_orders.map((o) => o.id)).toContain(d.order_id);

    const all = await rest.cancelAllOrders(BTC);
    expect(all.cancel_requested_orders.map((o) => o.order_id).sort()).toEqual([c.order_id, e.order_id].sort());
    expect(await rest.listActiveOrders({ product_id: BTC })).toEqual([]);
    expect((await rest.cancelAllOrders()).cancel_requested_orders).toEqual([]);
  });

  it('reads the order history with every filter', async () => {
    const history = await rest.listOrderHistory({ sort: '-updated_at', limit: 1000 });
    expect(history.length).toBeGreaterThan(5);
    const updated = history.map((o) => BigInt(o.updated_at));
    expect(updated).toEqual([...updated].sort((x, y) => (x < y ? 1 : x > y ? -1 : 0)));

    const done = await rest.listOrderHistory({ status: 'DONE', product_ids: [BTC], limit: 2, sort: 'created_at' });
    expect(done).toHaveLength(2);
    for (const o of done) expect(o).toMatchObject({ status: 'DONE', product_id: BTC });

    const named = await rest.listOrderHistory({ client_order_id: 'BULK-C' });
    expect(named.map((o) => o.client_order_id)).toEqual(['bulk-c']);

    const first = history[history.length - 1]!;
    const window = await rest.listOrderHistory({ start_time: first.created_at, end_time: first.created_at });
    expect(window.map((o) => o.order_id)).toEqual([first.order_id]);
  });

  it('explains a bad order with the catalogue: E0101_InvalidArgument', async () => {
    const err = await refusal(rest.placeOrder({ product_id: BTC, side: 'BUY', limit_price: '2500000001', base_size: '0.01' }));
    const record = errorRecord('E0101_InvalidArgument');
    expect(err).toMatchObject({
      kind: 'venue',
      ref: 'E0101_InvalidArgument',
      code: 'E0101',
      title: record.title,
      explanation: record.message,
      action: record.action,
      retryAllowed: record.retry_allowed,
      httpStatus: 400,
    });
    expect(err.description).toMatch(/^limit_price: /);
    expect(err.message).toBe(`E0101_InvalidArgument: ${err.description}`);
  });

  it('shows an engine rejection as the DONE order the contract answers with', async () => {
    const poor = await venue.newAccount({ VND: '100000' });
    const order = await venue.client(poor).placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(), base_size: '1', wait: true });
    expect(order).toMatchObject({ status: 'DONE', done_reason: 'REJECTED', reject_reason: 'E0201_InsufficientBalance' });
  });
});

describe('account and keys', () => {
  it('reads its own account and is refused another', async () => {
    const account = await rest.getAccount(alice.userId);
    expect(account.id).toBe(alice.userId);
    expect(account.asset_balances.map((b) => b.asset).sort()).toEqual(['BTC', 'ETH', 'SOL', 'VND']);
    expect(Number(account.stats.order_stats.total_orders)).toBeGreaterThan(0);
    const err = await refusal(rest.getAccount(bob.userId));
    expect(err).toMatchObject({ ref: 'E0003_PermissionDenied', httpStatus: 403 });
  });

  it('creates a read-only key that can read and cannot trade', async () => {
    const key = await rest.createApiKey({ name: 'watcher', read_only: true });
    expect(key).toMatchObject({ name: 'watcher', is_read_only: true, expired_at: '0' });
    const watcher = venue.client({ userId: alice.userId, credentials: { apiKey: key.api_key, apiSecret: key.api_secret! } });
    expect((await watcher.getAccount(alice.userId)).id).toBe(alice.userId);
    const err = await refusal(watcher.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(), base_size: '0.01' }));
    expect(err).toMatchObject({ ref: 'E0004_InsufficientScope', httpStatus: 403, action: errorRecord('E0004_InsufficientScope').action });
  });

  it('sends a wrong secret to login again', async () => {
    const err = await refusal(venue.client({ userId: alice.userId, credentials: { ...alice.credentials, apiSecret: 'wrong' } }).listActiveOrders());
    expect(err).toMatchObject({ ref: 'E0001_AuthRequired', httpStatus: 401, action: 'redirect_login', retryAllowed: false });
  });
});

describe('simulation endpoints', () => {
  it('creates funded users, deposits, and resets', async () => {
    const admin = venue.client(venue.admin);
    const user = await admin.createSimUser({ SOL: '3' });
    expect(user.api_key.api_secret).toEqual(expect.any(String));
    const deposited = await admin.simDeposit({ user_id: user.user_id, asset: 'SOL', amount: '2' });
    expect(deposited.asset_balances.find((b) => b.asset === 'SOL')?.balance).toBe('5');
    await rest.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-500), base_size: '0.01', wait: true });
    await admin.simReset();
    expect(await rest.listActiveOrders()).toEqual([]);
    const after = await venue.client({ userId: user.user_id, credentials: { apiKey: user.api_key.api_key, apiSecret: user.api_key.api_secret! } }).getAccount(user.user_id);
    expect(after.asset_balances.find((b) => b.asset === 'SOL')?.balance).toBe('3');
    const err = await refusal(rest.createSimUser({}));
    expect(err.ref).toBe('E0003_PermissionDenied');
  });
});

describe('failures on the network', () => {
  it('tells an unreachable venue (nothing sent) from a lost answer', async () => {
    const nowhere = new VenueRestClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, credentials: alice.credentials, maxRetries: 1, retryBackoff: { initialMs: 10, maxMs: 20 } });
    const err = await nowhere.listActiveOrders().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VenueUnreachableError);
    expect((err as VenueUnreachableError).systemCode).toBe('ECONNREFUSED');
  });
});

describe('secrets', () => {
  it('never puts a key or secret into an error, its printout or the client', async () => {
    const creds = alice.credentials;
    const failures: unknown[] = [];
    const collect = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => failures.push(e));
    const wrongSecret = venue.client({ userId: alice.userId, credentials: { apiKey: creds.apiKey, apiSecret: `${creds.apiSecret}x` } });
    await collect(wrongSecret.listActiveOrders());
    await collect(rest.placeOrder({ product_id: BTC, side: 'BUY', limit_price: '1', base_size: '0.01' }));
    await collect(rest.getAccount(bob.userId));
    await collect(rest.cancelOrder({ order_id: '00000000-0000-4000-8000-000000000000' }));
    await collect(rest.getOrderBook('NOPE-VND'));
    const unreachable = new VenueRestClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, credentials: creds, maxRetries: 0 });
    await collect(unreachable.placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(), base_size: '0.01' }));
    // A timeout: the answer never comes back.
    const gate = await LoopbackGate.open(venue.port);
    gate.hold();
    const impatient = new VenueRestClient({ baseUrl: gate.baseUrl, credentials: creds, timeoutMs: 100, maxRetries: 0 });
    await collect(impatient.listActiveOrders());
    await gate.close();

    expect(failures.map((f) => (f as Error).name)).toEqual([
      'VenueError',
      'VenueError',
      'VenueError',
      'VenueError',
      'VenueError',
      'VenueUnreachableError',
      'OutcomeUnknownError',
    ]);
    expect(failures[6]).toBeInstanceOf(OutcomeUnknownError);
    const printed = [
      ...failures.flatMap((f) => [String(f), JSON.stringify(f), (f as Error).stack ?? '', inspect(f, { depth: 10, showHidden: true })]),
      JSON.stringify(rest),
      inspect(rest, { depth: 10, showHidden: true }),
    ].join('\n');
    expect(printed).not.toContain(creds.apiSecret);
    expect(printed).not.toContain(creds.apiKey);
  });
});
