/**
 * The local venue on port 0 with a fresh data folder, driven over real HTTP with global fetch.
 *
 * The record checks below are written from the interface (section 2) and the venue contract, not from the
 * venue's code, so a field the venue forgets or sends with the wrong JSON type fails the test that saw it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startVenue, type RunningVenue } from '../../src-main/venue/server';

export interface Credentials {
  readonly key: string;
  readonly secret: string;
}

export interface Trader {
  readonly userId: string;
  readonly creds: Credentials;
}

export type Method = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

export type Query = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface CallOptions {
  readonly key?: Credentials;
  /** Sent as JSON with content-type application/json. */
  readonly body?: unknown;
  readonly query?: Query;
  /** Sent as is, for requests that must not be well-formed JSON. */
  readonly rawBody?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Reply<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body (unchecked: assert its shape before trusting the type), or the text when not JSON. */
  readonly body: T;
}

export interface TestVenue {
  /** Changes on restart: the venue comes back on a new free port. */
  readonly baseUrl: string;
  readonly dataDir: string;
  readonly running: RunningVenue;
  /** The bootstrap "local user": funded, the venue's admin. */
  readonly admin: Trader;
  call<T = unknown>(method: Method, urlPath: string, options?: CallOptions): Promise<Reply<T>>;
  /** A new user funded through POST /sim/users, e.g. { BTC: '1', VND: '100000000' }. */
  newTrader(balances: Readonly<Record<string, string>>): Promise<Trader>;
  /** Cancel every active order of every trader this harness knows, so the next test starts with empty books. */
  cancelEverything(): Promise<void>;
  /** Stop the venue and start it again on the same data folder. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

interface BootstrapFile {
  user_id: string;
  api_key: string;
  api_secret: string;
  base_url: string;
  ws_url: string;
}

export interface TestVenueOptions {
  /** Per key and second; 0 (the default here) is unlimited. */
  readonly orderRate?: number;
  readonly requestRate?: number;
  readonly maxOpenOrders?: number;
}

