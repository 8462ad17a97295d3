// Authentication on every authenticated REST route (as Fastify registered them on the venue that serves, so a
// route added later is walked too): missing, partial, wrong, unknown, expired and read-only credentials, a
// non-admin key on /sim, and another user's ids, which must answer exactly as ids that do not exist; the HEAD
// route Fastify adds to each GET answers as its GET. WebSocket: replayed signatures, skewed timestamps both
// ways, expired and read-only keys. And no secret in anything a venue run prints.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startVenue, type RunningVenue } from '../../src-main/venue/server';
import { venueRoutes, type Route } from '../reliability/venue-routes';
import { callVenue, eventually, expectError, type CallOptions, type Credentials, type Reply } from './harness';
import { signature, TestSocket, type Frame } from './ws/ws-client';

/**
 * Every route each Fastify app of this process registered, from its onRoute hook: the ground truth the matrix
 * walks. Fastify offers no list of its routes, and its printed route tree is text that a parser can misread
 * without a word (and HEAD or OPTIONS routes were left out of it).
 */
const registered = vi.hoisted(() => [] as { app: FastifyInstance; routes: { method: string; path: string }[] }[]);

vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<{ default: typeof Fastify }>();
  const recording = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options) as unknown as FastifyInstance;
    const routes: { method: string; path: string }[] = [];
    registered.push({ app, routes });
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, path: route.url });
    });
    return app;
  }) as unknown as typeof actual.default;
  return { ...actual, default: recording };
});

/** The routes Fastify registered on the app that serves this port. */
function routesServedOn(port: number): { method: string; path: string }[] {
  const served = registered.filter(({ app }) => {
    const address = app.server.address();
    return typeof address === 'object' && address?.port === port;
  });
  expect(served, 'one Fastify app listens on the venue’s port').toHaveLength(1);
  return served[0]?.routes ?? [];
}

const BTC = 'BTC-VND';
/** BTC-VND prices far below any simulated market, so that nothing placed here ever trades. */
const FAR = ['1000000000', '1000010000', '1000020000'];
/** The interface's public endpoints (4.10, 4.11): every other route must demand credentials. */
const PUBLIC = new Set(['GET /products', 'GET /assets', 'GET /products/:id/orderbook', 'GET /products/:id/trades', 'GET /v1/error-codes']);
/** The venue's default auth window for WebSocket timestamps (docs/api.md). */
const WINDOW_SECONDS = 30;

interface User {
  readonly userId: string;
  readonly creds: Credentials;
}

interface Request {
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** Path parameters, e.g. { user_id }. */
  readonly params?: Readonly<Record<string, string>>;
}

let running: RunningVenue;
let dataDir: string;
let admin: User;

function call<T = unknown>(method: string, urlPath: string, options: CallOptions = {}): Promise<Reply<T>> {
  return callVenue<T>(running.baseUrl, method, urlPath, options);
}

function ok<T>(reply: Reply<T>): T {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

async function newUser(): Promise<User> {
  const body = ok(await call<{ user_id: string; api_key: { api_key: string; api_secret: string } }>('POST', '/sim/users', { key: admin.creds, body: { balances: { BTC: '1', VND: '100000000000' } } }));
  return { userId: body.user_id, creds: { key: body.api_key.api_key, secret: body.api_key.api_secret } };
}

async function newKey(owner: User, spec: { read_only?: boolean; expiration_time?: string } = {}): Promise<Credentials> {
  const body = ok(await call<{ api_key: { api_key: string; api_secret: string } }>('POST', '/api-keys', { key: owner.creds, body: spec }));
  return { key: body.api_key.api_key, secret: body.api_key.api_secret };
}

async function placeResting(owner: User, clientOrderId: string, price = FAR[0] as string): Promise<string> {
  const body = ok(await call<{ order: { order_id: string; status: string } }>('POST', '/api/v1/orders', {
    key: owner.creds,
    body: { product_id: BTC, side: 'BUY', limit_price: price, base_size: '0.001', client_order_id: clientOrderId, wait: true },
  }));
  expect(body.order.status).toBe('ACTIVE');
  return body.order.order_id;
}

/** What a user holds, has working and has ever ordered: what a refused request must leave as it was. */
async function footprint(user: User): Promise<unknown> {
  const account = ok(await call<{ account: { asset_balances: unknown; stats: unknown } }>('GET', `/accounts/${user.userId}`, { key: user.creds })).account;
  const active = ok(await call('GET', '/api/v1/orders/active', { key: user.creds }));
  const archived = ok(await call('GET', '/api/v1/orders/archived', { key: user.creds, query: { limit: '1000' } }));
  return { balances: account.asset_balances, stats: account.stats, active, archived };
}

function routeName(route: Route): string {
  return `${route.method} ${route.path}`;
}

function fillPath(route: Route, params: Readonly<Record<string, string>> = {}): string {
  return route.path.replace(/:(\w+)/g, (_m, name: string) => params[name] ?? `missing-${name}`);
}

let ids = 0;
const cid = (label: string): string => `${label}-${process.pid}-${++ids}`;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-auth-'));
  // With the simulator, so that its /sim controls are among the routes; paused, so that it trades nothing.
  running = await startVenue({ port: 0, dataDir, simulate: true, seed: 7, orderRate: 0, requestRate: 0 });
  const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8')) as { user_id: string; api_key: string; api_secret: string };
  admin = { userId: boot.user_id, creds: { key: boot.api_key, secret: boot.api_secret } };
  ok(await call('POST', '/sim/pause', { key: admin.creds }));
});

