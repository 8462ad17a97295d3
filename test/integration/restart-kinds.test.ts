// Every kind of order the venue keeps working on, across a stop and start on the same folder, judged against a
// twin venue that is never restarted: both get the same requests at the same (injected) clock, and everything a
// trader can read (each order's record and fills, balances and account stats, active orders, the book's levels
// and sequence) must be equal, right after the restart and in everything that happens later. A restart that
// loses or changes anything, now or in how an order goes on (fills, expiry, triggers, TWAP slices, client order
// id refusals), shows as a difference from the twin. Ids are random per venue, so they are compared by the order
// they are first seen in.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startVenue, type RunningVenue } from '../../src-main/venue/server';
import { callVenue, type CallOptions, type Method, type Reply, type Trader } from './harness';
import { TestSocket } from './ws/ws-client';
import { createOrder, limitData } from './ws/ws-venue';

const SECOND = 1_000_000_000n;
const BTC = 'BTC-VND';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const FUNDS = { BTC: '10', VND: '1000000000000' } as const;

function px(ticks: number): string {
  return String(2_500_000_000 + ticks * 10_000);
}

type Body = Record<string, unknown>;

const opened: Twin[] = [];
afterEach(async () => {
  for (const twin of opened.splice(0)) await twin.close();
});

/** One of the two venues. `restarts`: this one is stopped and started again at each checkpoint. */
class Twin {
  clock: bigint;
  server: RunningVenue | undefined;
  /** What a trader saw, in order; compared with the other twin's at the end. */
  readonly log: unknown[] = [];
  private readonly labels = new Map<string, string>();
  private readonly orders: [Trader, string][] = [];
  private readonly traders: Trader[] = [];
  private admin: Trader | undefined;
  private signedSecond = 0;

  private constructor(
    readonly dir: string,
    readonly restarts: boolean,
    start: bigint,
  ) {
    this.clock = start;
  }

  static async open(restarts: boolean, start: bigint): Promise<Twin> {
    const twin = new Twin(mkdtempSync(join(tmpdir(), 'nova-restart-kinds-')), restarts, start);
    opened.push(twin);
    await twin.start();
    const boot = JSON.parse(readFileSync(join(twin.dir, 'bootstrap.json'), 'utf8')) as { user_id: string; api_key: string; api_secret: string };
    twin.admin = { userId: boot.user_id, creds: { key: boot.api_key, secret: boot.api_secret } };
    return twin;
  }

  private async start(): Promise<void> {
    this.server = await startVenue({ port: 0, dataDir: this.dir, now: () => this.clock, orderRate: 0, requestRate: 0 });
  }

  private get running(): RunningVenue {
    if (this.server === undefined) throw new Error('the venue is not running');
    return this.server;
  }

  async close(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
    rmSync(this.dir, { recursive: true, force: true });
  }

  call<T = unknown>(method: Method, path: string, options?: CallOptions): Promise<Reply<T>> {
    return callVenue<T>(this.running.baseUrl, method, path, options);
  }

