// The desk's services against the real embedded venue (worker thread, simulator on) and the real keychain.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueRestClient } from '../../../src-main/connection/rest-client';
import { VenueError } from '../../../src-main/connection/venue-error';
import { dispatch } from '../../../src-main/desk/dispatch';
import { eventually, openTestDesk, type TestDesk } from './open-desk';

let t: TestDesk;

const call: TestDesk['call'] = (method, request) => t.call(method, request);

const refusal: TestDesk['refusal'] = (method, request) => t.refusal(method, request);

beforeAll(async () => {
  t = await openTestDesk();
  await t.desk.whenLive();
});

afterAll(async () => {
  await t.close();
});

describe('the desk on its embedded local venue', () => {
  it('starts on Local with the local user key in the keychain, without the trader doing anything', async () => {
    const environments = await call('environments.list', {});
    expect(environments.active).toBe('local');
    expect(environments.secretStorage.kind).toBe('keychain');
    const local = environments.environments.find((e) => e.id === 'local');
    expect(local?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(environments.environments.find((e) => e.id === 'production')).toMatchObject({ production: true, confirmOrders: true });

    const boot = await t.bootstrap();
    expect(await t.secrets.get(`local:${boot.api_key}`)).toBe(boot.api_secret);
    const status = await call('connection.status', {});
    expect(status).toMatchObject({ environment: 'local', production: false, state: 'live', apiKey: boot.api_key, userId: boot.user_id });
    const keys = await call('keys.list', {});
    expect(keys).toEqual([expect.objectContaining({ apiKey: boot.api_key, origin: 'bootstrap', active: true, storedIn: 'keychain' })]);
  });

  it('places, lists and cancels an order, and reads the account', async () => {
    const placed = await call('orders.place', { environment: 'local', product_id: 'BTC-VND', side: 'BUY', limit_price: '2400000000', base_size: '0.001', override_checks: true });
    if (placed.status !== 'placed') throw new Error('held');
    const active = await call('orders.active', { product_id: 'BTC-VND' });
    expect(active.map((o) => o.order_id)).toContain(placed.order.order_id);
    const cancelled = await call('orders.cancel', { environment: 'local', order_id: placed.order.order_id });
    expect(cancelled.status).toBe('DONE');
    const history = await call('orders.history', { status: 'DONE', limit: 10, sort: '-updated_at' });
    expect(history.map((o) => o.order_id)).toContain(placed.order.order_id);
    const account = await call('account.get', {});
    expect(account.id).toBe((await t.bootstrap()).user_id);
    expect(account.asset_balances.length).toBeGreaterThan(0);
  });

  it('fills a marketable order and lists the fill', async () => {
    const book = await call('market.watch', { product_id: 'BTC-VND' });
    const best = await eventually(async () => (await call('market.book', { product_id: 'BTC-VND' })).asks[0] ?? (book.asks[0] ?? undefined), 'an ask');
    // The simulator requotes while the order travels: a limit at the ask seen a moment ago may no longer cross
    // (an IOC that then fills nothing), so the limit sits 5% above it, on the 10,000 VND tick.
    const limit = (BigInt(Math.ceil((Number(best.price) * 1.05) / 10_000)) * 10_000n).toString();
    const placed = await call('orders.place', { environment: 'local', product_id: 'BTC-VND', side: 'BUY', limit_price: limit, base_size: '0.0001', time_in_force: 'IOC', override_checks: true });
    expect(placed.status).toBe('placed');
    const fills = await eventually(async () => {
      const answer = await call('orders.fills', { product_id: 'BTC-VND' });
      return answer.length > 0 ? answer : undefined;
    }, 'a fill');
    expect(fills[0]).toMatchObject({ productId: 'BTC-VND', side: 'BUY' });
  });

  it('names the session each read of the account was read on, which a window that has not heard of a switch compares', async () => {
    const boot = await t.bootstrap();
    const reads = {
      'orders.active': {},
      'orders.history': { limit: 10 },
      'orders.fills': { limit: 10 },
      'account.get': {},
    } as const;
    for (const [method, request] of Object.entries(reads)) {
      const answer = await dispatch(t.services, method, request);
      expect(answer, method).toMatchObject({ ok: true, session: { environment: 'local', apiKey: boot.api_key } });
    }
    // Only those: a market read or the status names no session of its own.
    expect(await dispatch(t.services, 'market.products', {})).not.toHaveProperty('session');
  });

  it('lists a fill that a thousand later orders which filled nothing would have pushed out of one history read', async () => {
    // The fill of the test before.
    const filled = await call('orders.fills', { limit: 1000 });
    expect(filled.length).toBeGreaterThan(0);
    const oldest = filled.at(-1);
    // A thousand and more IOC buys far under the market: each ends without a fill. One key may send 50 orders a
    // second, so they go out on keys of their own, 50 each.
    const boot = await t.bootstrap();
    const baseUrl = (await call('environments.list', {})).environments.find((e) => e.id === 'local')?.baseUrl ?? '';
    const post = async (key: { api_key: string; api_secret: string }, path: string, body: unknown) => {
      const reply = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'NOVA-KEY': key.api_key, 'NOVA-SECRET': key.api_secret }, body: JSON.stringify(body) });
      expect(reply.status, await reply.clone().text()).toBe(200);
      return (await reply.json()) as { api_key: { api_key: string; api_secret: string } };
    };
    const keys = await Promise.all(Array.from({ length: 21 }, async (_, i) => (await post(boot, '/api-keys', { name: `ioc-${i}` })).api_key));
    // One key at a time: a thousand sockets open at once in this process (the venue is a thread of it) push its
    // file descriptors past 1024, where the keychain's D-Bus client then crashes the process (see the notes).
    for (const key of keys) {
      await Promise.all(Array.from({ length: 50 }, () => post(key, '/api/v1/orders', { product_id: 'BTC-VND', side: 'BUY', limit_price: '1000000000', base_size: '0.0001', time_in_force: 'IOC' })));
    }
    const after = await call('orders.fills', { limit: 1000 });
    expect(after.map((f) => f.tradeId)).toContain(oldest?.tradeId);
  });

  it('answers a market read made during a switch once the switch has made its client, not "not connected"', async () => {
    for (let i = 0; i < 10; i++) {
      const switched = call('environments.switch', { id: 'local' });
      const [watched, trades] = await Promise.all([call('market.watch', { product_id: 'BTC-VND' }), call('market.trades', { product_id: 'BTC-VND', limit: 5 })]);
      expect(watched.productId).toBe('BTC-VND');
      expect(Array.isArray(trades)).toBe(true);
      await switched;
    }
  });

  it('holds an order far from the market or above the notional limit, and says why', async () => {
    await call('settings.update', { preTrade: { maxDeviationPercent: '5', maxNotional: '1000000' } });
    const held = await call('orders.place', { environment: 'local', product_id: 'BTC-VND', side: 'BUY', limit_price: '100000000', base_size: '1' });
    expect(held.status).toBe('held');
    if (held.status === 'held') expect(held.issues.map((i) => i.check).sort()).toEqual(['max_notional', 'price_deviation']);
    const settings = await call('settings.get', {});
    expect(settings.preTrade).toEqual({ maxDeviationPercent: '5', maxNotional: '1000000' });
    await call('settings.update', { preTrade: { maxDeviationPercent: '10', maxNotional: '' } });
  });

  it('bulk-cancels and cancels all', async () => {
    const ids: string[] = [];
    for (const price of ['2300000000', '2310000000']) {
      const placed = await call('orders.place', { environment: 'local', product_id: 'BTC-VND', side: 'BUY', limit_price: price, base_size: '0.001', override_checks: true });
      if (placed.status === 'placed') ids.push(placed.order.order_id);
    }
    const bulk = await call('orders.cancelBulk', { environment: 'local', order_ids: [ids[0] ?? ''] });
    expect(bulk.cancelRequested).toEqual([ids[0]]);
    const all = await call('orders.cancelAll', { environment: 'local', product_id: 'BTC-VND' });
    expect(all.cancelRequested).toBeGreaterThanOrEqual(1);
  });

  it('creates a key on the venue: the secret goes to the keychain and not into the answer', async () => {
    const created = await call('keys.create', { environment: 'local', name: 'reader', read_only: true });
    expect(JSON.stringify(created)).not.toMatch(/secret"\s*:/);
    expect(created.key).toMatchObject({ name: 'reader', readOnly: true, origin: 'created', storedIn: 'keychain', active: false });
    expect(created.note).toMatch(/keychain/);
    const secret = await t.secrets.get(`local:${created.key.apiKey}`);
    expect(secret).toBeDefined();
    expect(JSON.stringify(created)).not.toContain(secret);
    const file = readFileSync(join(t.dataDir, 'desk.json'), 'utf8');
    expect(file).toContain(created.key.apiKey);
    expect(file).not.toContain(secret);
    expect(file).not.toContain((await t.bootstrap()).api_secret);
  });

  it('refuses to switch to an environment without addresses, then switches once they are set', async () => {
    expect(await refusal('environments.switch', { id: 'development' })).toMatch(/^E0101_InvalidArgument: .*addresses/);
    const local = (await call('environments.list', {})).environments.find((e) => e.id === 'local');
    await call('environments.configure', { id: 'development', baseUrl: local?.baseUrl ?? '', wsUrl: local?.wsUrl ?? '' });
    const status = await call('environments.switch', { id: 'development' });
    expect(status).toMatchObject({ environment: 'development', state: 'no_key' });
    expect(await refusal('orders.active', {})).toMatch(/^E0001_AuthRequired: no API key for Development/);
    // Without a key the market still shows, from the public endpoints.
    const books: string[] = [];
    const sub = t.desk.events.onDidEmit((e) => {
      if (e.name === 'book.changed') books.push(e.payload.source);
    });
    expect((await call('market.watch', { product_id: 'SOL-VND' })).source).toBe('rest');
    await eventually(() => (books.includes('poll') ? true : undefined), 'a polled book');
    sub.dispose();
    await call('market.unwatch', { product_id: 'SOL-VND' });
    const back = await call('environments.switch', { id: 'local' });
    expect(back.environment).toBe('local');
    await t.desk.whenLive();
  });

  it('keeps a product watched while any window watches it: a pop-out’s unwatch leaves the main window its book', async () => {
    await t.desk.watch('ETH-VND', 'main');
    await t.desk.watch('ETH-VND', 'pop-out');
    expect((await t.desk.unwatch('ETH-VND', 'pop-out')).watching).toContain('ETH-VND');
    const books: string[] = [];
    const sub = t.desk.events.onDidEmit((e) => {
      if (e.name === 'book.changed' && e.payload.productId === 'ETH-VND') books.push(e.payload.source);
    });
    // The simulator moves the book: its changes still come, from the venue's WebSocket.
    await eventually(() => (books.includes('stream') ? true : undefined), 'an ETH-VND book change after the pop-out let go');
    sub.dispose();
    // The main window closing ends the last watch.
    t.desk.windowClosed('main');
    expect((await t.desk.unwatch('ETH-VND', 'none')).watching).not.toContain('ETH-VND');
  });

  it('keeps layouts and answers the error catalogue', async () => {
    await call('layouts.save', { name: 'Main', layout: { panels: [{ kind: 'ladder', product: 'BTC-VND' }] } });
    expect(await call('layouts.list', {})).toEqual(['Main']);
    expect(await call('layouts.load', { name: 'Main' })).toEqual({ panels: [{ kind: 'ladder', product: 'BTC-VND' }] });
    expect(await refusal('layouts.load', { name: 'Nope' })).toMatch(/^E0101_InvalidArgument/);
    expect(await call('layouts.delete', { name: 'Main' })).toEqual([]);
    const [record] = await call('errors.catalogue', { ref: 'E0201_InsufficientBalance' });
    expect(record?.title).toBeTruthy();
    expect(await refusal('errors.catalogue', { ref: 'E9999_Nope' })).toMatch(/^E0110_ValueOutOfRange/);
  });

  it('keeps its settings in the data folder', () => {
    expect(existsSync(join(t.dataDir, 'desk.json'))).toBe(true);
  });
});