/** One request to the venue at baseUrl, with the key's headers and a JSON (or raw) body; JSON answers parsed. */
export async function callVenue<T = unknown>(baseUrl: string, method: string, urlPath: string, options: CallOptions = {}): Promise<Reply<T>> {
  const url = new URL(urlPath, baseUrl);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value === undefined) continue;
    for (const v of typeof value === 'string' ? [value] : value) url.searchParams.append(name, v);
  }
  const headers: Record<string, string> = {};
  if (options.key !== undefined) {
    headers['NOVA-KEY'] = options.key.key;
    headers['NOVA-SECRET'] = options.key.secret;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  } else if (options.rawBody !== undefined) {
    body = options.rawBody;
  }
  Object.assign(headers, options.headers);
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('application/json')) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export async function startTestVenue(options: TestVenueOptions = {}): Promise<TestVenue> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-rest-'));
  const start = () =>
    startVenue({
      port: 0,
      dataDir,
      orderRate: options.orderRate ?? 0,
      requestRate: options.requestRate ?? 0,
      ...(options.maxOpenOrders === undefined ? {} : { maxOpenOrders: options.maxOpenOrders }),
    });
  let running = await start();
  const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8')) as BootstrapFile;
  const admin: Trader = { userId: boot.user_id, creds: { key: boot.api_key, secret: boot.api_secret } };
  const traders: Trader[] = [admin];

  const call = <T = unknown>(method: Method, urlPath: string, options: CallOptions = {}): Promise<Reply<T>> =>
    callVenue<T>(running.baseUrl, method, urlPath, options);

  async function newTrader(balances: Readonly<Record<string, string>>): Promise<Trader> {
    const reply = await call<{ user_id: string; api_key: { api_key: string; api_secret: string } }>('POST', '/sim/users', {
      key: admin.creds,
      body: { balances },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const trader = { userId: reply.body.user_id, creds: { key: reply.body.api_key.api_key, secret: reply.body.api_key.api_secret } };
    traders.push(trader);
    return trader;
  }

  async function cancelEverything(): Promise<void> {
    for (const trader of traders) {
      const reply = await call('DELETE', '/api/v1/orders/active/all', { key: trader.creds });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
  }

  return {
    get baseUrl() {
      return running.baseUrl;
    },
    dataDir,
    get running() {
      return running;
    },
    admin,
    call,
    newTrader,
    cancelEverything,
    restart: async () => {
      await running.close();
      running = await start();
    },
    close: async () => {
      await running.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One venue for the test file: started before the first test, closed after the last. With `cleanBooks`, every
 * test ends by cancelling all active orders so resting orders never leak into the next test.
 */
export function useVenue(options: TestVenueOptions & { cleanBooks?: boolean } = {}): () => TestVenue {
  let venue: TestVenue | undefined;
  beforeAll(async () => {
    venue = await startTestVenue(options);
  });
  afterAll(async () => {
    await venue?.close();
  });
  if (options.cleanBooks === true) {
    afterEach(async () => {
      await venue?.cancelEverything();
    });
  }
  return () => {
    if (venue === undefined) throw new Error('the venue is not started yet');
    return venue;
  };
}

// ---- polling ------------------------------------------------------------------------------------------------

import { eventually } from './eventually';

export { eventually };

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** UNIX nanoseconds `ms` from now, as the digit string the API takes. */
export function nanosFromNow(ms: number): string {
  return (BigInt(Date.now() + ms) * 1_000_000n).toString();
}

// ---- exact amounts --------------------------------------------------------------------------------------------

export const DECIMALS: Readonly<Record<string, number>> = { BTC: 8, ETH: 8, SOL: 8, VND: 0 };

/** "1.5" with 8 decimals is 150000000n; refuses anything with more digits than the asset has. */
export function atoms(text: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) throw new Error(`not a plain decimal: ${text}`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) throw new Error(`${text} has more than ${decimals} decimals`);
  return BigInt((match[1] ?? '0') + fraction.padEnd(decimals, '0'));
}

/** The quote atoms of price × size, which the product's increments make whole. */
export function notional(price: string, size: string, baseDecimals = 8): bigint {
  const product = atoms(price, 0) * atoms(size, baseDecimals);
  const scale = 10n ** BigInt(baseDecimals);
  if (product % scale !== 0n) throw new Error(`${price} × ${size} is not a whole quote amount`);
  return product / scale;
}

// ---- records of the interface (section 2) and the contract ------------------------------------------------

export interface WireTrade {
  id: string;
  price: string;
  size: string;
  liquidity_indicator: string;
  time: string;
  fee_asset: string;
  fee_amount: string;
}

export interface WireOrder {
  order_id: string;
  client_order_id: string;
  user_id: string;
  status: string;
  done_reason: string;
  /** The contract's error reference of a rejected order. */
  reject_reason: string;
  product_id: string;
  side: string;
  type: string;
  time_in_force: string;
  post_only: string;
  stp: string;
  limit_price: string;
  base_size: string;
  quote_size: string;
  exact_quote_size: string;
  average_fill_price: string;
  filled_base_size: string;
  filled_quote_size: string;
  maker_fee_rate: string;
  taker_fee_rate: string;
  fee_asset_id: string;
  created_at: string;
  updated_at: string;
  cancel_requested_at: string;
  expired_at: string;
  scheduled_at: string;
  trades: WireTrade[];
}

export interface WireBalance {
  asset: string;
  balance: string;
  free: string;
  locked: string;
}

export interface WireAccount {
  id: string;
  maker_fee_rate: string;
  taker_fee_rate: string;
  asset_balances: WireBalance[];
  stats: {
    order_stats: {
      total_orders: string;
      total_done_orders: string;
      total_open_orders: string;
      total_pending_orders: string;
      total_accepted_orders: string;
    };
    trading_stats: { total_trading_volume: string };
  };
}

export interface WireApiKey {
  api_key: string;
  api_secret?: string;
  name: string;
  created_at: string;
  expired_at: string;
  is_read_only: boolean;
}

export interface WireErrorCode {
  ref: string;
  code: string;
  category: string;
  grpc_code: string;
  title: string;
  message: string;
  action: string;
  severity: string;
  retry_allowed: boolean;
  http_status: number;
}

export interface WireProduct {
  id: string;
  base_asset_id: string;
  quote_asset_id: string;
  price_increment: string;
  size_increment: string;
  min_size: string;
  max_size: string;
  min_notional: string;
  status: string;
}

export interface WireLevel {
  price: string;
  size: string;
  order_count: number;
}

export interface WireOrderBook {
  product_id: string;
  sequence: unknown;
  time: string;
  bids: WireLevel[];
  asks: WireLevel[];
}

export interface WirePublicTrade {
  id: string;
  product_id: string;
  price: string;
  size: string;
  side: string;
  time: string;
}

const ORDER_STRING_FIELDS = [
  'order_id', 'client_order_id', 'user_id', 'status', 'done_reason', 'product_id', 'side', 'type', 'time_in_force',
  'post_only', 'stp', 'limit_price', 'base_size', 'quote_size', 'exact_quote_size', 'average_fill_price',
  'filled_base_size', 'filled_quote_size', 'maker_fee_rate', 'taker_fee_rate', 'fee_asset_id', 'created_at',
  'updated_at', 'cancel_requested_at', 'expired_at', 'scheduled_at',
] as const;
const ORDER_DECIMAL_FIELDS = [
  'limit_price', 'base_size', 'quote_size', 'exact_quote_size', 'average_fill_price', 'filled_base_size',
  'filled_quote_size', 'maker_fee_rate', 'taker_fee_rate',
] as const;
const ORDER_TIME_FIELDS = ['created_at', 'updated_at', 'cancel_requested_at', 'expired_at', 'scheduled_at'] as const;
const TRADE_STRING_FIELDS = ['id', 'price', 'size', 'liquidity_indicator', 'time', 'fee_asset', 'fee_amount'] as const;

const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;
const DIGITS = /^(0|[1-9]\d*)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function expectStrings(value: Record<string, unknown>, fields: readonly string[], what: string): void {
  for (const field of fields) expect(typeof value[field], `${what}.${field} is a string`).toBe('string');
}

export function expectOrderRecord(value: unknown): WireOrder {
  if (!isRecord(value)) throw new Error(`expected an order object, got ${JSON.stringify(value)}`);
  expectStrings(value, ORDER_STRING_FIELDS, 'order');
  expect(['true', 'false'], 'order.post_only holds a boolean').toContain(value.post_only);
  for (const f of ORDER_DECIMAL_FIELDS) expect(value[f], `order.${f} is a decimal string`).toMatch(DECIMAL);
  for (const f of ORDER_TIME_FIELDS) expect(value[f], `order.${f} is nanoseconds`).toMatch(DIGITS);
  expect(value.order_id).toMatch(UUID);
  expect(['SUBMITTED', 'ACTIVE', 'DONE', 'SCHEDULED']).toContain(value.status);
  expect(['BUY', 'SELL']).toContain(value.side);
  expect(['LIMIT', 'MARKET', 'STOP', 'TWAP']).toContain(value.type);
  expect(['GTC', 'IOC', 'FOK', 'GTT']).toContain(value.time_in_force);
  expect(['CANCEL_TAKER', 'CANCEL_MAKER', 'CANCEL_BOTH']).toContain(value.stp);
  if (value.status === 'DONE') expect(['FILLED', 'CANCELED', 'EXPIRED', 'REJECTED']).toContain(value.done_reason);
  expect(Array.isArray(value.trades), 'order.trades is an array').toBe(true);
  for (const trade of value.trades as unknown[]) {
    if (!isRecord(trade)) throw new Error(`expected a trade object, got ${JSON.stringify(trade)}`);
    expectStrings(trade, TRADE_STRING_FIELDS, 'order.trades[]');
    expect(trade.price).toMatch(DECIMAL);
    expect(trade.size).toMatch(DECIMAL);
    expect(trade.fee_amount).toMatch(DECIMAL);
    expect(trade.time).toMatch(DIGITS);
  }
  return value as unknown as WireOrder;
}

export function expectAccountRecord(value: unknown): WireAccount {
  if (!isRecord(value)) throw new Error(`expected an account object, got ${JSON.stringify(value)}`);
  expectStrings(value, ['id', 'maker_fee_rate', 'taker_fee_rate'], 'account');
  expect(Array.isArray(value.asset_balances)).toBe(true);
  for (const b of value.asset_balances as unknown[]) {
    if (!isRecord(b)) throw new Error('asset_balances[] is not an object');
    expectStrings(b, ['asset', 'balance', 'free', 'locked'], 'account.asset_balances[]');
    for (const f of ['balance', 'free', 'locked']) expect(b[f]).toMatch(DECIMAL);
  }
  const stats = value.stats;
  if (!isRecord(stats) || !isRecord(stats.order_stats) || !isRecord(stats.trading_stats)) {
    throw new Error(`account.stats is malformed: ${JSON.stringify(stats)}`);
  }
  const counters = ['total_orders', 'total_done_orders', 'total_open_orders', 'total_pending_orders', 'total_accepted_orders'];
  expectStrings(stats.order_stats, counters, 'account.stats.order_stats');
  for (const c of counters) expect(stats.order_stats[c]).toMatch(DIGITS);
  expectStrings(stats.trading_stats, ['total_trading_volume'], 'account.stats.trading_stats');
  return value as unknown as WireAccount;
}

export function expectApiKeyRecord(value: unknown, withSecret: boolean): WireApiKey {
  if (!isRecord(value)) throw new Error(`expected an api_key object, got ${JSON.stringify(value)}`);
  expectStrings(value, ['api_key', 'name', 'created_at', 'expired_at'], 'api_key');
  expect(typeof value.is_read_only, 'api_key.is_read_only is a boolean').toBe('boolean');
  expect(value.created_at).toMatch(DIGITS);
  expect(value.expired_at).toMatch(DIGITS);
  if (withSecret) expect(typeof value.api_secret).toBe('string');
  return value as unknown as WireApiKey;
}

export function expectErrorCodeRecord(value: unknown): WireErrorCode {
  if (!isRecord(value)) throw new Error(`expected an error-code record, got ${JSON.stringify(value)}`);
  expectStrings(value, ['ref', 'code', 'category', 'grpc_code', 'title', 'message', 'action', 'severity'], 'error code');
  expect(typeof value.retry_allowed).toBe('boolean');
  expect(Number.isInteger(value.http_status)).toBe(true);
  expect(value.ref).toMatch(/^E\d{4}_[A-Za-z0-9]+$/);
  expect((value.ref as string).startsWith(`${value.code as string}_`)).toBe(true);
  expect(['auth', 'validation', 'trading', 'account', 'market', 'rate_limit', 'funding', 'system']).toContain(value.category);
  expect(['retry', 'redirect_login', 'contact_support', 'none']).toContain(value.action);
  expect(['error', 'warning', 'info']).toContain(value.severity);
  return value as unknown as WireErrorCode;
}

/**
 * The interface's error object: `{ error: { code, message: "E<number>_<Reference>: ..." } }`. `code` defaults to
 * the gRPC-style name the interface's error guide shows for the reference's kind.
 */
export function expectError(reply: Reply, status: number, ref: string, code?: string): void {
  const body = reply.body;
  const context = `${status} ${ref}, got ${reply.status} ${JSON.stringify(body)}`;
  expect(reply.status, context).toBe(status);
  if (!isRecord(body) || !isRecord(body.error)) throw new Error(`not an error object: ${context}`);
  expect(Object.keys(body).sort(), context).toEqual(['error']);
  expect(typeof body.error.code, context).toBe('string');
  expect(typeof body.error.message, context).toBe('string');
  expect(body.error.message as string, context).toMatch(new RegExp(`^${ref}: .+`));
  if (code !== undefined) expect(body.error.code, context).toBe(code);
}

/** An expected 200 with its JSON body. */
export function expectOk<T>(reply: Reply<T>): T {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

// ---- typed shortcuts for the endpoints most tests go through ------------------------------------------------

export const BTC = 'BTC-VND';
/** A plausible BTC-VND price: 250000 ticks of 10000 VND. */
export const P = 2_500_000_000;
/** BTC-VND prices as strings, `ticks` price increments away from P. */
export function px(ticks = 0): string {
  return String(P + ticks * 10_000);
}

export type OrderBody = Readonly<Record<string, unknown>>;

/** POST /api/v1/orders, expecting HTTP 200 and a well-formed order. `wait` defaults to true here. */
export async function placeOrder(v: TestVenue, trader: Trader, body: OrderBody): Promise<WireOrder> {
  const reply = await v.call<{ order: unknown }>('POST', '/api/v1/orders', { key: trader.creds, body: { wait: true, ...body } });
  return expectOrderRecord(expectOk(reply).order);
}

/** A resting GTC limit order on BTC-VND. */
export function limit(side: 'BUY' | 'SELL', price: string, size: string, extra: OrderBody = {}): OrderBody {
  return { product_id: BTC, side, limit_price: price, base_size: size, ...extra };
}

/** GET /api/v1/order/archived?order=... */
export async function getOrder(v: TestVenue, trader: Trader, order: string): Promise<WireOrder> {
  const reply = await v.call<{ order: unknown }>('GET', '/api/v1/order/archived', { key: trader.creds, query: { order } });
  return expectOrderRecord(expectOk(reply).order);
}

export async function activeOrders(v: TestVenue, trader: Trader, query: Query = {}): Promise<WireOrder[]> {
  const reply = await v.call<{ orders: unknown[] }>('GET', '/api/v1/orders/active', { key: trader.creds, query });
  return expectOk(reply).orders.map(expectOrderRecord);
}

export async function archivedOrders(v: TestVenue, trader: Trader, query: Query = {}): Promise<WireOrder[]> {
  const reply = await v.call<{ orders: unknown[] }>('GET', '/api/v1/orders/archived', { key: trader.creds, query });
  return expectOk(reply).orders.map(expectOrderRecord);
}

export async function getAccount(v: TestVenue, trader: Trader): Promise<WireAccount> {
  const reply = await v.call<{ account: unknown }>('GET', `/accounts/${trader.userId}`, { key: trader.creds });
  return expectAccountRecord(expectOk(reply).account);
}

/** One asset's balance in atoms. */
export function balanceOf(account: WireAccount, asset: string): { balance: bigint; free: bigint; locked: bigint } {
  const entry = account.asset_balances.find((b) => b.asset === asset);
  if (entry === undefined) throw new Error(`account ${account.id} shows no ${asset} balance`);
  const d = DECIMALS[asset];
  if (d === undefined) throw new Error(`unknown asset ${asset}`);
  return { balance: atoms(entry.balance, d), free: atoms(entry.free, d), locked: atoms(entry.locked, d) };
}

/** Free plus locked of one asset, in atoms. */
export async function holding(v: TestVenue, trader: Trader, asset: string): Promise<bigint> {
  return balanceOf(await getAccount(v, trader), asset).balance;
}

/** Poll GET /api/v1/order/archived until the order reaches `status`. */
export function orderReaches(v: TestVenue, trader: Trader, orderId: string, status: string, timeoutMs?: number): Promise<WireOrder> {
  return eventually(
    async () => {
      const order = await getOrder(v, trader, orderId);
      return order.status === status ? order : undefined;
    },
    `order ${orderId} to be ${status}`,
    timeoutMs,
  );
}
