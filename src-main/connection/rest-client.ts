/**
 * The venue's REST API (interface section 4, the contract's public records and /sim endpoints) as one typed
 * method per endpoint. The same client talks to the embedded local venue and to the development and
 * production environments: every answer arrives as unknown and is parsed with the shared record schemas.
 *
 * Failures are VenueError (refused, with the catalogue's explanation), OutcomeUnknownError (maybe acted on),
 * VenueUnreachableError (not sent) or VenueProtocolError (not the API's format); see venue-error.ts.
 *
 * Retries: a rate-limit refusal is retried after Retry-After, and a call that could not be sent at all with
 * backoff (every call: the venue did nothing); a read whose answer was lost is retried with backoff; a write
 * whose answer was lost is not, except order placement, which first looks the order up by its
 * client_order_id so that it is never placed twice. An order placement waits for the rate limits only while it
 * would still go out within orderRateWaitMs of the call: past that it is refused at once with the venue's
 * rate-limit error and its Retry-After, so the trader decides rather than an order leaving seconds later. A
 * cancel waits longer (cancelRateWaitMs): the trader wants out, and a cancel that lands late risks less than an
 * order that does; but not for ever, on a Retry-After of minutes or one a gateway mangled, with nothing said. Nor
 * does a read (rateWaitMs, a minute).
 */
import { z } from 'zod';
import {
  AccountResponseSchema,
  ApiKeyResponseSchema,
  AssetsResponseSchema,
  BulkCancelResponseSchema,
  CancelAllResponseSchema,
  ErrorCodesResponseSchema,
  OrderBookResponseSchema,
  OrderResponseSchema,
  OrdersResponseSchema,
  ProductsResponseSchema,
  SimDepositResponseSchema,
  SimUserResponseSchema,
  TradesResponseSchema,
  type Account,
  type ApiKey,
  type Asset,
  type BulkCancelResponse,
  type CancelAllResponse,
  type ErrorCode,
  type Order,
  type OrderBook,
  type Product,
  type PublicTrade,
} from '../../src-shared/protocol/records';
import type {
  ArchivedSort,
  OrderSide,
  OrderStatus,
  OrderType,
  StopType,
  TimeInForce,
} from '../../src-shared/protocol/vocabulary';
import { errorRecord } from '../../src-shared/errors/catalogue';
import { newClientOrderId, sameClientOrderId } from '../../src-shared/client-order-id';
import { backoffDelay, sleep, type BackoffPolicy } from './backoff';
import { Emitter, type Event } from './events';
import { RateGate, RateWaitTooLong, type RateBudget } from './rate-gate';
import {
  OutcomeUnknownError,
  VenueError,
  VenueProtocolError,
  VenueUnreachableError,
  failureFromResponse,
  type PlacementIdentity,
  type UnknownOutcomeReason,
} from './venue-error';

export interface VenueCredentials {
  readonly apiKey: string;
  readonly apiSecret: string;
}

export interface VenueRestClientOptions {
  /** http://127.0.0.1:8787, or an environment's base address. */
  readonly baseUrl: string;
  readonly credentials?: VenueCredentials;
  /** How long one attempt may take, answer included. */
  readonly timeoutMs?: number;
  /** Further attempts after the first, for rate limits, reads lost on the network and unplaced orders. */
  readonly maxRetries?: number;
  /** Between network retries. */
  readonly retryBackoff?: BackoffPolicy;
  /**
   * How long to let an order whose answer was lost settle at the venue before looking it up, so a request
   * still queued there is not mistaken for one that never arrived.
   */
  readonly settleMs?: number;
  /**
   * The longest an order placement may be held back by the venue's rate limits (its Retry-After, the gate's
   * jitter) counted from the call; a placement that would go out later is refused at once instead.
   */
  readonly orderRateWaitMs?: number;
  /** The same bound for a cancel (one order, a list, or all). */
  readonly cancelRateWaitMs?: number;
  /**
   * The same bound for every other call (reads, keys): long enough to wait out any Retry-After a venue means, not
   * one a gateway mangled into years, which would hold the read (and every panel waiting on it) without a word.
   */
  readonly rateWaitMs?: number;
  readonly random?: () => number;
}