afterAll(async () => {
  await running.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('every authenticated REST route', () => {
  let routes: Route[];
  let publicRoutes: Route[];
  let trader: User;
  let readOnly: Credentials;
  let adminReadOnly: Credentials;
  let expired: Credentials;

  /** A valid request for each route, made afresh for each use (some use up an order). */
  const VALID: Record<string, (owner: User) => Promise<Request>> = {
    'POST /api-keys': () => Promise.resolve({ body: { name: 'matrix' } }),
    'GET /api-keys': () => Promise.resolve({}),
    'DELETE /api-keys/:api_key': async (owner) => ({ params: { api_key: (await newKey(owner, {})).key } }),
    'POST /api/v1/orders': () => Promise.resolve({ body: { product_id: BTC, side: 'BUY', limit_price: FAR[1], base_size: '0.001', client_order_id: cid('matrix'), wait: true } }),
    'GET /api/v1/orders/active': () => Promise.resolve({ query: { product_id: BTC } }),
    'DELETE /api/v1/orders/active': () => Promise.resolve({ body: { product_ids: ['SOL-VND'] } }),
    'DELETE /api/v1/orders/active/all': () => Promise.resolve({ query: { product_id: 'SOL-VND' } }),
    'GET /api/v1/orders/archived': () => Promise.resolve({ query: { limit: '5' } }),
    'DELETE /api/v1/order/active': async (owner) => ({ query: { order_id: await placeResting(owner, cid('cancel-me'), FAR[2]) } }),
    'GET /api/v1/order/archived': async (owner) => ({ query: { order: await placeResting(owner, cid('look-me-up'), FAR[2]) } }),
    'GET /accounts/:user_id': (owner) => Promise.resolve({ params: { user_id: owner.userId } }),
    'POST /sim/users': () => Promise.resolve({ body: { balances: { VND: '1' } } }),
    'POST /sim/deposit': (owner) => Promise.resolve({ body: { user_id: owner.userId, asset: 'VND', amount: '1' } }),
    // Reset undoes every fixture of this file: its positive control is the last test's.
    'POST /sim/reset': () => Promise.resolve({ body: {} }),
    'GET /sim/status': () => Promise.resolve({}),
    'POST /sim/pause': () => Promise.resolve({ body: {} }),
    // Resumed only to be paused again by the next valid /sim/pause; nothing trades in between here.
    'POST /sim/resume': () => Promise.resolve({ body: {} }),
    'POST /sim/speed': () => Promise.resolve({ body: { speed: 1 } }),
    'POST /sim/volatility': () => Promise.resolve({ body: { volatility: 0.01 } }),
    'POST /sim/reference-price': async () => {
      const status = ok(await call<{ products: { product_id: string; reference_price: string }[] }>('GET', '/sim/status', { key: admin.creds }));
      const btc = status.products.find((p) => p.product_id === BTC);
      return { body: { product_id: BTC, price: btc?.reference_price } };
    },
  };

  const isAdminRoute = (route: Route): boolean => route.path.startsWith('/sim/');
  const isWrite = (route: Route): boolean => route.method !== 'GET';

  interface Prepared {
    readonly route: Route;
    readonly urlPath: string;
    readonly options: { query?: Readonly<Record<string, string>>; body?: unknown };
  }

  /** The valid request for a route, made before anything is measured: making some places an order. */
  async function prepare(route: Route, owner: User): Promise<Prepared> {
    const make = VALID[routeName(route)];
    if (make === undefined) throw new Error(`no valid request written for ${routeName(route)}: add one to VALID`);
    const request = await make(owner);
    return {
      route,
      urlPath: fillPath(route, request.params),
      options: { ...(request.query === undefined ? {} : { query: request.query }), ...(request.body === undefined ? {} : { body: request.body }) },
    };
  }

  function send(prepared: Prepared, credentials: Record<string, string> | Credentials | undefined): Promise<Reply> {
    const { route, urlPath, options } = prepared;
    if (credentials === undefined) return call(route.method, urlPath, options);
    if ('key' in credentials && 'secret' in credentials) return call(route.method, urlPath, { ...options, key: credentials as Credentials });
    return call(route.method, urlPath, { ...options, headers: credentials });
  }

  const ownerOf = (route: Route): User => (isAdminRoute(route) ? admin : trader);

  async function prepareAll(selected: readonly Route[], owner: (route: Route) => User = ownerOf): Promise<Prepared[]> {
    const out: Prepared[] = [];
    for (const route of selected) out.push(await prepare(route, owner(route)));
    return out;
  }

  let heads: Route[];

  beforeAll(async () => {
    const served = routesServedOn(running.port);
    // The HEAD route Fastify adds to each GET is walked by its own test below; any other route is walked here,
    // whatever its method, so an OPTIONS or a lone HEAD route needs a VALID request like any other.
    const isMirrorHead = (r: { method: string; path: string }): boolean => r.method === 'HEAD' && served.some((g) => g.method === 'GET' && g.path === r.path);
    const all = served.filter((r) => !isMirrorHead(r)) as Route[];
    heads = served.filter(isMirrorHead) as unknown as Route[];
    routes = all.filter((r) => !PUBLIC.has(routeName(r)));
    publicRoutes = all.filter((r) => PUBLIC.has(routeName(r)));
    trader = await newUser();
    readOnly = await newKey(trader, { read_only: true });
    adminReadOnly = await newKey(admin, { read_only: true });
    const expiresAt = (BigInt(Date.now()) + 1_500n) * 1_000_000n;
    expired = await newKey(trader, { expiration_time: String(expiresAt) });
    await placeResting(trader, cid('resting'));
    await eventually(async () => {
      const reply = await call('GET', '/api/v1/orders/active', { key: expired });
      return reply.status === 401 ? reply : undefined;
    }, 'the short-lived key to expire');
  });

  it('the routes read from the app include every authenticated endpoint of the interface, and /sim', () => {
    const names = routes.map(routeName);
    for (const name of [
      'POST /api-keys', 'DELETE /api-keys/:api_key', 'POST /api/v1/orders', 'GET /api/v1/orders/active', 'DELETE /api/v1/order/active', 'DELETE /api/v1/orders/active',
      'DELETE /api/v1/orders/active/all', 'GET /api/v1/orders/archived', 'GET /api/v1/order/archived', 'GET /accounts/:user_id',
      'POST /sim/users', 'POST /sim/deposit', 'POST /sim/reset', 'GET /sim/status', 'POST /sim/pause',
    ]) {
      expect(names).toContain(name);
    }
    // Every route has a valid request written for it: a new route fails here until it has one.
    expect(names.filter((n) => VALID[n] === undefined)).toEqual([]);
  });

  it('the route tree other tests walk (venueRoutes) lists every route Fastify registered, but the HEAD of each GET', async () => {
    const fromTree = (await venueRoutes(running.venue, true)).map(routeName).sort();
    expect(fromTree).toEqual([...routes, ...publicRoutes].map(routeName).sort());
    // Fastify adds a HEAD to every GET and to nothing else.
    const gets = [...routes, ...publicRoutes].filter((r) => r.method === 'GET').map((r) => r.path).sort();
    expect(heads.map((r) => r.path).sort()).toEqual(gets);
  });

  /** A HEAD request's status and content type: it has no body to read an error reference from. */
  async function headOf(prepared: Prepared, credentials: Credentials | undefined): Promise<{ status: number; type: string | null; body: string }> {
    const url = new URL(prepared.urlPath, running.baseUrl);
    for (const [name, value] of Object.entries(prepared.options.query ?? {})) url.searchParams.append(name, value);
    const headers: Record<string, string> = credentials === undefined ? {} : { 'NOVA-KEY': credentials.key, 'NOVA-SECRET': credentials.secret };
    const response = await fetch(url, { method: 'HEAD', headers });
    return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
  }

  it('the HEAD of every authenticated GET answers with the status of its GET, whoever calls, and no body', async () => {
    const gets = routes.filter((r) => r.method === 'GET');
    expect(gets.length).toBeGreaterThan(0);
    const prepared = await prepareAll(gets);
    const callers: [string, (route: Route) => Credentials | undefined][] = [
      ['no credentials', () => undefined],
      ['a wrong secret', (route) => ({ key: ownerOf(route).creds.key, secret: `${ownerOf(route).creds.secret}x` })],
      ['an expired key', () => expired],
      ['a read-only key', (route) => (isAdminRoute(route) ? adminReadOnly : readOnly)],
      ['a key that is not the admin’s', () => trader.creds],
      ['the owner', (route) => ownerOf(route).creds],
    ];
    const seen = new Set<number>();
    for (const request of prepared) {
      for (const [label, credentials] of callers) {
        const creds = credentials(request.route);
        const get = await send(request, creds);
        const head = await headOf(request, creds);
        const context = `HEAD ${request.route.path} with ${label}: GET was ${get.status} ${JSON.stringify(get.body)}`;
        expect(head.status, context).toBe(get.status);
        expect(head.type, context).toBe(get.headers.get('content-type'));
        expect(head.body, context).toBe('');
        seen.add(head.status);
      }
    }
    // The walk met refusals and successes both, so a HEAD that let everyone in would have been caught.
    expect([...seen].sort()).toEqual([200, 401, 403]);
  });

  it('the interface’s public routes, and only they, answer without credentials', async () => {
    expect(publicRoutes.map(routeName).sort()).toEqual([...PUBLIC].sort());
    for (const route of publicRoutes) {
      const reply = await call(route.method, fillPath(route, { id: BTC }));
      expect(reply.status, `${routeName(route)}: ${JSON.stringify(reply.body)}`).toBe(200);
    }
  });

  /** The same refusal, whatever the route, and nothing changed for the trader or the admin. */
  async function expectRefusedEverywhere(credentials: (route: Route) => Record<string, string> | Credentials | undefined, status: number, ref: string, code: string): Promise<void> {
    const prepared = await prepareAll(routes);
    const before = [await footprint(trader), await footprint(admin)];
    for (const request of prepared) {
      const reply = await send(request, credentials(request.route));
      expect(reply.status, `${routeName(request.route)}: ${JSON.stringify(reply.body)}`).toBe(status);
      expectError(reply, status, ref, code);
    }
    expect([await footprint(trader), await footprint(admin)]).toEqual(before);
  }

  it('no credentials: 401 AUTH_REQUIRED E0001 on every route', async () => {
    await expectRefusedEverywhere(() => undefined, 401, 'E0001_AuthRequired', 'AUTH_REQUIRED');
  });

  it.each<[string, (t: Credentials) => Record<string, string>]>([
    ['only NOVA-KEY', (t) => ({ 'NOVA-KEY': t.key })],
    ['only NOVA-SECRET', (t) => ({ 'NOVA-SECRET': t.secret })],
    ['empty headers', () => ({ 'NOVA-KEY': '', 'NOVA-SECRET': '' })],
    ['the right key with a wrong secret', (t) => ({ 'NOVA-KEY': t.key, 'NOVA-SECRET': `${t.secret}x` })],
    ['the right key with its secret cut short', (t) => ({ 'NOVA-KEY': t.key, 'NOVA-SECRET': t.secret.slice(0, -1) })],
    ['the right key with another key’s secret', (t) => ({ 'NOVA-KEY': t.key, 'NOVA-SECRET': admin.creds.secret === t.secret ? 'x' : admin.creds.secret })],
    ['an unknown key with a real secret', (t) => ({ 'NOVA-KEY': 'nk_000000000000000000000000', 'NOVA-SECRET': t.secret })],
    ['the key in a different case', (t) => ({ 'NOVA-KEY': t.key.toUpperCase(), 'NOVA-SECRET': t.secret })],
  ])('%s: 401 AUTH_REQUIRED E0001 on every route', async (_label, headers) => {
    await expectRefusedEverywhere((route) => headers(isAdminRoute(route) ? admin.creds : trader.creds), 401, 'E0001_AuthRequired', 'AUTH_REQUIRED');
  });

  it('an expired key: 401 AUTH_REQUIRED E0002 on every route', async () => {
    await expectRefusedEverywhere(() => expired, 401, 'E0002_ApiKeyExpired', 'AUTH_REQUIRED');
  });

  it('a read-only key: 403 INSUFFICIENT_SCOPE E0004 on every route that writes, and reads work', async () => {
    const prepared = await prepareAll(routes);
    const before = [await footprint(trader), await footprint(admin)];
    for (const request of prepared) {
      const { route } = request;
      const reply = await send(request, isAdminRoute(route) ? adminReadOnly : readOnly);
      // The admin's read-only key reads the simulator's status (GET /sim/status) like any read, and changes nothing.
      if (isWrite(route)) expectError(reply, 403, 'E0004_InsufficientScope', 'INSUFFICIENT_SCOPE');
      else expect(reply.status, `${routeName(route)}: ${JSON.stringify(reply.body)}`).toBe(200);
    }
    expect([await footprint(trader), await footprint(admin)]).toEqual(before);
  });

  it('a key that is not the admin’s, trading or read-only: 403 PermissionDenied E0003 on every /sim route', async () => {
    const prepared = await prepareAll(routes.filter(isAdminRoute), () => trader);
    const before = [await footprint(trader), await footprint(admin)];
    for (const request of prepared) {
      expectError(await send(request, trader.creds), 403, 'E0003_PermissionDenied', 'PermissionDenied');
      expectError(await send(request, readOnly), 403, 'E0003_PermissionDenied', 'PermissionDenied');
    }
    expect([await footprint(trader), await footprint(admin)]).toEqual(before);
  });

  it('the owner’s own key answers 200 on every route (the requests above were valid but for their credentials)', async () => {
    // Reset last: it undoes the other fixtures.
    const ordered = [...routes.filter((r) => routeName(r) !== 'POST /sim/reset'), ...routes.filter((r) => routeName(r) === 'POST /sim/reset')];
    for (const route of ordered) {
      const reply = await send(await prepare(route, ownerOf(route)), ownerOf(route).creds);
      expect(reply.status, `${routeName(route)}: ${JSON.stringify(reply.body)}`).toBe(200);
    }
    ok(await call('POST', '/sim/pause', { key: admin.creds }));
  });
});

describe('another user’s ids answer exactly as ids that do not exist', () => {
  let alice: User;
  let bob: User;
  let bobsOrder: string;
  let bobsClientId: string;
  const NO_SUCH_ORDER = '0b7d4c4e-51c7-4d43-9a4c-0d5f9b4e2a11';

  beforeAll(async () => {
    alice = await newUser();
    bob = await newUser();
    bobsClientId = cid('bobs');
    bobsOrder = await placeResting(bob, bobsClientId);
  });

  /** The answer with the volatile parts of its wording (the id itself) taken out. */
  function shape(reply: Reply, id: string): unknown {
    return { status: reply.status, body: JSON.parse(JSON.stringify(reply.body).split(id).join('<id>')) as unknown };
  }

  async function expectBobUntouched(): Promise<void> {
    const active = ok(await call<{ orders: { order_id: string; status: string }[] }>('GET', '/api/v1/orders/active', { key: bob.creds })).orders;
    expect(active.map((o) => o.order_id)).toEqual([bobsOrder]);
  }

  it('GET /accounts/{another user}: 403 E0003, the same as for a user that does not exist', async () => {
    const theirs = await call('GET', `/accounts/${bob.userId}`, { key: alice.creds });
    expectError(theirs, 403, 'E0003_PermissionDenied', 'PermissionDenied');
    expect(JSON.stringify(theirs.body)).not.toContain('asset_balances');
    const nobody = await call('GET', `/accounts/${NO_SUCH_ORDER}`, { key: alice.creds });
    expect(shape(theirs, bob.userId)).toEqual(shape(nobody, NO_SUCH_ORDER));
  });

  it('GET /api/v1/order/archived with another user’s order id or client order id: 404 E0301, as for none', async () => {
    for (const id of [bobsOrder, bobsOrder.toUpperCase(), bobsClientId]) {
      const theirs = await call('GET', '/api/v1/order/archived', { key: alice.creds, query: { order: id } });
      expectError(theirs, 404, 'E0301_OrderNotFound');
      const none = await call('GET', '/api/v1/order/archived', { key: alice.creds, query: { order: id === bobsClientId ? 'no-such-client-id' : NO_SUCH_ORDER } });
      expect(shape(theirs, id)).toEqual(shape(none, id === bobsClientId ? 'no-such-client-id' : NO_SUCH_ORDER));
    }
  });

  it('DELETE /api/v1/order/active with another user’s ids: 404 E0301, as for none, and the order still rests', async () => {
    for (const query of [{ order_id: bobsOrder }, { client_order_id: bobsClientId }] as Record<string, string>[]) {
      const theirs = await call('DELETE', '/api/v1/order/active', { key: alice.creds, query });
      expectError(theirs, 404, 'E0301_OrderNotFound');
      const noneQuery: Record<string, string> = 'order_id' in query ? { order_id: NO_SUCH_ORDER } : { client_order_id: 'no-such-client-id' };
      const none = await call('DELETE', '/api/v1/order/active', { key: alice.creds, query: noneQuery });
      expect(shape(theirs, Object.values(query)[0] as string)).toEqual(shape(none, Object.values(noneQuery)[0] as string));
    }
    await expectBobUntouched();
  });

  it('DELETE /api/v1/orders/active with another user’s ids lists them as not opened, as unknown ones, and cancels nothing', async () => {
    const theirs = ok(await call<Record<string, unknown>>('DELETE', '/api/v1/orders/active', { key: alice.creds, body: { order_ids: [bobsOrder] } }));
    const none = ok(await call<Record<string, unknown>>('DELETE', '/api/v1/orders/active', { key: alice.creds, body: { order_ids: [NO_SUCH_ORDER] } }));
    expect(JSON.parse(JSON.stringify(theirs).split(bobsOrder).join('<id>'))).toEqual(JSON.parse(JSON.stringify(none).split(NO_SUCH_ORDER).join('<id>')));
    ok(await call('DELETE', '/api/v1/orders/active', { key: alice.creds, body: { client_order_ids: [bobsClientId] } }));
    ok(await call('DELETE', '/api/v1/orders/active', { key: alice.creds, body: { product_ids: [BTC] } }));
    ok(await call('DELETE', '/api/v1/orders/active/all', { key: alice.creds }));
    await expectBobUntouched();
  });

  it('listings never show another user’s orders, whatever the filter', async () => {
    const active = ok(await call<{ orders: unknown[] }>('GET', '/api/v1/orders/active', { key: alice.creds, query: { client_order_id: bobsClientId } }));
    expect(active.orders).toEqual([]);
    const archived = ok(await call<{ orders: unknown[] }>('GET', '/api/v1/orders/archived', { key: alice.creds, query: { client_order_id: bobsClientId } }));
    expect(archived.orders).toEqual([]);
    const all = ok(await call<{ orders: unknown[] }>('GET', '/api/v1/orders/archived', { key: alice.creds, query: { limit: '1000' } }));
    expect(JSON.stringify(all)).not.toContain(bobsOrder);
  });

  it('WebSocket: cancel_order of another user’s order is 404 "order not found", and orders updates stay private', async () => {
    const aliceSocket = await TestSocket.open(running.wsUrl);
    const bobSocket = await TestSocket.open(running.wsUrl);
    try {
      expect(await aliceSocket.auth(alice.creds.key, alice.creds.secret)).toMatchObject({ type: 'authenticated' });
      expect(await bobSocket.auth(bob.creds.key, bob.creds.secret)).toMatchObject({ type: 'authenticated' });
      await aliceSocket.request({ op: 'sub', channel: 'orders' });
      for (const data of [{ order_id: bobsOrder }, { client_order_id: bobsClientId }]) {
        const answer = await aliceSocket.request({ op: 'cancel_order', data }, (f) => f['type'] === 'error');
        expect(answer).toMatchObject({ channel: 'orders', type: 'error', code: 404 });
        expect(answer['message']).toMatch(/^E0301_OrderNotFound: /);
      }
      const clientOrderId = cid('bob-ws');
      await bobSocket.request({ op: 'create_order', data: { type: 'limit', side: 'buy', product_id: BTC, price: FAR[2], size: '0.001', client_order_id: clientOrderId } }, (f) => f['type'] === 'update');
      await aliceSocket.barrier();
      const seen = aliceSocket.frames.filter((f) => f['channel'] === 'orders' && f['type'] === 'update');
      expect(seen).toEqual([]);
      ok(await call('DELETE', '/api/v1/order/active', { key: bob.creds, query: { client_order_id: clientOrderId } }));
      await expectBobUntouched();
    } finally {
      aliceSocket.terminate();
      bobSocket.terminate();
    }
  });
});

describe('WebSocket authentication', () => {
  let trader: User;
  const nowSeconds = (): number => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    trader = await newUser();
  });

  function authFrame(creds: Credentials, timestamp: number): Frame {
    return { op: 'auth', data: { key: creds.key, timestamp, signature: signature(creds.key, creds.secret, timestamp) } };
  }

  async function expectUnauthenticated(socket: TestSocket): Promise<void> {
    const trade = await socket.request({ op: 'create_order', data: { type: 'limit', side: 'buy', product_id: BTC, price: FAR[0], size: '0.001' } });
    expect(trade).toMatchObject({ channel: 'orders', type: 'error', code: 401 });
  }

  async function withSocket<T>(use: (socket: TestSocket) => Promise<T>): Promise<T> {
    const socket = await TestSocket.open(running.wsUrl);
    try {
      return await use(socket);
    } finally {
      socket.terminate();
    }
  }

  it('a replayed signature is 401 on the same connection, on another, and after the first one closed', async () => {
    const creds = await newKey(trader);
    const frame = authFrame(creds, nowSeconds());
    await withSocket(async (first) => {
      expect(await first.request(frame)).toMatchObject({ channel: 'auth', type: 'authenticated' });
      expect(await first.request(frame)).toMatchObject({ channel: 'auth', type: 'error', code: 401 });
    });
    for (let replay = 0; replay < 3; replay += 1) {
      await withSocket(async (socket) => {
        const answer = await socket.request(frame);
        expect(answer).toMatchObject({ channel: 'auth', type: 'error', code: 401 });
        expect(answer['message']).toMatch(/^E0001_AuthRequired: /);
        await expectUnauthenticated(socket);
      });
    }
  });

  it('any timestamp outside the window, early or late, is 401 even with a good signature', async () => {
    const creds = await newKey(trader);
    const skew = fc.integer({ min: WINDOW_SECONDS + 2, max: 10 ** 9 }).chain((s) => fc.constantFrom(s, -s));
    await withSocket(async (socket) => {
      await fc.assert(
        fc.asyncProperty(skew, async (s) => {
          const timestamp = nowSeconds() + s;
          fc.pre(timestamp >= 0);
          const answer = await socket.request(authFrame(creds, timestamp));
          expect(answer).toMatchObject({ channel: 'auth', type: 'error', code: 401 });
          expect(answer['message']).toMatch(/^E0001_AuthRequired: /);
        }),
        { numRuns: 30 },
      );
      await expectUnauthenticated(socket);
    });
  });

  it('any timestamp inside the window, early or late, authenticates', async () => {
    const skew = fc.integer({ min: -(WINDOW_SECONDS - 2), max: WINDOW_SECONDS - 2 });
    await fc.assert(
      fc.asyncProperty(skew, async (s) => {
        // A key of its own per run: a signature is good once.
        const creds = await newKey(trader);
        await withSocket(async (socket) => {
          expect(await socket.request(authFrame(creds, nowSeconds() + s))).toMatchObject({ channel: 'auth', type: 'authenticated' });
        });
      }),
      { numRuns: 10 },
    );
  });

  it('an expired key, a wrong secret and an unknown key are 401; a read-only key authenticates but create_order and cancel_order are 403', async () => {
    const expired = await newKey(trader, { expiration_time: String((BigInt(Date.now()) + 1_000n) * 1_000_000n) });
    await eventually(async () => ((await call('GET', '/api/v1/orders/active', { key: expired })).status === 401 ? true : undefined), 'the key to expire');
    await withSocket(async (socket) => {
      const answer = await socket.request(authFrame(expired, nowSeconds()));
      expect(answer).toMatchObject({ channel: 'auth', type: 'error', code: 401 });
      expect(answer['message']).toMatch(/^E0002_ApiKeyExpired: /);
      expect(await socket.request(authFrame({ key: trader.creds.key, secret: 'wrong' }, nowSeconds()))).toMatchObject({ type: 'error', code: 401 });
      expect(await socket.request(authFrame({ key: 'nk_unknown', secret: trader.creds.secret }, nowSeconds()))).toMatchObject({ type: 'error', code: 401 });
      await expectUnauthenticated(socket);
    });

    const resting = await placeResting(trader, cid('ro-target'));
    const before = await footprint(trader);
    const readOnly = await newKey(trader, { read_only: true });
    await withSocket(async (socket) => {
      expect(await socket.request(authFrame(readOnly, nowSeconds()))).toMatchObject({ type: 'authenticated' });
      const create = await socket.request({ op: 'create_order', data: { type: 'limit', side: 'buy', product_id: BTC, price: FAR[0], size: '0.001' } });
      expect(create).toMatchObject({ channel: 'orders', type: 'error', code: 403 });
      expect(create['message']).toMatch(/^E0004_InsufficientScope: read-only api key/);
      const cancel = await socket.request({ op: 'cancel_order', data: { order_id: resting } });
      expect(cancel).toMatchObject({ channel: 'orders', type: 'error', code: 403 });
      expect(cancel['message']).toMatch(/^E0004_InsufficientScope: read-only api key/);
    });
    expect(await footprint(trader)).toEqual(before);
  });
});

