// The simulator's /sim controls over real HTTP: the venue's own Fastify app with the controls registered on
// it, on port 0, driven with fetch. Bad bodies and missing credentials get the API's error objects.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildHttpApi } from '../../../src-main/venue/api/http-api';
import { RateLimiter } from '../../../src-main/venue/api/rate-limit';
import { MarketSimulator, SIM_STEP_INTERVAL_MS, type SimStatus } from '../../../src-main/venue/sim/market-simulator';
import { Venue } from '../../../src-main/venue/venue';
import { eventually } from '../harness';

interface Key {
  readonly key: string;
  readonly secret: string;
}

interface ErrorReply {
  error: { code: string; message: string };
}

let dataDir: string;
let venue: Venue;
let sim: MarketSimulator;
let app: FastifyInstance;
let baseUrl: string;
let admin: Key;
let trader: Key;

/** The same check the venue's other /sim endpoints make: a valid key of the admin account. */

async function call<T>(method: 'GET' | 'POST', urlPath: string, key: Key | undefined, body?: unknown, raw?: string): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (key !== undefined) {
    headers['NOVA-KEY'] = key.key;
    headers['NOVA-SECRET'] = key.secret;
  }
  const text = raw ?? (body === undefined ? undefined : JSON.stringify(body));
  if (text !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(new URL(urlPath, baseUrl), { method, headers, ...(text === undefined ? {} : { body: text }) });
  return { status: response.status, body: (await response.json()) as T };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-sim-http-'));
  venue = await Venue.open({ dataDir });
  const boot = venue.localCredentials();
  if (boot === undefined) throw new Error('a fresh venue has a local user');
  admin = { key: boot.api_key, secret: boot.api_secret };
  sim = new MarketSimulator(venue, { seed: 2024 });
  await sim.setup();
  app = buildHttpApi(venue, { orderLimit: new RateLimiter(0), requestLimit: new RateLimiter(0), simulator: sim });
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const created = await call<{ api_key: { api_key: string; api_secret: string } }>('POST', '/sim/users', admin, { balances: { VND: '1000000' } });
  expect(created.status).toBe(200);
  trader = { key: created.body.api_key.api_key, secret: created.body.api_key.api_secret };
});

afterAll(async () => {
  await sim.stop();
  await app.close();
  await venue.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /sim/status', () => {
  it('answers the admin with the simulator status', async () => {
    const reply = await call<SimStatus>('GET', '/sim/status', admin);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ running: false, paused: false, speed: 1, volatility: 1, seed: 2024, run_seed: 2024, steps: 0, errors: 0, last_error: null });
    expect(reply.body.products.map((p) => p.product_id)).toEqual(['BTC-VND', 'ETH-VND', 'SOL-VND']);
    // setup() quoted around the reference; nothing has traded yet.
    expect(reply.body.products[0]).toMatchObject({ product_id: 'BTC-VND', reference_price: '2500000000', last_trade: null });
    const { best_bid: bid, best_ask: ask } = reply.body.products[0] ?? {};
    expect([typeof bid, typeof ask]).toEqual(['string', 'string']);
    expect(Number(bid)).toBeLessThan(2_500_000_000);
    expect(Number(ask)).toBeGreaterThan(2_500_000_000);
  });

  it('refuses a request without credentials (401) and a user who is not the admin (403)', async () => {
    const anonymous = await call<ErrorReply>('GET', '/sim/status', undefined);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('AUTH_REQUIRED');
    const notAdmin = await call<ErrorReply>('POST', '/sim/pause', trader);
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body.error.message).toMatch(/^E0003_PermissionDenied: /);
    expect((await call<SimStatus>('GET', '/sim/status', admin)).body.paused).toBe(false);
  });
});