// ---- request shapes (interface 4.x; strings for every number, as on the wire)

export interface PlaceOrderRequest {
  readonly product_id: string;
  readonly side: OrderSide;
  readonly type?: OrderType;
  readonly limit_price?: string;
  readonly base_size?: string;
  readonly quote_size?: string;
  readonly exact_quote_size?: string;
  readonly time_in_force?: TimeInForce;
  readonly post_only?: boolean;
  readonly stp?: 'CANCEL_TAKER' | 'CANCEL_MAKER' | 'CANCEL_BOTH';
  readonly order_stop_type?: StopType;
  readonly stop_trigger_price?: string;
  /** Generated when absent: the handle by which an order whose answer was lost is found again. */
  readonly client_order_id?: string;
  /** UNIX nanoseconds. */
  readonly expired_at?: string;
  readonly scheduled_at?: string;
  /** Answer once the engine has processed the order (ACTIVE, DONE or SCHEDULED) rather than SUBMITTED. */
  readonly wait?: boolean;
}

export type OrderSelection = { readonly order_id: string } | { readonly client_order_id: string };

export type BulkCancelSelection =
  | { readonly product_ids: readonly string[] }
  | { readonly order_ids: readonly string[] }
  | { readonly client_order_ids: readonly string[] };

export interface ActiveOrdersFilter {
  readonly product_id?: string;
  readonly client_order_id?: string;
}

export interface OrderHistoryFilter {
  readonly product_ids?: readonly string[];
  /** UNIX nanoseconds, inclusive. */
  readonly start_time?: string;
  readonly end_time?: string;
  /** 1 to 1000; the venue's default is 100. */
  readonly limit?: number;
  readonly status?: OrderStatus;
  readonly sort?: ArchivedSort;
  readonly client_order_id?: string;
}

export interface CreateApiKeyRequest {
  readonly name?: string;
  readonly read_only?: boolean;
  /** UNIX nanoseconds, or "0" for never. */
  readonly expiration_time?: string;
}

export interface ErrorCodesFilter {
  readonly category?: string;
  readonly ref?: string;
}

export interface SimUser {
  readonly user_id: string;
  readonly api_key: ApiKey;
}

/** One attempt at one call, as it went: for the desk's network log and for tests. Never holds a secret. */
export interface RequestAttempt {
  /** "POST /api/v1/orders": method and path, no query. */
  readonly operation: string;
  /** 0 for the first attempt. */
  readonly attempt: number;
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly outcome: 'ok' | 'refused' | 'rate_limited' | 'outcome_unknown' | 'unreachable';
  readonly httpStatus?: number;
  readonly retryAfterMs?: number;
}

/** A placement whose answer was lost, and what looking it up found. */
export interface PlacementRecovery {
  readonly clientOrderId: string;
  readonly reason: UnknownOutcomeReason;
  /** The order the venue holds under that client_order_id, or undefined when it has none (it is resent). */
  readonly found: Order | undefined;
}

type Query = Readonly<Record<string, string | number | readonly string[] | undefined>>;

interface Call<S extends z.ZodType> {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly schema: S;
  readonly query?: Query;
  readonly body?: unknown;
  readonly auth: boolean;
  /** Safe to send again after a network failure: reads. */
  readonly idempotent: boolean;
  readonly budgets: readonly RateBudget[];
  /** Set for order placement and cancels: how long, from the call, the rate limits may hold it back before it is refused. */
  readonly maxRateWaitMs?: number;
  /** The latest time (epoch ms) the rate limits may hold it back to, given by the caller; else maxRateWaitMs's. */
  readonly latest?: number | undefined;
  /** Told when each attempt starts its timeout (epoch ms): an order placement's lifetime counts from there. */
  readonly onAttempt?: (startedAt: number) => void;
}

/** For a call made on an order's behalf: no later than this (epoch ms) may the rate limits hold it back. */
export interface RateBound {
  readonly latest?: number;
}

const DEFAULTS = {
  timeoutMs: 10_000,
  maxRetries: 3,
  retryBackoff: { initialMs: 200, maxMs: 2_000 },
  settleMs: 1_000,
  orderRateWaitMs: 2_000,
  cancelRateWaitMs: 10_000,
  rateWaitMs: 60_000,
} as const;

