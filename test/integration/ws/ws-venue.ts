/**
 * The local venue on port 0 with a fresh data folder and chosen WebSocket limits, driven by real WebSocket
 * clients (ws-client) and, for setup and cross-checks, by real HTTP.
 *
 * Every socket a test opens through `connect` is checked after the test: each frame it received must be JSON
 * that VenueMessageSchema accepts, and each order in an update must be a full WebSocket order record.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { ClientOptions } from 'ws';
import type { WsApiOptions } from '../../../src-main/venue/api/ws-api';
import { startVenue } from '../../../src-main/venue/server';
import { WS_ORDER_STATUSES } from '../../../src-shared/protocol/vocabulary';
import { callVenue, type Credentials, type Trader, type WireOrder, type WireOrderBook } from '../harness';
import { TestSocket, type Frame } from './ws-client';

export const BTC = 'BTC-VND';
export const ETH = 'ETH-VND';
export const SOL = 'SOL-VND';

/** BTC-VND prices `ticks` increments (10000 VND) away from 2 500 000 000. */
export function px(ticks = 0): string {
  return String(2_500_000_000 + ticks * 10_000);
}

export interface WsVenue {
  call<T = unknown>(method: 'GET' | 'POST' | 'DELETE', urlPath: string, options?: { key?: Credentials; body?: unknown; query?: Record<string, string> }): Promise<{ status: number; body: T }>;
  newTrader(balances?: Readonly<Record<string, string>>): Promise<Trader>;
  /** A read-only key of the trader, through POST /api-keys. */
  readOnlyKey(owner: Trader): Promise<Credentials>;
  /** A socket checked after the test and closed then. */
  connect(options?: ClientOptions): Promise<TestSocket>;
  /** A socket authenticated as the trader. */
  session(trader: Trader): Promise<TestSocket>;
  activeOrders(trader: Trader, productId?: string): Promise<WireOrder[]>;
  book(productId: string): Promise<WireOrderBook>;
}

const DEFAULT_BALANCES = { BTC: '5', ETH: '50', SOL: '500', VND: '100000000000' } as const;

