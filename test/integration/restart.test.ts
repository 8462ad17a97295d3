// Stop the venue mid-session and start it again on the same folder: nothing acknowledged may be missing,
// and the restored book must keep trading with its priorities intact.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../src-shared/protocol/orders';
import { PRODUCTS } from '../../src-shared/protocol/products';
import { startVenue, type RunningVenue } from '../../src-main/venue/server';
import { startTestVenue, type TestVenue } from './harness';

interface Key {
  key: string;
  secret: string;
}

async function call(venue: RunningVenue, method: string, path: string, key?: Key, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${venue.baseUrl}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key === undefined ? {} : { 'nova-key': key.key, 'nova-secret': key.secret }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** Places orders straight on the venue of `v` (whichever run it is on now); each answers its order id. */
function placer(v: TestVenue): (userId: string, fields: Record<string, string>) => Promise<string> {
  return async (userId, fields) => {
    const { venue } = v.running;
    const parsed = parseCreateOrder(fields, { now: venue.now() });
    if (parsed instanceof ApiError) throw parsed;
    return (await venue.run(() => venue.exchange.place(userId, parsed))).processed.row.orderId;
  };
}

describe('restart on the same data folder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nova-restart-'));
  let venue: RunningVenue | undefined;
  afterAll(async () => {
    await venue?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('restores users, keys, balances, resting orders, stops and books exactly, and keeps trading', async () => {
    venue = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0 });
    const boot = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { user_id: string; api_key: string; api_secret: string };
    const admin = { key: boot.api_key, secret: boot.api_secret };
    const sim = await call(venue, 'POST', '/sim/users', admin, { balances: { BTC: '3', VND: '20000000000' } });
    expect(sim.status).toBe(200);
    const other = { key: sim.body.api_key.api_key as string, secret: sim.body.api_key.api_secret as string };

    const place = async (who: Key, body: object) => {
      const r = await call(venue as RunningVenue, 'POST', '/api/v1/orders', who, { product_id: 'BTC-VND', wait: true, ...body });
      expect(r.status).toBe(200);
      return r.body.order;
    };
    // Two asks at one price: time priority must survive the restart.
    const first = await place(admin, { side: 'SELL', limit_price: '2500000000', base_size: '0.5', client_order_id: 'first-ask' });
    const second = await place(other, { side: 'SELL', limit_price: '2500000000', base_size: '0.5' });
    await place(other, { side: 'BUY', limit_price: '2400000000', base_size: '1' });
    // A partial fill of the first ask, so a restored order carries fills.
    await place(other, { type: 'MARKET', side: 'BUY', limit_price: '0', base_size: '0.1', time_in_force: 'IOC' });
    const stop = await place(admin, { type: 'STOP', side: 'SELL', order_stop_type: 'STOP_LOSS', stop_trigger_price: '2300000000', limit_price: '2200000000', base_size: '0.2' });
    expect(stop.status).toBe('SCHEDULED');

    const snapshot = async (v: RunningVenue) => ({
      adminActive: (await call(v, 'GET', '/api/v1/orders/active', admin)).body,
      otherActive: (await call(v, 'GET', '/api/v1/orders/active', other)).body,
      adminAccount: (await call(v, 'GET', `/accounts/${boot.user_id}`, admin)).body,
      otherAccount: (await call(v, 'GET', `/accounts/${sim.body.user_id as string}`, other)).body,
      book: (await call(v, 'GET', '/products/BTC-VND/orderbook')).body.orderbook,
      trades: (await call(v, 'GET', '/products/BTC-VND/trades')).body,
      archived: (await call(v, 'GET', '/api/v1/orders/archived?limit=1000', admin)).body,
    });
    const before = await snapshot(venue);
    expect(before.adminActive.orders).toHaveLength(2);
    expect(before.book.asks[0]).toEqual({ price: '2500000000', size: '0.9', order_count: 2 });

    await venue.close();
    venue = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0 });
    const after = await snapshot(venue);
    const { time: _t1, ...bookBefore } = before.book;
    const { time: _t2, ...bookAfter } = after.book;
    expect(after.adminActive).toEqual(before.adminActive);
    expect(after.otherActive).toEqual(before.otherActive);
    expect(after.adminAccount).toEqual(before.adminAccount);
    expect(after.otherAccount).toEqual(before.otherAccount);
    expect(bookAfter.bids).toEqual(bookBefore.bids);
    expect(bookAfter.asks).toEqual(bookBefore.asks);
    expect(after.trades).toEqual(before.trades);
    expect(after.archived).toEqual(before.archived);

    // The restored book trades in the old priority: the first ask fills before the second.
    const buy = await place(other, { type: 'MARKET', side: 'BUY', limit_price: '0', base_size: '0.4', time_in_force: 'IOC' });
    expect(buy.status).toBe('DONE');
    const firstNow = (await call(venue, 'GET', `/api/v1/order/archived?order=${first.order_id as string}`, admin)).body.order;
    expect(firstNow.status).toBe('DONE');
    expect(firstNow.done_reason).toBe('FILLED');
    const secondNow = (await call(venue, 'GET', `/api/v1/order/archived?order=${second.order_id as string}`, other)).body.order;
    expect(secondNow.filled_base_size).toBe('0');

    // The restored stop still triggers on a trade at or below its trigger.
    expect((await call(venue, 'DELETE', '/api/v1/orders/active/all?product_id=BTC-VND', other)).status).toBe(200);
    await place(other, { side: 'SELL', limit_price: '2300000000', base_size: '0.1' });
    await place(admin, { side: 'BUY', limit_price: '2300000000', base_size: '0.1' });
    const stopNow = (await call(venue, 'GET', `/api/v1/order/archived?order=${stop.order_id as string}`, admin)).body.order;
    expect(stopNow.status).toBe('ACTIVE');
  });
});