  async trader(): Promise<Trader> {
    const reply = await this.call<{ user_id: string; api_key: { api_key: string; api_secret: string } }>('POST', '/sim/users', {
      key: this.admin?.creds,
      body: { balances: FUNDS },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const trader = { userId: reply.body.user_id, creds: { key: reply.body.api_key.api_key, secret: reply.body.api_key.api_secret } };
    this.traders.push(trader);
    return trader;
  }

  /** POST /api/v1/orders (wait: true); the answer is logged, and an accepted order is watched from then on. */
  async place(trader: Trader, body: Body): Promise<string> {
    const reply = await this.call<{ order?: { order_id: string } }>('POST', '/api/v1/orders', { key: trader.creds, body: { product_id: BTC, wait: true, ...body } });
    this.record('place', reply);
    const id = reply.body.order?.order_id ?? '';
    if (id !== '') this.orders.push([trader, id]);
    return id;
  }

  async cancel(trader: Trader, query: Record<string, string>): Promise<void> {
    this.record('cancel', await this.call('DELETE', '/api/v1/order/active', { key: trader.creds, query }));
  }

  /** A create_order over the WebSocket (the only way to ask for DECREASE_AND_CANCEL), answered by its update. */
  async placeOverSocket(trader: Trader, data: Body, statuses: readonly string[]): Promise<void> {
    const socket = await TestSocket.open(this.running.wsUrl);
    try {
      // The venue refuses a signature's second twice; its clock is ours.
      this.signedSecond = Math.max(Number(this.clock / SECOND), this.signedSecond + 1);
      const auth = await socket.auth(trader.creds.key, trader.creds.secret, this.signedSecond);
      expect(auth, JSON.stringify(auth)).toMatchObject({ channel: 'auth', type: 'authenticated' });
      await socket.request({ op: 'sub', channel: 'orders' });
      const order = await createOrder(socket, data, statuses);
      this.orders.push([trader, order.id]);
      this.log.push(this.normalize({ socket: order }));
    } finally {
      socket.close();
    }
  }

  /** The clock moves on, and the venue's clock work for that time is done before anything else. */
  async advance(ns: bigint): Promise<void> {
    this.clock += ns;
    const { venue } = this.running;
    await venue.run(() => venue.exchange.tick());
  }

  /** Everything a trader can read of the state, as the log keeps it. */
  async observe(): Promise<unknown> {
    const orders: unknown[] = [];
    for (const [trader, id] of this.orders) {
      orders.push((await this.call('GET', '/api/v1/order/archived', { key: trader.creds, query: { order: id } })).body);
    }
    const traders: unknown[] = [];
    for (const trader of this.traders) {
      traders.push({
        account: (await this.call('GET', `/accounts/${trader.userId}`, { key: trader.creds })).body,
        active: (await this.call('GET', '/api/v1/orders/active', { key: trader.creds })).body,
      });
    }
    const book = (await this.call('GET', `/products/${BTC}/orderbook`, { query: { depth: '50' } })).body;
    const tape = (await this.call('GET', `/products/${BTC}/trades`, { query: { limit: '1000' } })).body;
    return this.normalize({ orders, traders, book, tape });
  }

  /**
   * The point where one twin stops and starts again with the clock standing still: what it shows after must be
   * what it showed before, and what both show is logged.
   */
  async checkpoint(): Promise<void> {
    const before = await this.observe();
    this.log.push(before);
    if (!this.restarts) return;
    await this.running.close();
    this.server = undefined;
    await this.start();
    expect(await this.observe(), 'what a restart on the same folder shows, against what it showed before').toEqual(before);
  }

  /** The clock moves on by `ns`; the restarting twin is down meanwhile. */
  async down(ns: bigint): Promise<void> {
    if (this.restarts) {
      await this.running.close();
      this.server = undefined;
      this.clock += ns;
      await this.start();
      await this.advance(0n);
    } else {
      await this.advance(ns);
    }
    this.log.push(await this.observe());
  }

  private record(what: string, reply: Reply): void {
    this.log.push(this.normalize({ [what]: { status: reply.status, body: reply.body } }));
  }

  private normalize(value: unknown): unknown {
    const text = JSON.stringify(value).replace(UUID, (id) => {
      let label = this.labels.get(id);
      if (label === undefined) {
        label = `id-${this.labels.size + 1}`;
        this.labels.set(id, label);
      }
      return label;
    });
    return JSON.parse(text) as unknown;
  }
}

/** Runs the scenario on a twin that restarts and one that does not, side by side, and compares what they saw. */
async function againstTwin(scenario: (twin: Twin) => Promise<void>): Promise<void> {
  const start = BigInt(Date.now()) * 1_000_000n;
  const [restarted, steady] = await Promise.all([Twin.open(true, start), Twin.open(false, start)]);
  await Promise.all([scenario(restarted), scenario(steady)]);
  expect(restarted.log.length).toBe(steady.log.length);
  for (let i = 0; i < steady.log.length; i++) expect(restarted.log[i], `log entry ${i}`).toEqual(steady.log[i]);
}

describe('a restart on the same folder, against a twin venue that never stopped', () => {
  it('resting limits: partly filled, post-only, decreased by DECREASE_AND_CANCEL, a client order id, and one cancelled just before', async () => {
    await againstTwin(async (t) => {
      const maker = await t.trader();
      const taker = await t.trader();
      await t.place(maker, { side: 'SELL', limit_price: px(0), base_size: '0.05', client_order_id: 'Ask-One' });
      await t.place(taker, { side: 'BUY', limit_price: px(0), base_size: '0.02' });
      await t.place(maker, { side: 'BUY', limit_price: px(-10), base_size: '0.03', post_only: true, client_order_id: 'po-bid' });
      await t.place(maker, { side: 'SELL', limit_price: px(20), base_size: '0.04', client_order_id: 'dc-maker' });
      // The maker's own smaller buy with DC: cancelled, and the resting ask is decreased by its size.
      await t.placeOverSocket(maker, limitData('buy', px(20), '0.01', { stp: 'DC', client_order_id: 'dc-taker' }), ['cancelled']);
      await t.place(maker, { side: 'BUY', limit_price: px(-20), base_size: '0.01', client_order_id: 'gone' });
      await t.cancel(maker, { client_order_id: 'gone' });
      await t.checkpoint();

      // Client order ids: still taken by the open order whatever the case, free again once done.
      await t.place(maker, { side: 'BUY', limit_price: px(-30), base_size: '0.01', client_order_id: 'ASK-ONE' });
      await t.cancel(maker, { client_order_id: 'GONE' });
      await t.place(maker, { side: 'BUY', limit_price: px(-30), base_size: '0.01', client_order_id: 'GONE' });
      // Fills in the old priority and at the decreased size; a post-only bid still rests as a maker.
      await t.place(taker, { side: 'BUY', limit_price: px(20), base_size: '0.06' });
      await t.place(taker, { side: 'SELL', limit_price: px(-10), base_size: '0.03' });
      await t.checkpoint();
    });
  });

  it('the clock: GTT before its expiry and one expiring while down, scheduled orders coming due later and while down', async () => {
    await againstTwin(async (t) => {
      const maker = await t.trader();
      const taker = await t.trader();
      const at = (seconds: bigint) => String(t.clock + seconds * SECOND);
      await t.place(maker, { side: 'SELL', limit_price: px(5), base_size: '0.01', time_in_force: 'GTT', expired_at: at(20n) });
      await t.place(maker, { side: 'SELL', limit_price: px(6), base_size: '0.01', time_in_force: 'GTT', expired_at: at(2n), client_order_id: 'gtt-soon' });
      await t.place(taker, { side: 'BUY', limit_price: px(5), base_size: '0.004', scheduled_at: at(10n) });
      await t.place(taker, { side: 'BUY', limit_price: px(-3), base_size: '0.02', post_only: true, scheduled_at: at(2n) });
      await t.place(maker, { side: 'SELL', limit_price: px(-3), base_size: '0.01', time_in_force: 'GTT', scheduled_at: at(12n), expired_at: at(30n) });
      // A TWAP and a stop scheduled for after the restart, and a stop that comes due while the venue is down.
      await t.place(taker, { type: 'TWAP', side: 'BUY', limit_price: px(5), base_size: '0.003', scheduled_at: at(8n), expired_at: at(12n) });
      await t.place(maker, { type: 'STOP', side: 'SELL', order_stop_type: 'STOP_LOSS', stop_trigger_price: px(-1), limit_price: px(-4), base_size: '0.002', scheduled_at: at(8n) });
      await t.place(taker, { type: 'STOP', side: 'BUY', order_stop_type: 'STOP_LOSS', stop_trigger_price: px(4), limit_price: '0', base_size: '0.001', scheduled_at: at(3n) });
      await t.checkpoint();
      await t.down(5n * SECOND);
      await t.checkpoint();
      await t.advance(6n * SECOND);
      await t.checkpoint();
      await t.advance(10n * SECOND);
      await t.checkpoint();
      await t.advance(10n * SECOND);
      await t.checkpoint();
    });
  });

  it('a scheduled limit that started and rests behind orders placed after it keeps its place in the queue', async () => {
    await againstTwin(async (t) => {
      const early = await t.trader();
      const late = await t.trader();
      const taker = await t.trader();
      await t.place(early, { side: 'SELL', limit_price: px(0), base_size: '0.01', scheduled_at: String(t.clock + 2n * SECOND) });
      await t.place(late, { side: 'SELL', limit_price: px(0), base_size: '0.01' });
      await t.advance(3n * SECOND);
      await t.checkpoint();
      // The ask that rested first is filled first, before a restart as after it.
      await t.place(taker, { side: 'BUY', limit_price: px(0), base_size: '0.01' });
      await t.checkpoint();
    });
  });

  it('stops waiting for their trigger: stop-loss and take-profit, limit and market, buy and sell', async () => {
    await againstTwin(async (t) => {
      const maker = await t.trader();
      const taker = await t.trader();
      await t.place(maker, { side: 'SELL', limit_price: px(0), base_size: '0.001' });
      await t.place(taker, { side: 'BUY', limit_price: px(0), base_size: '0.001' });
      const stop = { type: 'STOP', base_size: '0.01' };
      await t.place(maker, { ...stop, side: 'SELL', order_stop_type: 'STOP_LOSS', stop_trigger_price: px(-10), limit_price: px(-12) });
      await t.place(maker, { ...stop, side: 'SELL', order_stop_type: 'TAKE_PROFIT', stop_trigger_price: px(10), limit_price: px(8) });
      await t.place(taker, { ...stop, side: 'BUY', order_stop_type: 'STOP_LOSS', stop_trigger_price: px(10), limit_price: '0', base_size: '0.005' });
      await t.place(taker, { ...stop, side: 'BUY', order_stop_type: 'TAKE_PROFIT', stop_trigger_price: px(-10), limit_price: px(-9), client_order_id: 'tp-buy' });
      await t.place(maker, { side: 'SELL', limit_price: px(10), base_size: '0.02' });
      await t.place(taker, { side: 'BUY', limit_price: px(-10), base_size: '0.02' });
      await t.checkpoint();
      await t.place(taker, { side: 'BUY', limit_price: px(10), base_size: '0.001' });
      await t.checkpoint();
      await t.place(maker, { side: 'SELL', limit_price: px(-10), base_size: '0.001' });
      await t.checkpoint();
    });
  });

  it('TWAPs mid-window: capped and uncapped, buying and selling, go on slice by slice', async () => {
    await againstTwin(async (t) => {
      const maker = await t.trader();
      const taker = await t.trader();
      await t.place(maker, { side: 'SELL', limit_price: px(1), base_size: '0.1' });
      await t.place(taker, { side: 'BUY', limit_price: px(-1), base_size: '0.1' });
      // A window a few milliseconds over 10 s, as a client's "10 seconds from now" arrives.
      const end = String(t.clock + 10n * SECOND + 3_000_000n);
      await t.place(maker, { type: 'TWAP', side: 'SELL', limit_price: px(-1), base_size: '0.01', expired_at: end });
      await t.place(maker, { type: 'TWAP', side: 'SELL', limit_price: '0', base_size: '0.007', expired_at: end });
      await t.place(taker, { type: 'TWAP', side: 'BUY', limit_price: px(1), base_size: '0.013', expired_at: end });
      await t.place(taker, { type: 'TWAP', side: 'BUY', limit_price: '0', base_size: '0.01', expired_at: end });
      for (let s = 0; s < 3; s++) await t.advance(SECOND);
      await t.checkpoint();
      for (let s = 0; s < 4; s++) await t.advance(SECOND);
      await t.checkpoint();
      for (let s = 0; s < 5; s++) await t.advance(SECOND);
      await t.checkpoint();
    });
  });

  it('a TWAP whose window is not a whole number of slices slices at the same times after a restart', async () => {
    await againstTwin(async (t) => {
      const maker = await t.trader();
      const taker = await t.trader();
      await t.place(maker, { side: 'SELL', limit_price: px(0), base_size: '0.003' });
      // Three slices 1 s apart (3 s + 2 ns, floored); the window's 2 ns left over must not move the last slice: a
      // restart that worked the interval out again from what was left of the window put it 1 ns after 2 s.
      await t.place(taker, { type: 'TWAP', side: 'BUY', limit_price: px(0), base_size: '0.003', expired_at: String(t.clock + 3n * SECOND + 2n) });
      await t.checkpoint();
      await t.advance(SECOND);
      await t.checkpoint();
      await t.advance(SECOND);
      await t.checkpoint();
      await t.advance(SECOND + 2n);
      await t.checkpoint();
    });
  });

  it('exact quote size and market orders scheduled for later start as they would have', async () => {
    await againstTwin(async (t) => {
      const maker = await t.trader();
      const taker = await t.trader();
      await t.place(maker, { side: 'SELL', limit_price: px(0), base_size: '0.05' });
      await t.place(maker, { side: 'BUY', limit_price: px(-5), base_size: '0.05' });
      const due = String(t.clock + 2n * SECOND);
      await t.place(taker, { side: 'BUY', limit_price: '0', base_size: '0.001', exact_quote_size: '2600000', scheduled_at: due });
      await t.place(taker, { side: 'SELL', limit_price: '0', base_size: '0.001', exact_quote_size: '2400000', scheduled_at: due });
      await t.place(taker, { type: 'MARKET', side: 'BUY', limit_price: '0', base_size: '0.002', scheduled_at: due });
      await t.place(taker, { type: 'MARKET', side: 'SELL', limit_price: '0', quote_size: '1000000', scheduled_at: due });
      await t.place(taker, { type: 'MARKET', side: 'BUY', limit_price: '0', quote_size: '3000000', scheduled_at: due });
      await t.checkpoint();
      await t.advance(3n * SECOND);
      await t.checkpoint();
    });
  });
});