async function startWsVenue(ws: Partial<WsApiOptions>, opened: TestSocket[], traders: Trader[]): Promise<WsVenue & { close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-ws-'));
  const running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0, ws }).catch((err: unknown) => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  });
  const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8')) as { user_id: string; api_key: string; api_secret: string };
  const admin: Trader = { userId: boot.user_id, creds: { key: boot.api_key, secret: boot.api_secret } };
  const lastTimestamp = new Map<string, number>();

  const call: WsVenue['call'] = (method, urlPath, options = {}) => callVenue(running.baseUrl, method, urlPath, options);

  function ok<T>(reply: { status: number; body: T }): T {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body;
  }

  const venue: WsVenue = {
    call,
    async newTrader(balances = DEFAULT_BALANCES) {
      const body = ok(await call<{ user_id: string; api_key: { api_key: string; api_secret: string } }>('POST', '/sim/users', { key: admin.creds, body: { balances } }));
      const trader = { userId: body.user_id, creds: { key: body.api_key.api_key, secret: body.api_key.api_secret } };
      traders.push(trader);
      return trader;
    },
    async readOnlyKey(owner) {
      const body = ok(await call<{ api_key: { api_key: string; api_secret: string; is_read_only: boolean } }>('POST', '/api-keys', { key: owner.creds, body: { read_only: true } }));
      expect(body.api_key.is_read_only).toBe(true);
      return { key: body.api_key.api_key, secret: body.api_key.api_secret };
    },
    async connect(options) {
      const socket = await TestSocket.open(running.wsUrl, options);
      opened.push(socket);
      return socket;
    },
    async session(trader) {
      const socket = await venue.connect();
      // A signature is the key and the second, and the venue refuses one it has seen (replay): each session
      // of a key signs a second of its own.
      const last = lastTimestamp.get(trader.creds.key) ?? 0;
      const timestamp = Math.max(Math.floor(Date.now() / 1000), last + 1);
      lastTimestamp.set(trader.creds.key, timestamp);
      const answer = await socket.auth(trader.creds.key, trader.creds.secret, timestamp);
      expect(answer, JSON.stringify(answer)).toMatchObject({ channel: 'auth', type: 'authenticated' });
      return socket;
    },
    async activeOrders(trader, productId) {
      const query: Record<string, string> = productId === undefined ? {} : { product_id: productId };
      return ok(await call<{ orders: WireOrder[] }>('GET', '/api/v1/orders/active', { key: trader.creds, query })).orders;
    },
    async book(productId) {
      return ok(await call<{ orderbook: WireOrderBook }>('GET', `/products/${productId}/orderbook`, { query: { depth: '50' } })).orderbook;
    },
  };
  return {
    ...venue,
    close: async () => {
      await running.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One venue for the test file, with these WebSocket limits. After each test every socket it opened is checked
 * (see the file comment) and closed, and every active order of the traders it created is cancelled, so each
 * test starts with empty books.
 */
export function useWsVenue(ws: Partial<WsApiOptions> = {}): () => WsVenue {
  let venue: (WsVenue & { close(): Promise<void> }) | undefined;
  const opened: TestSocket[] = [];
  const traders: Trader[] = [];
  beforeAll(async () => {
    venue = await startWsVenue(ws, opened, traders);
  });
  afterAll(async () => {
    await venue?.close();
  });
  afterEach(() => {
    const sockets = opened.splice(0);
    for (const socket of sockets) socket.terminate();
    for (const socket of sockets) {
      expect(socket.invalid, 'frames the schemas refuse').toEqual([]);
      const problems = socket.frames.filter((f) => f['channel'] === 'orders' && f['type'] === 'update').flatMap(updateProblems);
      expect(problems, 'order records that are not full WebSocket orders').toEqual([]);
    }
  });
  afterEach(async () => {
    // Tests make their own traders, so one cleaned here is not used again.
    for (const trader of traders.splice(0)) {
      const reply = await venue?.call('DELETE', '/api/v1/orders/active/all', { key: trader.creds });
      expect(reply?.status, JSON.stringify(reply?.body)).toBe(200);
    }
  });
  return () => {
    if (venue === undefined) throw new Error('the venue is not started yet');
    return venue;
  };
}

// ---- the orders channel ---------------------------------------------------------------------------------

/** A WebSocket order: the REST record's fields with `id` for `order_id` and the contract's lowercase status. */
export interface WsOrder extends Omit<WireOrder, 'order_id'> {
  id: string;
  /** This venue's additions to the record. */
  fee_total?: string;
  stop_trigger_price?: string;
  order_stop_type?: string;
}

const STRING_FIELDS = [
  'id', 'client_order_id', 'user_id', 'status', 'done_reason', 'product_id', 'side', 'type', 'time_in_force', 'post_only',
  'stp', 'limit_price', 'base_size', 'quote_size', 'exact_quote_size', 'average_fill_price', 'filled_base_size',
  'filled_quote_size', 'maker_fee_rate', 'taker_fee_rate', 'fee_asset_id', 'created_at', 'updated_at',
  'cancel_requested_at', 'expired_at', 'scheduled_at',
] as const;
const NANOS = ['created_at', 'updated_at', 'cancel_requested_at', 'expired_at', 'scheduled_at'] as const;
const DECIMALS = ['limit_price', 'base_size', 'quote_size', 'exact_quote_size', 'average_fill_price', 'filled_base_size', 'filled_quote_size'] as const;

function updateProblems(frame: Frame): string[] {
  if (!Array.isArray(frame['data'])) return [`update data is not an array: ${JSON.stringify(frame).slice(0, 300)}`];
  return (frame['data'] as unknown[]).flatMap(wsOrderProblems);
}

/** What is wrong with a WebSocket order record (checked by hand: a run sees tens of thousands of them). */
function wsOrderProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [`not an order: ${JSON.stringify(value)}`];
  const order = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const f of STRING_FIELDS) if (typeof order[f] !== 'string') problems.push(`${f} is not a string`);
  for (const f of NANOS) if (!/^(0|[1-9]\d*)$/.test(String(order[f]))) problems.push(`${f} is not nanoseconds`);
  for (const f of DECIMALS) if (!/^(0|[1-9]\d*)(\.\d+)?$/.test(String(order[f]))) problems.push(`${f} is not a decimal`);
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(String(order['id']))) problems.push('id is not a UUID');
  if (!(WS_ORDER_STATUSES as readonly unknown[]).includes(order['status'])) problems.push(`status ${String(order['status'])} is not in the contract's vocabulary`);
  if (!Array.isArray(order['trades'])) problems.push('trades is not an array');
  return problems.map((p) => `${p} in ${JSON.stringify(value).slice(0, 300)}`);
}