/** A generous clock difference between the desk and the venue, for telling our order from an older namesake. */
const CLOCK_SKEW_NS = 60_000_000_000n;

/**
 * Whether `order` (the venue's newest under the client_order_id) is the one `placement` made. An older order
 * that used the same client_order_id (free again once that order is done) is not: taken for it, a placement
 * that never happened would be reported placed.
 */
function isPlacementOf(order: Order, placement: PlacementIdentity): boolean {
  return (
    sameClientOrderId(order.client_order_id, placement.clientOrderId) &&
    order.product_id === placement.productId &&
    order.side === placement.side &&
    BigInt(order.created_at) >= placement.sentAfterNs - CLOCK_SKEW_NS &&
    !placement.earlierOrderIds.has(order.order_id)
  );
}

const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export class VenueRestClient {
  readonly baseUrl: string;
  readonly #credentials: VenueCredentials | undefined;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBackoff: BackoffPolicy;
  private readonly settleMs: number;
  private readonly orderRateWaitMs: number;
  private readonly cancelRateWaitMs: number;
  private readonly rateWaitMs: number;
  private readonly random: () => number;
  private readonly gate: RateGate;

  private readonly _onDidAttempt = new Emitter<RequestAttempt>();
  readonly onDidAttempt: Event<RequestAttempt> = this._onDidAttempt.event;
  private readonly _onDidRecoverPlacement = new Emitter<PlacementRecovery>();
  /** An order placement lost its answer and was looked up: found, or not (it is not sent again). */
  readonly onDidRecoverPlacement: Event<PlacementRecovery> = this._onDidRecoverPlacement.event;

  constructor(options: VenueRestClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#credentials = options.credentials;
    this.timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
    this.retryBackoff = options.retryBackoff ?? DEFAULTS.retryBackoff;
    this.settleMs = options.settleMs ?? DEFAULTS.settleMs;
    this.orderRateWaitMs = options.orderRateWaitMs ?? DEFAULTS.orderRateWaitMs;
    this.cancelRateWaitMs = options.cancelRateWaitMs ?? DEFAULTS.cancelRateWaitMs;
    this.rateWaitMs = options.rateWaitMs ?? DEFAULTS.rateWaitMs;
    this.random = options.random ?? Math.random;
    this.gate = new RateGate({ random: this.random });
  }

  /**
   * The latest an order the trader sends now may go out (orderRateWaitMs from now): the reads made for it before
   * it is sent (its pre-trade checks) are held to it too, or their wait for a rate limit would send it late.
   */
  orderDeadline(): number {
    return Date.now() + this.orderRateWaitMs;
  }

  get hasCredentials(): boolean {
    return this.#credentials !== undefined;
  }

  /** Keys and secrets stay out of every printout of the client. */
  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  dispose(): void {
    this._onDidAttempt.dispose();
    this._onDidRecoverPlacement.dispose();
  }

  // ---- API keys (4.1)

  async createApiKey(request: CreateApiKeyRequest = {}): Promise<ApiKey> {
    const answer = await this.send({ method: 'POST', path: '/api-keys', schema: ApiKeyResponseSchema, body: request, auth: true, idempotent: false, budgets: ['requests'] });
    return answer.api_key;
  }

  /**
   * DELETE /api-keys/{api_key}: the local venue's addition (the interface names no way to revoke a key). The
   * key stops working at once; the venue answers with the key.
   */
  async revokeApiKey(apiKey: string): Promise<ApiKey> {
    const answer = await this.send({ method: 'DELETE', path: `/api-keys/${encodeURIComponent(apiKey)}`, schema: ApiKeyResponseSchema, auth: true, idempotent: true, budgets: ['requests'] });
    return answer.api_key;
  }

  // ---- orders (4.2-4.8)

  /**
   * POST /api/v1/orders, sent once. When the answer is lost (timeout, dropped connection) the order is looked up
   * by its client_order_id once the venue has had time to place it: found, it is returned. Not found, it is not
   * sent again: "not found" cannot tell a request that never arrived from one still on its way, and an order
   * that traded at once frees its client_order_id, so a resend could trade a second time. OutcomeUnknownError
   * then carries the placement as sent (its client_order_id, product, side and time), for the caller to look up
   * later with lookUpPlacement (the session does), and the time past which the request can no longer arrive: only
   * a lookup after it that finds nothing means "not placed".
   * `earlierOrderIds`: orders the caller already holds under request.client_order_id, which the lookup never takes
   * for this placement's.
   */
  async placeOrder(request: PlaceOrderRequest, bound: RateBound = {}, earlierOrderIds: ReadonlySet<string> = new Set()): Promise<Order> {
    const clientOrderId = request.client_order_id ?? newClientOrderId();
    const body = { ...request, client_order_id: clientOrderId };
    const sentAfterNs = BigInt(Date.now()) * 1_000_000n;
    let attemptedAt = Date.now();
    try {
      const answer = await this.send({
        method: 'POST',
        path: '/api/v1/orders',
        schema: OrderResponseSchema,
        body,
        auth: true,
        idempotent: false,
        budgets: ['requests', 'orders'],
        maxRateWaitMs: this.orderRateWaitMs,
        latest: bound.latest,
        onAttempt: (at) => {
          attemptedAt = at;
        },
      });
      return answer.order;
    } catch (err) {
      // A success whose body is not an order (a proxy's page, a venue newer than this build), or the venue's
      // E0901 (a fault inside the command keeps what it did before: docs/api.md), tells no more than a lost
      // answer: the order may be live, and "internal error, retry allowed" would have the trader send it again.
      const reason =
        err instanceof OutcomeUnknownError
          ? err.reason
          : err instanceof VenueProtocolError
            ? 'unreadable'
            : err instanceof VenueError && err.code === 'E0901'
              ? 'venue_fault'
              : undefined;
      if (reason === undefined) throw err;
      // An answer lost early (a dropped connection, a gateway's 502) says nothing of the request itself: a slow
      // link or a gateway may still hand it to the venue until this client gives up on it, at its timeout.
      const sent = { clientOrderId, productId: body.product_id, side: body.side, sentAfterNs, earlierOrderIds };
      const settlesBy = attemptedAt + this.timeoutMs + this.settleMs;
      await sleep(this.settleMs);
      let found: Order | undefined;
      try {
        found = await this.lookUpPlacement(sent);
      } catch {
        throw new OutcomeUnknownError('POST /api/v1/orders', reason, { ...sent, settlesBy, lookup: 'failed' });
      }
      this._onDidRecoverPlacement.fire({ clientOrderId, reason, found });
      if (found !== undefined) return found;
      throw new OutcomeUnknownError('POST /api/v1/orders', reason, { ...sent, settlesBy, lookup: 'not_found' });
    }
  }

  /**
   * The order `placement` made, or undefined when the venue holds none from it: none under its client_order_id,
   * or only an older one's. Throws when the venue cannot be asked. The one lookup of a lost placement, whether
   * made at once by placeOrder or later by whoever holds the OutcomeUnknownError's placement.
   */
  async lookUpPlacement(placement: PlacementIdentity): Promise<Order | undefined> {
    let order: Order;
    try {
      order = await this.getOrder(placement.clientOrderId);
    } catch (err) {
      if (err instanceof VenueError && err.ref === 'E0301_OrderNotFound') return undefined;
      throw err;
    }
    return isPlacementOf(order, placement) ? order : undefined;
  }

  async listActiveOrders(filter: ActiveOrdersFilter = {}): Promise<Order[]> {
    const answer = await this.send({ method: 'GET', path: '/api/v1/orders/active', schema: OrdersResponseSchema, query: { ...filter }, auth: true, idempotent: true, budgets: ['requests'] });
    return answer.orders;
  }

  /** DELETE /api/v1/order/active: the order, DONE, on success. */
  async cancelOrder(selection: OrderSelection): Promise<Order> {
    const answer = await this.send({ method: 'DELETE', path: '/api/v1/order/active', schema: OrderResponseSchema, query: { ...selection }, auth: true, idempotent: false, budgets: ['requests'], maxRateWaitMs: this.cancelRateWaitMs });
    return answer.order;
  }

  /** DELETE /api/v1/orders/active with exactly one list (at most 100 ids). */
  async cancelOrders(selection: BulkCancelSelection): Promise<BulkCancelResponse> {
    return this.send({ method: 'DELETE', path: '/api/v1/orders/active', schema: BulkCancelResponseSchema, body: selection, auth: true, idempotent: false, budgets: ['requests'], maxRateWaitMs: this.cancelRateWaitMs });
  }

  /** DELETE /api/v1/orders/active/all, of one product or of all. */
  async cancelAllOrders(productId?: string): Promise<CancelAllResponse> {
    return this.send({ method: 'DELETE', path: '/api/v1/orders/active/all', schema: CancelAllResponseSchema, query: { product_id: productId }, auth: true, idempotent: false, budgets: ['requests'], maxRateWaitMs: this.cancelRateWaitMs });
  }

  /** GET /api/v1/orders/archived: orders of any status. */
  async listOrderHistory(filter: OrderHistoryFilter = {}): Promise<Order[]> {
    const answer = await this.send({ method: 'GET', path: '/api/v1/orders/archived', schema: OrdersResponseSchema, query: { ...filter }, auth: true, idempotent: true, budgets: ['requests'] });
    return answer.orders;
  }

  /** GET /api/v1/order/archived: by order id, else the newest order with that client order id. */
  async getOrder(orderIdOrClientOrderId: string): Promise<Order> {
    const answer = await this.send({ method: 'GET', path: '/api/v1/order/archived', schema: OrderResponseSchema, query: { order: orderIdOrClientOrderId }, auth: true, idempotent: true, budgets: ['requests'] });
    return answer.order;
  }

  // ---- account (4.9) and error codes (4.10)

  async getAccount(userId: string): Promise<Account> {
    const answer = await this.send({ method: 'GET', path: `/accounts/${encodeURIComponent(userId)}`, schema: AccountResponseSchema, auth: true, idempotent: true, budgets: ['requests'] });
    return answer.account;
  }

  async listErrorCodes(filter: ErrorCodesFilter = {}): Promise<ErrorCode[]> {
    const answer = await this.send({ method: 'GET', path: '/v1/error-codes', schema: ErrorCodesResponseSchema, query: { ...filter }, auth: false, idempotent: true, budgets: ['requests'] });
    return answer.data.errors;
  }

  // ---- public market data (4.11)

  async listProducts(bound: RateBound = {}): Promise<Product[]> {
    const answer = await this.send({ method: 'GET', path: '/products', schema: ProductsResponseSchema, auth: false, idempotent: true, budgets: ['requests'], latest: bound.latest });
    return answer.products;
  }

  async getOrderBook(productId: string, depth?: number, bound: RateBound = {}): Promise<OrderBook> {
    const answer = await this.send({ method: 'GET', path: `/products/${encodeURIComponent(productId)}/orderbook`, schema: OrderBookResponseSchema, query: { depth }, auth: false, idempotent: true, budgets: ['requests'], latest: bound.latest });
    return answer.orderbook;
  }

  /** Newest first. */
  async listTrades(productId: string, limit?: number, bound: RateBound = {}): Promise<PublicTrade[]> {
    const answer = await this.send({ method: 'GET', path: `/products/${encodeURIComponent(productId)}/trades`, schema: TradesResponseSchema, query: { limit }, auth: false, idempotent: true, budgets: ['requests'], latest: bound.latest });
    return answer.trades;
  }

  async listAssets(): Promise<Asset[]> {
    const answer = await this.send({ method: 'GET', path: '/assets', schema: AssetsResponseSchema, auth: false, idempotent: true, budgets: ['requests'] });
    return answer.assets;
  }

  /**
   * The venue's clock (epoch ms) as it stamps a book, the one time every venue of the interface answers with:
   * what the WebSocket's auth signs by when this machine's clock is not the venue's.
   */
  async venueTime(): Promise<number> {
    const [product] = await this.listProducts();
    if (product === undefined) throw new VenueProtocolError('GET /products', 'no product to read the clock of');
    const sentAt = Date.now();
    const book = await this.getOrderBook(product.id, 1);
    // Stamped on the way, half the round trip before it arrived.
    return Number(BigInt(book.time) / 1_000_000n) + (Date.now() - sentAt) / 2;
  }

  // ---- the local venue's simulation endpoints (admin key)

  /** POST /sim/users: a funded user with one trading key, secret included. */
  async createSimUser(balances: Readonly<Record<string, string>> = {}): Promise<SimUser> {
    return this.send({ method: 'POST', path: '/sim/users', schema: SimUserResponseSchema, body: { balances }, auth: true, idempotent: false, budgets: ['requests'] });
  }

  async simDeposit(deposit: { readonly user_id: string; readonly asset: string; readonly amount: string }): Promise<Account> {
    const answer = await this.send({ method: 'POST', path: '/sim/deposit', schema: SimDepositResponseSchema, body: deposit, auth: true, idempotent: false, budgets: ['requests'] });
    return answer.account;
  }

  async simReset(): Promise<void> {
    await this.send({ method: 'POST', path: '/sim/reset', schema: SimResetResponseSchema, body: {}, auth: true, idempotent: false, budgets: ['requests'] });
  }

  // ---- one call, with its retries

  private async send<S extends z.ZodType>(call: Call<S>): Promise<z.infer<S>> {
    const operation = `${call.method} ${call.path}`;
    const latest = call.latest ?? (call.maxRateWaitMs === undefined ? undefined : Date.now() + call.maxRateWaitMs);
    const rateLatest = latest ?? Date.now() + this.rateWaitMs;
    // This call's own last refusal for rate: what it fails with when it may not wait for the next attempt.
    let refusedForRate: VenueError | undefined;
    for (let attempt = 0; ; attempt++) {
      let release: () => void;
      try {
        release = await this.gate.admit(call.budgets, rateLatest);
      } catch (err) {
        if (!(err instanceof RateWaitTooLong)) throw err;
        throw refusedForRate ?? notSentForRate(operation, err);
      }
      const sentAt = Date.now();
      let outcome: z.infer<S> | Error;
      try {
        outcome = await this.attempt(call, operation);
      } finally {
        release();
      }
      this._onDidAttempt.fire(describeAttempt(operation, attempt, sentAt, outcome));
      if (!(outcome instanceof Error)) return outcome;
      const rateLimited = outcome instanceof VenueError && outcome.isRateLimit;
      if (outcome instanceof VenueError && rateLimited) {
        this.gate.refused(outcome.code === 'E0503' ? 'orders' : 'requests', outcome.retryAfterMs ?? 1_000);
        refusedForRate = outcome;
      }
      if (attempt >= this.maxRetries) throw outcome;
      if (rateLimited) continue;
      // Safe to send again: the venue said it did nothing (starting or stopping), nothing was sent at all, or
      // a read failed on the way.
      const retryable =
        (outcome instanceof VenueError && outcome.code === 'E0902') ||
        outcome instanceof VenueUnreachableError ||
        (call.idempotent && outcome instanceof OutcomeUnknownError);
      if (!retryable) throw outcome;
      const delay = backoffDelay(this.retryBackoff, attempt, this.random);
      // An order (or cancel) is not sent again past its bound: what failed says nothing was done, so the trader
      // decides, rather than the order leaving seconds after the click once the venue or the network is back.
      if (latest !== undefined && Date.now() + delay > latest) throw outcome;
      await sleep(delay);
    }
  }

  /** One HTTP exchange; every failure is returned, not thrown, so send() decides on retries in one place. */
  private async attempt<S extends z.ZodType>(call: Call<S>, operation: string): Promise<z.infer<S> | Error> {
    const url = new URL(this.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value === undefined) continue;
      if (typeof value === 'object') for (const item of value) url.searchParams.append(name, item);
      else url.searchParams.append(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.auth && this.#credentials !== undefined) {
      headers['NOVA-KEY'] = this.#credentials.apiKey;
      headers['NOVA-SECRET'] = this.#credentials.apiSecret;
    }
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    const controller = new AbortController();
    call.onAttempt?.(Date.now());
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    let status: number | undefined;
    let retryAfter: string | null;
    let text: string;
    try {
      // Never followed: fetch would carry NOVA-KEY and NOVA-SECRET to wherever a redirect points (it strips only the
      // standard credential headers), to another host or over plain http, and send an order's POST on with them.
      const response = await fetch(url, { method: call.method, headers, signal: controller.signal, redirect: 'manual', ...(body === undefined ? {} : { body }) });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      text = await response.text();
    } catch (err) {
      return networkFailure(operation, err, controller.signal.aborted, status !== undefined);
    } finally {
      clearTimeout(timer);
    }
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    // No venue of the interface redirects: an answer that points elsewhere is not the venue's, and what it did is unknown.
    if (status >= 300 && status < 400) return new VenueProtocolError(operation, `HTTP ${status}, a redirect, which the desk does not follow: it would take the API key to another address`);
    if (status < 200 || status >= 300) return failureFromResponse(operation, status, json, retryAfter);
    if (json === undefined) return new VenueProtocolError(operation, `HTTP ${status} without a JSON body`);
    const parsed = call.schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return new VenueProtocolError(operation, issue === undefined ? 'unexpected shape' : `${issue.path.join('.') || 'body'}: ${issue.message}`);
    }
    return parsed.data;
  }
}