describe('secrets in what a venue run prints', () => {
  it('no secret appears in the stdout or stderr of the venue process, whatever the requests carried', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-logs-'));
    const cli = path.resolve('src-main/venue/cli.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--data', dir, '--order-rate', '2', '--request-rate', '5'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const baseUrl = await eventually(() => /venue listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1], 'the venue to listen', 30_000);
      const boot = JSON.parse(fs.readFileSync(path.join(dir, 'bootstrap.json'), 'utf8')) as { api_key: string; api_secret: string; ws_url: string };
      const owner: Credentials = { key: boot.api_key, secret: boot.api_secret };
      const send = (method: string, urlPath: string, headers: Record<string, string>, body?: string): Promise<Response> =>
        fetch(new URL(urlPath, baseUrl), { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body }) });
      const auth = (c: Credentials): Record<string, string> => ({ 'NOVA-KEY': c.key, 'NOVA-SECRET': c.secret });

      const created = (await (await send('POST', '/sim/users', auth(owner), JSON.stringify({ balances: { VND: '100000000000' } }))).json()) as { api_key: { api_key: string; api_secret: string } };
      const user: Credentials = { key: created.api_key.api_key, secret: created.api_key.api_secret };
      const secrets = [owner.secret, user.secret];
      // Good requests, refused ones carrying a secret in every place a careless log would print it, and enough
      // of them to meet the rate limits.
      for (const c of [owner, user]) {
        await send('GET', '/api/v1/orders/active', auth(c));
        await send('GET', '/api/v1/orders/active', { 'NOVA-KEY': 'nk_wrong', 'NOVA-SECRET': c.secret });
        await send('GET', '/api/v1/orders/active', { 'NOVA-KEY': c.key, 'NOVA-SECRET': `${c.secret}x` });
        await send('GET', `/api/v1/orders/archived?secret=${encodeURIComponent(c.secret)}`, auth(c));
        await send('GET', `/no-such-route/${encodeURIComponent(c.secret)}`, auth(c));
        await send('POST', '/api/v1/orders', auth(c), `{"broken": "${c.secret}"`);
        await send('POST', '/api/v1/orders', auth(c), JSON.stringify({ product_id: BTC, side: 'BUY', limit_price: c.secret, base_size: '0.001' }));
        await send('POST', '/api-keys', auth(c), JSON.stringify({ name: c.secret }));
        await Promise.all(Array.from({ length: 12 }, () => send('POST', '/api/v1/orders', auth(c), JSON.stringify({ product_id: BTC, side: 'BUY', limit_price: FAR[0], base_size: '0.001' }))));
        const socket = await TestSocket.open(boot.ws_url);
        await socket.auth(c.key, `${c.secret}x`);
        socket.send(`{"op":"auth","data":{"key":"${c.key}","secret":"${c.secret}"`);
        socket.send({ op: 'auth', data: { key: c.key, timestamp: nowish(), signature: c.secret } });
        await socket.auth(c.key, c.secret);
        socket.send({ op: 'create_order', data: { type: 'limit', side: 'buy', product_id: BTC, price: c.secret, size: '0.001' } });
        await socket.barrier();
        socket.terminate();
      }
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(printed).toContain('venue listening on');
      for (const secret of secrets) {
        expect(printed.includes(secret), 'a secret was printed').toBe(false);
        // Nor a recognisable piece of one.
        expect(printed.includes(secret.slice(0, 12)), 'part of a secret was printed').toBe(false);
      }
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

function nowish(): number {
  return Math.floor(Date.now() / 1000);
}