describe('keys the trader brings', () => {
  it('learns the user id of an imported key from its orders, and refuses a key the venue does not know', async () => {
    const boot = await t.bootstrap();
    const admin = new VenueRestClient({ baseUrl: t.desk.venueStatus().baseUrl, credentials: { apiKey: boot.api_key, apiSecret: boot.api_secret } });
    const user = await admin.createSimUser({ BTC: '1', VND: '10000000000' });
    const secret = user.api_key.api_secret ?? '';
    // The new user trades once outside the desk, so an order shows whose key it is.
    const own = new VenueRestClient({ baseUrl: admin.baseUrl, credentials: { apiKey: user.api_key.api_key, apiSecret: secret } });
    await own.placeOrder({ product_id: 'BTC-VND', side: 'BUY', limit_price: '2000000000', base_size: '0.001' });
    own.dispose();
    admin.dispose();

    const imported = await call('keys.import', { api_key: user.api_key.api_key, api_secret: secret });
    expect(imported.key).toMatchObject({ userId: user.user_id, origin: 'imported', active: false, storedIn: 'keychain' });
    expect(JSON.stringify(imported)).not.toContain(secret);

    const wrong = await refusal('keys.import', { api_key: user.api_key.api_key, api_secret: `${secret}x` });
    expect(wrong).toMatch(/^E0001_AuthRequired: Local refused this key/);
    expect(wrong).not.toContain(secret);

    const status = await call('keys.use', { environment: 'local', api_key: user.api_key.api_key });
    expect(status.apiKey).toBe(user.api_key.api_key);
    await t.desk.whenLive();
    expect((await call('account.get', {})).id).toBe(user.user_id);
    const left = await call('keys.forget', { environment: 'local', api_key: user.api_key.api_key });
    expect(left.map((k) => k.apiKey)).not.toContain(user.api_key.api_key);
    expect(await t.secrets.get(`local:${user.api_key.api_key}`)).toBeUndefined();
    await call('keys.use', { environment: 'local', api_key: boot.api_key });
    await t.desk.whenLive();
  });

  it('says in its status that a background read failed, rather than nothing', async () => {
    const boot = await t.bootstrap();
    const admin = new VenueRestClient({ baseUrl: t.desk.venueStatus().baseUrl, credentials: { apiKey: boot.api_key, apiSecret: boot.api_secret } });
    const user = await admin.createSimUser({ BTC: '1', VND: '10000000000' });
    admin.dispose();
    // A key without orders shows the desk no user id, so one typed wrong is kept: the account read the session
    // makes after connecting is then refused, in the background, with nobody asking for it.
    await call('keys.import', { api_key: user.api_key.api_key, api_secret: user.api_key.api_secret ?? '', user_id: boot.user_id, use: true });
    await t.desk.whenLive();
    await eventually(() => (/a background read failed \(.+\)/.test(t.desk.status().detail) ? true : undefined), 'the failed account read in the status');
    await call('keys.forget', { environment: 'local', api_key: user.api_key.api_key });
    await call('keys.use', { environment: 'local', api_key: boot.api_key });
    await t.desk.whenLive();
    expect(t.desk.status().detail).toBe('');
  });

  it('revokes a key on the local venue, its own trading key, a read-only key and the key in use alike, and forgets each only once the venue refuses it', async () => {
    const boot = await t.bootstrap();
    const refusedByVenue = async (apiKey: string, apiSecret: string): Promise<string | undefined> => {
      const client = new VenueRestClient({ baseUrl: t.desk.venueStatus().baseUrl, credentials: { apiKey, apiSecret }, maxRetries: 0 });
      try {
        await client.listActiveOrders();
        return undefined;
      } catch (err) {
        return err instanceof VenueError ? err.ref : String(err);
      } finally {
        client.dispose();
      }
    };
    // Another user's trading key, imported: it revokes itself.
    const admin = new VenueRestClient({ baseUrl: t.desk.venueStatus().baseUrl, credentials: { apiKey: boot.api_key, apiSecret: boot.api_secret } });
    const other = await admin.createSimUser({ VND: '1000000' });
    admin.dispose();
    const otherSecret = other.api_key.api_secret ?? '';
    await call('keys.import', { api_key: other.api_key.api_key, api_secret: otherSecret, user_id: other.user_id });
    // The local user's own read-only key: revoked with the key in use.
    const reader = await call('keys.create', { environment: 'local', name: 'to revoke', read_only: true });
    const readerSecret = (await t.secrets.get(`local:${reader.key.apiKey}`)) ?? '';
    expect(await refusedByVenue(reader.key.apiKey, readerSecret)).toBeUndefined();

    for (const [apiKey, secret] of [[other.api_key.api_key, otherSecret], [reader.key.apiKey, readerSecret]] as const) {
      const left = await call('keys.revoke', { environment: 'local', api_key: apiKey });
      expect(left.map((k) => k.apiKey)).not.toContain(apiKey);
      expect(await t.secrets.get(`local:${apiKey}`)).toBeUndefined();
      expect(await refusedByVenue(apiKey, secret)).toBe('E0005_ApiKeyRevoked');
    }

    // The key in use: the desk goes back to the local user's key.
    const trader = await call('keys.create', { environment: 'local', name: 'in use, then revoked', use: true });
    await t.desk.whenLive();
    expect((await call('connection.status', {})).apiKey).toBe(trader.key.apiKey);
    const traderSecret = (await t.secrets.get(`local:${trader.key.apiKey}`)) ?? '';
    await call('keys.revoke', { environment: 'local', api_key: trader.key.apiKey });
    expect(await refusedByVenue(trader.key.apiKey, traderSecret)).toBe('E0005_ApiKeyRevoked');
    await t.desk.whenLive();
    expect((await call('connection.status', {})).apiKey).toBe(boot.api_key);

    // A read-only key imported (the desk does not know its scope) cannot revoke itself: the key in use does.
    const local = new VenueRestClient({ baseUrl: t.desk.venueStatus().baseUrl, credentials: { apiKey: boot.api_key, apiSecret: boot.api_secret } });
    const madeElsewhere = await local.createApiKey({ name: 'read-only, made outside the desk', read_only: true });
    local.dispose();
    await call('keys.import', { api_key: madeElsewhere.api_key, api_secret: madeElsewhere.api_secret ?? '', user_id: boot.user_id });
    await call('keys.revoke', { environment: 'local', api_key: madeElsewhere.api_key });
    expect(await refusedByVenue(madeElsewhere.api_key, madeElsewhere.api_secret ?? '')).toBe('E0005_ApiKeyRevoked');

    // Another user's read-only key: revoked with that user's trading key stored here, not with the key in use.
    const second = new VenueRestClient({ baseUrl: t.desk.venueStatus().baseUrl, credentials: { apiKey: boot.api_key, apiSecret: boot.api_secret } });
    const owner = await second.createSimUser({ VND: '1000000' });
    second.dispose();
    const ownerKey = { apiKey: owner.api_key.api_key, apiSecret: owner.api_key.api_secret ?? '' };
    const ownerClient = new VenueRestClient({ baseUrl: t.desk.venueStatus().baseUrl, credentials: ownerKey });
    const ownersReader = await ownerClient.createApiKey({ name: 'read-only of another user', read_only: true });
    ownerClient.dispose();
    await call('keys.import', { api_key: ownersReader.api_key, api_secret: ownersReader.api_secret ?? '', user_id: owner.user_id });
    // A second read-only key of the same user, imported (so not known as read-only): tried, and passed over.
    const ownerClient2 = new VenueRestClient({ baseUrl: t.desk.venueStatus().baseUrl, credentials: ownerKey });
    const otherReader = await ownerClient2.createApiKey({ name: 'another read-only', read_only: true });
    ownerClient2.dispose();
    await call('keys.import', { api_key: otherReader.api_key, api_secret: otherReader.api_secret ?? '', user_id: owner.user_id });
    expect(await refusal('keys.revoke', { environment: 'local', api_key: ownersReader.api_key })).toMatch(/^E0003_PermissionDenied: key .* no trading key of that user stored here could revoke it/);
    expect(await refusedByVenue(ownersReader.api_key, ownersReader.api_secret ?? '')).toBeUndefined();
    await call('keys.import', { api_key: ownerKey.apiKey, api_secret: ownerKey.apiSecret, user_id: owner.user_id });
    await call('keys.revoke', { environment: 'local', api_key: ownersReader.api_key });
    expect(await refusedByVenue(ownersReader.api_key, ownersReader.api_secret ?? '')).toBe('E0005_ApiKeyRevoked');
    expect((await call('connection.status', {})).apiKey).toBe(boot.api_key);

    // The local user's first key is the desk's own: the venue keeps it, and so does the desk.
    expect(await refusal('keys.revoke', { environment: 'local', api_key: boot.api_key })).toMatch(/^E0003/);
    expect((await call('keys.list', {})).map((k) => k.apiKey)).toContain(boot.api_key);
  });
});