describe('the tape after a restart', () => {
  it('answers GET /products/{id}/trades?limit=1000 as before, and has the same candles and day beyond the tape', async () => {
    const v = await startTestVenue();
    try {
      const maker = await v.newTrader({ BTC: '1' });
      const taker = await v.newTrader({ VND: '100000000000' });
      const { venue } = v.running;
      const order = (side: 'BUY' | 'SELL', i: number) => {
        const parsed = parseCreateOrder({ product_id: 'BTC-VND', side, limit_price: String((250_000 + (i % 7)) * 10_000), base_size: '0.0001' }, { now: venue.now() });
        if (parsed instanceof ApiError) throw parsed;
        return parsed;
      };
      for (let i = 0; i < 150; i++) {
        await venue.run(() => {
          venue.exchange.place(maker.userId, order('SELL', i));
          venue.exchange.place(taker.userId, order('BUY', i));
        });
      }
      const tape = async () => (await v.call<{ trades: unknown[] }>('GET', '/products/BTC-VND/trades', { query: { limit: '1000' } })).body.trades;
      const before = await tape();
      expect(before).toHaveLength(150);
      await v.restart();
      expect(await tape()).toEqual(before);

      // Past the tape's 1,000 trades, the candles and the ticker's day come back from the candles table.
      for (let i = 150; i < 1_200; i++) {
        await v.running.venue.run(() => {
          v.running.venue.exchange.place(maker.userId, order('SELL', i));
          v.running.venue.exchange.place(taker.userId, order('BUY', i));
        });
      }
      const chart = () => {
        const market = v.running.venue.exchange.markets.get('BTC-VND');
        return { candles: market?.candles.recent(), day: market?.candles.summary(0n) };
      };
      const charted = chart();
      expect(charted.day?.volume).toBe('0.12');
      await v.restart();
      expect(chart()).toEqual(charted);
    } finally {
      await v.close();
    }
  });
});