describe('POST controls', () => {
  it('pauses and resumes', async () => {
    expect((await call<SimStatus>('POST', '/sim/pause', admin)).body.paused).toBe(true);
    expect((await call<SimStatus>('POST', '/sim/resume', admin)).body.paused).toBe(false);
  });

  it('sets the speed within 0.1..100 and refuses anything else', async () => {
    const ok = await call<SimStatus>('POST', '/sim/speed', admin, { speed: 5 });
    expect(ok.status).toBe(200);
    expect(ok.body.speed).toBe(5);
    const cases: [unknown, string][] = [
      [{ speed: 0 }, 'E0110_ValueOutOfRange: speed: must be between 0.1 and 100'],
      [{ speed: 101 }, 'E0110_ValueOutOfRange'],
      [{ speed: 'fast' }, 'E0101_InvalidArgument: speed: expected number, got string'],
      [{}, 'E0101_InvalidArgument: speed: required'],
      [[5], 'E0101_InvalidArgument'],
    ];
    for (const [body, message] of cases) {
      const reply = await call<ErrorReply>('POST', '/sim/speed', admin, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error.message.startsWith(message), reply.body.error.message).toBe(true);
    }
    // 1e400 is valid JSON that parses to Infinity: out of range, not "expected number, got number".
    const huge = await call<ErrorReply>('POST', '/sim/speed', admin, undefined, '{"speed": 1e400}');
    expect(huge.status).toBe(400);
    expect(huge.body.error.message).toBe('E0110_ValueOutOfRange: speed: too large to represent');
    const malformed = await call<ErrorReply>('POST', '/sim/speed', admin, undefined, '{"speed": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/^E0102_MalformedJson/);
    const empty = await call<ErrorReply>('POST', '/sim/speed', admin);
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/^E0101_InvalidArgument: request body: required/);
    expect((await call<SimStatus>('GET', '/sim/status', admin)).body.speed).toBe(5);
  });

  it('sets the volatility within 0..10 and refuses anything else', async () => {
    const ok = await call<SimStatus>('POST', '/sim/volatility', admin, { volatility: 2.5 });
    expect(ok.status).toBe(200);
    expect(ok.body.volatility).toBe(2.5);
    for (const body of [{ volatility: -1 }, { volatility: 10.01 }, { volatility: '2' }, { vol: 2 }]) {
      const reply = await call<ErrorReply>('POST', '/sim/volatility', admin, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error.message).toMatch(/^E01(01|10)_/);
    }
    expect((await call<SimStatus>('GET', '/sim/status', admin)).body.volatility).toBe(2.5);
  });

  it("moves a product's reference price, on its increments only", async () => {
    const ok = await call<SimStatus>('POST', '/sim/reference-price', admin, { product_id: 'ETH-VND', price: '95000000' });
    expect(ok.status).toBe(200);
    expect(ok.body.products.find((p) => p.product_id === 'ETH-VND')?.reference_price).toBe('95000000');
    const cases: [unknown, RegExp][] = [
      [{ product_id: 'ETH-VND', price: '95000500' }, /^E0101_InvalidArgument: price: not a multiple of 1000/],
      [{ product_id: 'ETH-VND', price: '95000000.5' }, /^E0101_InvalidArgument: price/],
      [{ product_id: 'ETH-VND', price: '1000' }, /^E0110_ValueOutOfRange: price: must be between/],
      [{ product_id: 'ETH-VND', price: 95000000 }, /^E0101_InvalidArgument: price: expected string, got number/],
      [{ product_id: 'XRP-VND', price: '1' }, /^E0104_InvalidSymbol/],
      [{ price: '95000000' }, /^E0101_InvalidArgument: product_id: required/],
    ];
    for (const [body, message] of cases) {
      const reply = await call<ErrorReply>('POST', '/sim/reference-price', admin, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error.message).toMatch(message);
    }
  });
});

describe('running on its timer', () => {
  it('fills the books a client reads over the public API, and reports that it runs', async () => {
    sim.start();
    const book = await eventually(async () => {
      const reply = await call<{ orderbook: { bids: unknown[]; asks: unknown[] } }>('GET', '/products/ETH-VND/orderbook', undefined);
      const { bids, asks } = reply.body.orderbook;
      return bids.length >= 5 && asks.length >= 5 ? reply.body.orderbook : undefined;
    }, 'simulated quotes on ETH-VND');
    expect(book.bids.length).toBeGreaterThanOrEqual(5);
    const status = await call<SimStatus>('GET', '/sim/status', admin);
    expect(status.body.running).toBe(true);
    expect(status.body.errors).toBe(0);
    const eth = status.body.products.find((p) => p.product_id === 'ETH-VND');
    expect(eth?.best_bid).not.toBeNull();
    expect(eth?.best_ask).not.toBeNull();
    await sim.stop();
    expect((await call<SimStatus>('GET', '/sim/status', admin)).body.running).toBe(false);
  });

  it('paces simulated time by the speed: a second of the timer covers the speed times a second', async () => {
    // Only the interval timer is faked, so a second of its ticks is exact however loaded the machine is, while
    // the commits, the HTTP calls and the writer thread run for real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const steps = vi.spyOn(sim, 'step');
    try {
      sim.start();
      const simulatedMs = async (): Promise<number> => (await call<SimStatus>('GET', '/sim/status', admin)).body.simulated_ms;
      const oneSecond = async (): Promise<number> => {
        const before = await simulatedMs();
        for (let elapsed = 0; elapsed < 1000; elapsed += SIM_STEP_INTERVAL_MS) {
          vi.advanceTimersByTime(SIM_STEP_INTERVAL_MS);
          // The timer skips a tick while a step is still committing; let each commit before the next tick.
          await Promise.all(steps.mock.results.map((result) => result.value));
          await new Promise((resolve) => setImmediate(resolve));
        }
        return (await simulatedMs()) - before;
      };
      const at = async (speed: number): Promise<number> => {
        expect((await call<SimStatus>('POST', '/sim/speed', admin, { speed })).body.speed).toBe(speed);
        return oneSecond();
      };
      expect(await at(1)).toBe(1_000);
      expect(await at(10)).toBe(10_000);
      expect(await at(0.5)).toBe(500);
      // Paused, the timer still ticks but simulated time stands still.
      expect((await call<SimStatus>('POST', '/sim/pause', admin)).body.paused).toBe(true);
      expect(await oneSecond()).toBe(0);
      expect((await call<SimStatus>('POST', '/sim/resume', admin)).body.paused).toBe(false);
      expect(await oneSecond()).toBe(500);
      expect((await call<SimStatus>('GET', '/sim/status', admin)).body.errors).toBe(0);
    } finally {
      await sim.stop();
      steps.mockRestore();
      vi.useRealTimers();
    }
  });
});