/** Every order record the socket received for this order id (or client order id), in arrival order. */
export function updatesOf(socket: TestSocket, id: string, from = 0): WsOrder[] {
  const out: WsOrder[] = [];
  for (const frame of socket.frames.slice(from)) {
    if (frame['channel'] !== 'orders' || frame['type'] !== 'update') continue;
    for (const order of frame['data'] as WsOrder[]) if (order.id === id || (order.client_order_id !== '' && order.client_order_id === id)) out.push(order);
  }
  return out;
}

/** The first update (from `from` on) of the order with this client order id whose status is one of `statuses`. */
export async function orderUpdate(socket: TestSocket, clientOrderId: string, statuses: readonly string[], from = 0): Promise<WsOrder> {
  const frame = await socket.next(
    (f) => f['channel'] === 'orders' && f['type'] === 'update' && (f['data'] as WsOrder[]).some((o) => o.client_order_id === clientOrderId && statuses.includes(o.status)),
    5_000,
    from,
  );
  return (frame['data'] as WsOrder[]).find((o) => o.client_order_id === clientOrderId && statuses.includes(o.status)) as WsOrder;
}

/**
 * create_order for this client order id, then its first update with one of `statuses`. An error event
 * answering the request fails at once with the venue's message.
 */
export async function createOrder(socket: TestSocket, data: Frame, statuses: readonly string[]): Promise<WsOrder> {
  const clientOrderId = data['client_order_id'];
  if (typeof clientOrderId !== 'string') throw new Error('createOrder needs a client_order_id to follow the order');
  const from = socket.mark();
  const requestId = `create-${clientOrderId}`;
  socket.send({ op: 'create_order', request_id: requestId, data });
  const refused = socket.next((f) => f['type'] === 'error' && f['request_id'] === requestId, 5_000, from).then((f) => {
    throw new Error(`create_order ${clientOrderId} refused: ${JSON.stringify(f)}`);
  });
  refused.catch(() => undefined);
  return Promise.race([orderUpdate(socket, clientOrderId, statuses, from), refused]);
}

let cids = 0;
/** A client order id no other order of the run uses. */
export function cid(label: string): string {
  return `${label}-${process.pid}-${++cids}`;
}

/** A lowercase BTC-VND limit order as create_order data. */
export function limitData(side: 'buy' | 'sell', price: string, size: string, extra: Frame = {}): Frame {
  return { type: 'limit', side, product_id: BTC, price, size, ...extra };
}

/** The error event answering a request, checked against 7.4: an integer code and a message with the listed text. */
export function expectErrorEvent(frame: Frame, code: number, listed?: string): void {
  const what = JSON.stringify(frame);
  expect(frame['type'], what).toBe('error');
  expect(frame['code'], what).toBe(code);
  expect(frame['message'], what).toMatch(/^E\d{4}_[A-Za-z0-9]+: .+/);
  if (listed !== undefined) expect(frame['message'], what).toContain(listed);
}

/**
 * UNIX nanoseconds `ms` from now, sent by TestSocket as a JSON integer (the interface's type for expired_at and
 * scheduled_at). Rounded to a multiple of 1024, which a double holds exactly at today's magnitudes, so the
 * value is exact whether the venue reads JSON numbers as doubles or as big integers.
 */
export function nanosFromNow(ms: number): bigint {
  const nanos = BigInt(Date.now() + ms) * 1_000_000n;
  return nanos - (nanos % 1024n);
}