describe('the book sequence after a restart', () => {
  it('goes on from where it stood, for a book that traded and for one that only has resting orders', async () => {
    const v = await startTestVenue();
    try {
      const maker = await v.newTrader({ BTC: '1', ETH: '1' });
      const taker = await v.newTrader({ VND: '100000000000' });
      const place = placer(v);
      for (let i = 0; i < 5; i++) {
        await place(maker.userId, { product_id: 'BTC-VND', side: 'SELL', limit_price: String((250_000 + i) * 10_000), base_size: '0.0002' });
        await place(taker.userId, { product_id: 'BTC-VND', side: 'BUY', limit_price: String(250_000 * 10_000), base_size: '0.0001' });
        await place(maker.userId, { product_id: 'ETH-VND', side: 'SELL', limit_price: String(90_000_000 + i * 10_000), base_size: '0.01' });
      }
      const sequence = async (product: string) => (await v.call<{ orderbook: { sequence: number } }>('GET', `/products/${product}/orderbook`)).body.orderbook.sequence;
      const btc = await sequence('BTC-VND');
      const eth = await sequence('ETH-VND');
      expect(btc).toBeGreaterThanOrEqual(5);
      expect(eth).toBe(5);
      await v.restart();
      expect(await sequence('BTC-VND')).toBe(btc);
      expect(await sequence('ETH-VND')).toBe(eth);
      await place(maker.userId, { product_id: 'ETH-VND', side: 'SELL', limit_price: String(91_000_000), base_size: '0.01' });
      expect(await sequence('ETH-VND')).toBe(eth + 1);
    } finally {
      await v.close();
    }
  });
});