const SimResetResponseSchema = z.object({ reset: z.literal(true) });

/**
 * A call refused before it was sent: the rate gate, closed by an earlier refusal of the venue, stays closed
 * longer than the call may wait. It is the venue's rate-limit reference with what remains of its Retry-After.
 */
function notSentForRate(operation: string, closed: RateWaitTooLong): VenueError {
  const ref = closed.budget === 'orders' ? 'E0503_OrderRateLimitExceeded' : 'E0501_RateLimitExceeded';
  const record = errorRecord(ref);
  const seconds = Math.ceil(closed.waitMs / 1000);
  return new VenueError({
    ref,
    description: `${operation} not sent: the venue's rate limit for ${closed.budget} allows the next one in ${seconds} s; send it again then`,
    record,
    httpStatus: record.http_status,
    retryAfterMs: closed.waitMs,
  });
}

/**
 * fetch reports a network failure as a TypeError whose cause carries the system's code. Only the code is
 * kept: the raw error can hold the request, and the request holds the key.
 */
function networkFailure(operation: string, err: unknown, timedOut: boolean, answered: boolean): Error {
  if (timedOut) return new OutcomeUnknownError(operation, 'timeout');
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  // fetch refuses, before connecting, a request it cannot make (an address with a user name and password, a header
  // value outside Latin-1: a TypeError with no cause) or a port it blocks: nothing left, nothing was done. Told
  // "may have acted", a trader would wait on lookups that fail alike, for an order that was never sent.
  if (!answered && err instanceof TypeError && cause === undefined) return new VenueUnreachableError(operation, 'request refused by fetch before sending');
  if (!answered && cause?.message === 'bad port') return new VenueUnreachableError(operation, 'port blocked by fetch');
  const code = typeof cause?.code === 'string' ? cause.code : 'unknown';
  if (NOT_SENT.has(code)) return new VenueUnreachableError(operation, code);
  return new OutcomeUnknownError(operation, 'connection_lost');
}

function describeAttempt(operation: string, attempt: number, sentAt: number, outcome: unknown): RequestAttempt {
  const base = { operation, attempt, sentAt, answeredAt: Date.now() };
  if (outcome instanceof VenueError) {
    return {
      ...base,
      outcome: outcome.isRateLimit ? 'rate_limited' : 'refused',
      httpStatus: outcome.httpStatus,
      ...(outcome.retryAfterMs === undefined ? {} : { retryAfterMs: outcome.retryAfterMs }),
    };
  }
  if (outcome instanceof OutcomeUnknownError) return { ...base, outcome: 'outcome_unknown' };
  if (outcome instanceof VenueUnreachableError) return { ...base, outcome: 'unreachable' };
  if (outcome instanceof VenueProtocolError) return { ...base, outcome: 'refused' };
  return { ...base, outcome: 'ok', httpStatus: 200 };
}