describe('production', () => {
  it('is marked, and holds every order until the trader confirms it', async () => {
    const local = (await call('environments.list', {})).environments.find((e) => e.id === 'local');
    // The local venue stands in for production here: same API, and nothing real is traded. Development is
    // there already, at 127.0.0.1: Production reaches it as localhost, an address of its own.
    const atLocalhost = (url: string | undefined): string => (url ?? '').replace('127.0.0.1', 'localhost');
    await call('environments.configure', { id: 'production', baseUrl: atLocalhost(local?.baseUrl), wsUrl: atLocalhost(local?.wsUrl) });
    const boot = await t.bootstrap();
    const status = await call('environments.switch', { id: 'production' });
    expect(status).toMatchObject({ environment: 'production', production: true, state: 'no_key' });
    await call('keys.import', { environment: 'production', api_key: boot.api_key, api_secret: boot.api_secret, user_id: boot.user_id });
    await t.desk.whenLive();
    expect((await call('connection.status', {})).production).toBe(true);

    const order = { environment: 'production' as const, product_id: 'BTC-VND', side: 'BUY' as const, limit_price: '2400000000', base_size: '0.001', override_checks: true };
    const held = await call('orders.place', order);
    expect(held).toEqual({ status: 'held', issues: [{ check: 'confirmation', message: 'Production: confirm this order before it is sent' }] });
    const placed = await call('orders.place', { ...order, confirmed: 'production' });
    expect(placed.status).toBe('placed');
    if (placed.status === 'placed') await call('orders.cancel', { environment: 'production', order_id: placed.order.order_id });

    await call('environments.switch', { id: 'local' });
    await t.desk.whenLive();
  });
});

describe('events', () => {
  it('tells listeners of order changes and of the connection', async () => {
    const seen: string[] = [];
    const sub = t.desk.events.onDidEmit((e) => seen.push(e.name));
    const placed = await call('orders.place', { environment: 'local', product_id: 'BTC-VND', side: 'BUY', limit_price: '2400000000', base_size: '0.001', override_checks: true });
    if (placed.status === 'placed') await call('orders.cancel', { environment: 'local', order_id: placed.order.order_id });
    await eventually(() => (seen.includes('orders.changed') ? true : undefined), 'an orders.changed event');
    await call('environments.switch', { id: 'local' });
    expect(seen).toContain('connection.changed');
    expect(seen).toContain('environments.changed');
    sub.dispose();
    await t.desk.whenLive();
  });
});

describe('keys of another environment', () => {
  it('are listed by naming the environment', async () => {
    const production = await call('keys.list', { environment: 'production' });
    expect(production.every((k) => k.environment === 'production')).toBe(true);
    expect(production.map((k) => k.apiKey)).toContain((await t.bootstrap()).api_key);
    expect((await call('keys.list', {})).every((k) => k.environment === 'local')).toBe(true);
  });
});