describe('the simulator after a restart', () => {
  it('keeps the trader\'s controls: a paused market stays paused, at the speed and volatility set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nova-restart-sim-'));
    let running = await startVenue({ port: 0, dataDir: dir, simulate: true, seed: 5 });
    try {
      const boot = JSON.parse(readFileSync(join(dir, 'bootstrap.json'), 'utf8')) as { api_key: string; api_secret: string };
      const admin = { key: boot.api_key, secret: boot.api_secret };
      expect((await call(running, 'POST', '/sim/speed', admin, { speed: 7 })).status).toBe(200);
      expect((await call(running, 'POST', '/sim/volatility', admin, { volatility: 3 })).status).toBe(200);
      expect((await call(running, 'POST', '/sim/pause', admin)).body).toMatchObject({ paused: true, speed: 7, volatility: 3 });
      await running.close();

      running = await startVenue({ port: 0, dataDir: dir, simulate: true, seed: 5 });
      expect((await call(running, 'GET', '/sim/status', admin)).body).toMatchObject({ paused: true, speed: 7, volatility: 3 });
      const tape = async () => (await call(running, 'GET', '/products/BTC-VND/trades')).body.trades as unknown[];
      type Book = { sequence: number; bids: unknown[]; asks: unknown[]; time?: string };
      const book = async (product: string) => {
        // Its time is when it was read.
        const { time: _read, ...levels } = (await call(running, 'GET', `/products/${product}/orderbook`)).body.orderbook as Book;
        return levels;
      };
      const before = await tape();
      // Frozen, not empty: the makers quote once around the reference, and then nothing moves.
      const books = await Promise.all(PRODUCTS.map((p) => book(p.id)));
      for (const b of books) {
        expect(b.bids.length).toBeGreaterThan(0);
        expect(b.asks.length).toBeGreaterThan(0);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await tape()).toEqual(before);
      expect(await Promise.all(PRODUCTS.map((p) => book(p.id)))).toEqual(books);
      expect((await call(running, 'POST', '/sim/resume', admin)).body).toMatchObject({ paused: false, speed: 7 });
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('stops after a restart', () => {
  it('a GTT stop still triggers on a trade at its price, and a scheduled one starts once, both as before the restart', async () => {
    const v = await startTestVenue();
    try {
      const stopper = await v.newTrader({ BTC: '1' });
      const maker = await v.newTrader({ BTC: '1' });
      const taker = await v.newTrader({ VND: '100000000000' });
      const place = placer(v);
      const trade = async (price: number) => {
        await place(maker.userId, { product_id: 'BTC-VND', side: 'SELL', limit_price: String(price * 10_000), base_size: '0.0001' });
        await place(taker.userId, { product_id: 'BTC-VND', side: 'BUY', limit_price: String(price * 10_000), base_size: '0.0001' });
      };
      await trade(250_000);
      const inAnHour = String((BigInt(Date.now()) + 3_600_000n) * 1_000_000n);
      const stop = { product_id: 'BTC-VND', side: 'SELL', type: 'STOP', order_stop_type: 'STOP_LOSS', stop_trigger_price: String(249_000 * 10_000), limit_price: String(248_000 * 10_000), base_size: '0.0001' };
      const gtt = await place(stopper.userId, { ...stop, time_in_force: 'GTT', expired_at: inAnHour });
      const scheduled = await place(stopper.userId, { ...stop, scheduled_at: String((BigInt(Date.now()) + 100n) * 1_000_000n) });
      const stopsWaiting = () => v.running.venue.exchange.markets.get('BTC-VND')?.stops.size;
      // The scheduled one has started (the clock put it in the stop book) before the restart.
      for (let i = 0; i < 100 && stopsWaiting() !== 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(stopsWaiting()).toBe(2);
      const order = (id: string) => v.running.venue.exchange.activeOrders(stopper.userId, {}).find((o) => o.row.orderId === id);
      const startedAt = order(scheduled)?.row.updatedAt;
      await v.restart();
      // After it, the clock starts the scheduled one again (once: starting a waiting stop twice throws).
      for (let i = 0; i < 100 && stopsWaiting() !== 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(order(gtt)?.row.status).toBe('SCHEDULED');
      expect(order(scheduled)?.row.status).toBe('SCHEDULED');
      expect(order(scheduled)?.row.updatedAt, 'waiting for its trigger again is no change of the order').toBe(startedAt);
      expect(stopsWaiting(), 'both wait for their trigger').toBe(2);
      await trade(249_000);
      expect(order(gtt), 'the GTT stop triggered and rests at its limit').toMatchObject({ row: { status: 'ACTIVE' } });
      expect(order(scheduled), 'the scheduled stop triggered and rests at its limit').toMatchObject({ row: { status: 'ACTIVE' } });
    } finally {
      await v.close();
    }
  });
});

describe('a folder a simulated run left, started without the simulator', () => {
  it('opens with empty books: the simulated makers’ quotes are withdrawn, and a later simulated run quotes again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nova-unsimulated-'));
    try {
      const simulated = await startVenue({ port: 0, dataDir: dir, simulate: true, seed: 3 });
      const books = (running: RunningVenue) => [...running.venue.exchange.markets.values()].map((m) => [m.book.bestBid() !== undefined, m.book.bestAsk() !== undefined]);
      for (let i = 0; i < 100 && books(simulated).flat().includes(false); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(books(simulated).flat()).not.toContain(false);
      await simulated.close();

      const quiet = await startVenue({ port: 0, dataDir: dir });
      try {
        expect(books(quiet).flat()).not.toContain(true);
        const orderbook = (await call(quiet, 'GET', '/products/BTC-VND/orderbook')).body.orderbook as { bids: unknown[]; asks: unknown[] };
        expect(orderbook).toMatchObject({ bids: [], asks: [] });
      } finally {
        await quiet.close();
      }
      // The simulator enlists the same accounts again and quotes anew.
      const again = await startVenue({ port: 0, dataDir: dir, simulate: true, seed: 3 });
      try {
        for (let i = 0; i < 100 && books(again).flat().includes(false); i++) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(books(again).flat()).not.toContain(false);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a folder that cannot be opened', () => {
  it('is left as it was and free: no new venue.key, no lock held, so the next start in the same process works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nova-unopenable-'));
    try {
      const first = await startVenue({ port: 0, dataDir: dir });
      await first.close();
      const setMeta = (key: string, value: string | undefined) => {
        const db = new Database(join(dir, 'venue.sqlite'));
        try {
          if (value === undefined) db.prepare('DELETE FROM meta WHERE key = ?').run(key);
          else db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
        } finally {
          db.close();
        }
      };
      // A roster the venue cannot read fails the start after the venue has opened the folder.
      setMeta('sim.roster', '{');
      await expect(startVenue({ port: 0, dataDir: dir })).rejects.toThrow(/sim\.roster/);
      setMeta('sim.roster', undefined);
      const again = await startVenue({ port: 0, dataDir: dir });
      await again.close();

      // Without its key, a folder with accounts is refused before anything is written: no key is made for it.
      const key = readFileSync(join(dir, 'venue.key'));
      rmSync(join(dir, 'venue.key'));
      await expect(startVenue({ port: 0, dataDir: dir })).rejects.toThrow(/venue\.key is missing/);
      expect(existsSync(join(dir, 'venue.key'))).toBe(false);
      // Another key, or the same one with a byte more, would derive other secrets: refused, bootstrap.json untouched.
      const bootstrap = readFileSync(join(dir, 'bootstrap.json'), 'utf8');
      for (const wrong of [randomBytes(32), Buffer.concat([key, Buffer.from('\n')])]) {
        writeFileSync(join(dir, 'venue.key'), wrong, { mode: 0o600 });
        await expect(startVenue({ port: 0, dataDir: dir })).rejects.toThrow(/venue\.key is not the master key of this folder's API secrets/);
        expect(readFileSync(join(dir, 'bootstrap.json'), 'utf8')).toBe(bootstrap);
      }
      writeFileSync(join(dir, 'venue.key'), Buffer.alloc(0), { mode: 0o600 });
      await expect(startVenue({ port: 0, dataDir: dir })).rejects.toThrow(/venue\.key is not the master key.*at least 32 bytes/);
      // A key that cannot be read is not called a wrong one (root reads any file, so a folder stands in its place).
      rmSync(join(dir, 'venue.key'));
      mkdirSync(join(dir, 'venue.key'));
      await expect(startVenue({ port: 0, dataDir: dir })).rejects.toThrow(/could not read .*venue\.key, the master key of this folder's API secrets \(EISDIR/);
      rmSync(join(dir, 'venue.key'), { recursive: true });
      writeFileSync(join(dir, 'venue.key'), key, { mode: 0o600 });
      const restored = await startVenue({ port: 0, dataDir: dir });
      await restored.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has its key made again when a first start was cut off before writing it: no account derives from it yet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nova-cut-first-start-'));
    try {
      for (const left of [Buffer.alloc(0), randomBytes(7)]) {
        rmSync(join(dir, 'venue.sqlite'), { force: true });
        writeFileSync(join(dir, 'venue.key'), left, { mode: 0o600 });
        const first = await startVenue({ port: 0, dataDir: dir });
        const local = first.venue.localCredentials();
        await first.close();
        expect(readFileSync(join(dir, 'venue.key')).length).toBe(32);
        // The key it made derives the local user's secret on the next start too.
        const next = await startVenue({ port: 0, dataDir: dir });
        try {
          expect(next.venue.localCredentials()).toEqual(local);
        } finally {
          await next.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a venue whose close fails', () => {
  it('lets go of its folder all the same, so the next start in the same process works and has every acknowledged order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nova-close-fails-'));
    try {
      const first = await startVenue({ port: 0, dataDir: dir });
      const { venue } = first;
      const userId = venue.localCredentials()?.user_id ?? '';
      // Another connection makes the tables refuse every new order behind the venue's back, so the venue cannot
      // apply its journal when it closes, and close says so.
      const intruder = new Database(join(dir, 'venue.sqlite'));
      intruder.exec("CREATE TRIGGER refuse BEFORE INSERT ON orders BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
      const parsed = parseCreateOrder({ product_id: 'BTC-VND', side: 'BUY', limit_price: '1000000000', base_size: '0.0001' }, { now: venue.now() });
      if (parsed instanceof ApiError) throw parsed;
      const placed = (await venue.run(() => venue.exchange.place(userId, parsed))).processed.row.orderId;
      await expect(first.close()).rejects.toThrow(/refused by the test/);
      intruder.exec('DROP TRIGGER refuse');
      intruder.close();

      // The acknowledged order was kept in the journal; the folder is free for the next start.
      const again = await startVenue({ port: 0, dataDir: dir });
      try {
        expect(again.venue.store.orderById(userId, placed)?.status).toBe('ACTIVE');
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
