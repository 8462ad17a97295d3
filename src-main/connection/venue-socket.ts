/**
 * The venue's WebSocket (interface 4.12 and 6, the contract's market-data channels) as one long-lived
 * connection: authenticate, subscribe, trade, heartbeat, and on loss reconnect with exponential backoff and
 * full jitter, authenticate again and resubscribe. Whoever holds the trader's state listens to
 * onDidChangeStatus: every time it reaches `open` the subscriptions are back in force, and anything missed
 * while away has to be fetched over REST (VenueSession does).
 *
 * Every frame arrives as unknown and is parsed with VenueMessageSchema. Level2 updates are passed on only in
 * sequence: on a gap the product is subscribed again for a fresh snapshot, and nothing is passed on until it
 * arrives.
 */
import { createHmac } from 'node:crypto';
import WebSocket from 'ws';
import {
  VenueMessageSchema,
  authSignaturePayload,
  type CandlesEvent,
  type Channel,
  type Level2SnapshotEvent,
  type Level2UpdateEvent,
  type MarketDataChannel,
  type TickerEvent,
  type TradesEvent,
  type VenueMessage,
} from '../../src-shared/protocol/ws';
import type { WsOrder } from '../../src-shared/protocol/records';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { DisposableStore, Emitter, toDisposable, type Event } from './events';
import { newClientOrderId, sameClientOrderId } from '../../src-shared/client-order-id';
import type { VenueCredentials } from './rest-client';
import { OutcomeUnknownError, VenueError, VenueUnreachableError, venueErrorFromWsEvent } from './venue-error';

export type SocketState =
  | 'idle'
  | 'connecting'
  | 'authenticating'
  | 'subscribing'
  | 'open'
  | 'reconnecting'
  /** The venue refused the credentials: reconnecting would not help; the trader has to log in again. */
  | 'refused'
  | 'closed';

export interface SocketStatus {
  readonly state: SocketState;
  /** Reconnect attempts since the connection was last open. */
  readonly attempt: number;
  /** How many times the connection has been open, this one included. */
  readonly sessions: number;
  /** Round trip of the last heartbeat. */
  readonly latencyMs?: number;
  /** Why the connection was last lost or refused (never a secret). */
  readonly lastError?: string;
  /** While reconnecting: when the next attempt starts (epoch ms). */
  readonly nextAttemptAt?: number;
}

export interface VenueSocketOptions {
  /** ws://127.0.0.1:8787/ws, or an environment's WebSocket address. */
  readonly url: string;
  readonly credentials?: VenueCredentials;
  readonly reconnect?: BackoffPolicy;
  readonly heartbeatIntervalMs?: number;
  /** No pong within this after a ping: the connection is taken as dead and replaced. */
  readonly heartbeatTimeoutMs?: number;
  /** For each request (auth, sub, create_order, cancel_order, ping) and for the connection handshake. */
  readonly requestTimeoutMs?: number;
  readonly random?: () => number;
  /**
   * The venue's clock (epoch ms), read when the venue refuses the auth: it takes a timestamp only within 30 s of
   * its own clock, so a machine whose clock is off signs by the venue's from then on.
   */
  readonly venueClock?: () => Promise<number>;
}

/** create_order data (interface 4.12, docs/api.md): lowercase type and side, `price` and `size`. */
export interface WsCreateOrderData {
  readonly type: 'limit' | 'market';
  readonly side: 'buy' | 'sell';
  readonly product_id: string;
  readonly price?: string;
  readonly size?: string;
  readonly quote_size?: string;
  readonly exact_quote_size?: string;
  readonly time_in_force?: 'GTC' | 'IOC' | 'FOK' | 'GTT';
  readonly post_only?: boolean;
  /** DC decrease and cancel, CO cancel oldest, CN cancel newest (default), CB cancel both. */
  readonly stp?: 'DC' | 'CO' | 'CN' | 'CB';
  /** Generated when absent, so an order whose answer is lost can be found by it. */
  readonly client_order_id?: string;
  readonly stop_trigger_price?: string;
  readonly order_stop_type?: 'STOP_LOSS' | 'TAKE_PROFIT';
  /** UNIX nanoseconds as a digit string. */
  readonly expired_at?: string;
  readonly scheduled_at?: string;
  readonly wait?: boolean;
}

export type WsOrderSelection = { readonly order_id: string } | { readonly client_order_id: string };

export interface OrderUpdate {
  readonly order: WsOrder;
  /** Set on updates of an order this connection created, to the create_order's request id. */
  readonly requestId?: string;
}

export interface MarketSubscription {
  readonly channel: MarketDataChannel;
  readonly productIds: readonly string[];
}

export interface SubscriptionRefusal {
  readonly channel: MarketDataChannel;
  readonly productIds: readonly string[];
  readonly error: VenueError;
}

export interface BookGap {
  readonly productId: string;
  readonly expected: number;
  readonly received: number;
}

const DEFAULTS = {
  reconnect: { initialMs: 500, maxMs: 30_000 },
  heartbeatIntervalMs: 10_000,
  heartbeatTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
} as const;

const DONE_STATUSES = new Set(['filled', 'cancelled', 'rejected', 'expired']);

/** Before a market-data sub refused for rate is sent again (plus up to as much jitter): the venue names no wait. */
const SUB_RETRY_MS = 1_000;

interface Pending {
  readonly op: string;
  /** For requests the venue answers without their request id (a successful cancel). */
  readonly matches?: (message: VenueMessage) => boolean;
  resolve(message: VenueMessage): void;
  reject(err: Error): void;
}

export class VenueSocket {
  private readonly options: Required<Omit<VenueSocketOptions, 'credentials' | 'venueClock'>>;
  readonly #credentials: VenueCredentials | undefined;
  private readonly venueClock: (() => Promise<number>) | undefined;
  /** The venue's clock less this machine's, once the venue refused a timestamp. */
  private clockOffsetMs = 0;
  private ws: WebSocket | undefined;
  private status: SocketStatus = { state: 'idle', attempt: 0, sessions: 0 };
  private readonly pending = new Map<string, Pending>();
  private nextRequest = 0;
  /** What should be in force on every connection: channel → products ('' for the orders channel). */
  private readonly wanted = new Map<Channel, Set<string>>();
  /** Level2 sequence per product; absent while waiting for a snapshot. */
  private readonly bookSequence = new Map<string, number>();
  private readonly connection = new DisposableStore();
  private perConnection = new DisposableStore();

  private readonly _onDidChangeStatus = new Emitter<SocketStatus>();
  readonly onDidChangeStatus: Event<SocketStatus> = this._onDidChangeStatus.event;
  private readonly _onDidUpdateOrder = new Emitter<OrderUpdate>();
  readonly onDidUpdateOrder: Event<OrderUpdate> = this._onDidUpdateOrder.event;
  private readonly _onDidReceiveBookSnapshot = new Emitter<Level2SnapshotEvent>();
  readonly onDidReceiveBookSnapshot: Event<Level2SnapshotEvent> = this._onDidReceiveBookSnapshot.event;
  private readonly _onDidReceiveBookUpdate = new Emitter<Level2UpdateEvent>();
  /** Only in sequence after the product's snapshot. */
  readonly onDidReceiveBookUpdate: Event<Level2UpdateEvent> = this._onDidReceiveBookUpdate.event;
  private readonly _onDidDetectBookGap = new Emitter<BookGap>();
  readonly onDidDetectBookGap: Event<BookGap> = this._onDidDetectBookGap.event;
  private readonly _onDidAwaitBookSnapshot = new Emitter<string>();
  /**
   * A product's level2 updates are no longer applied until its next snapshot (a gap, the connection lost or
   * made again): whatever was built from them is the last book known, not the venue's.
   */
  readonly onDidAwaitBookSnapshot: Event<string> = this._onDidAwaitBookSnapshot.event;
  private readonly _onDidReceiveTrades = new Emitter<TradesEvent>();
  readonly onDidReceiveTrades: Event<TradesEvent> = this._onDidReceiveTrades.event;
  private readonly _onDidReceiveTicker = new Emitter<TickerEvent>();
  readonly onDidReceiveTicker: Event<TickerEvent> = this._onDidReceiveTicker.event;
  private readonly _onDidReceiveCandles = new Emitter<CandlesEvent>();
  readonly onDidReceiveCandles: Event<CandlesEvent> = this._onDidReceiveCandles.event;
  private readonly _onDidAnswerSubscription = new Emitter<MarketSubscription>();
  /** The venue answered a market-data sub: the channel streams these products on this connection from now on. */
  readonly onDidAnswerSubscription: Event<MarketSubscription> = this._onDidAnswerSubscription.event;
  private readonly _onDidRefuseSubscription = new Emitter<SubscriptionRefusal>();
  /** The venue answered a market-data sub with an error: that feed has to come from REST instead. */
  readonly onDidRefuseSubscription: Event<SubscriptionRefusal> = this._onDidRefuseSubscription.event;
  private readonly _onDidReceiveError = new Emitter<VenueError>();
  /** Errors not tied to a request of ours (a rate-limit warning on the system channel). */
  readonly onDidReceiveError: Event<VenueError> = this._onDidReceiveError.event;

  constructor(options: VenueSocketOptions) {
    this.options = {
      url: options.url,
      reconnect: options.reconnect ?? DEFAULTS.reconnect,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? DEFAULTS.heartbeatIntervalMs,
      heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? DEFAULTS.heartbeatTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
      random: options.random ?? Math.random,
    };
    this.#credentials = options.credentials;
    this.venueClock = options.venueClock;
    for (const emitter of [
      this._onDidChangeStatus,
      this._onDidUpdateOrder,
      this._onDidReceiveBookSnapshot,
      this._onDidReceiveBookUpdate,
      this._onDidDetectBookGap,
      this._onDidAwaitBookSnapshot,
      this._onDidReceiveTrades,
      this._onDidReceiveTicker,
      this._onDidReceiveCandles,
      this._onDidAnswerSubscription,
      this._onDidRefuseSubscription,
      this._onDidReceiveError,
    ]) {
      this.connection.add(emitter);
    }
  }

  get currentStatus(): SocketStatus {
    return this.status;
  }

  toJSON(): { url: string; state: SocketState } {
    return { url: this.options.url, state: this.status.state };
  }

  /** Start connecting (and keep reconnecting until close()). */
  connect(): void {
    if (this.status.state !== 'idle') return;
    this.dial();
  }

  /** Stop for good: no reconnect; requests in flight fail as outcome unknown. */
  close(): void {
    if (this.status.state === 'closed') return;
    this.setStatus({ state: 'closed', nextAttemptAt: undefined });
    const ws = this.ws;
    this.ws = undefined;
    this.perConnection.dispose();
    this.failPending(ws, 'connection_lost');
    ws?.terminate();
    this.connection.dispose();
  }

  // ---- subscriptions

  /**
   * Keep `channel` (for market data: of `productIds`) in force on this and every later connection. Resolves
   * when the venue acknowledged it, or at once while disconnected; rejects with the venue's refusal.
   */
  async subscribe(channel: Channel, productIds: readonly string[] = []): Promise<void> {
    const set = this.wanted.get(channel) ?? new Set<string>();
    this.wanted.set(channel, set);
    const added = channel === 'orders' ? [''] : productIds;
    for (const id of added) set.add(id);
    // While subscribing after a (re)connect the wanted list may already have been read: send it now as well.
    if (!this.live || this.ws === undefined) return;
    await this.sendSub(this.ws, 'sub', channel, channel === 'orders' ? [] : productIds);
  }

  /** A connection that takes subs: open, or putting its subs back after a (re)connect. */
  private get live(): boolean {
    return this.status.state === 'open' || this.status.state === 'subscribing';
  }

  async unsubscribe(channel: Channel, productIds: readonly string[] = []): Promise<void> {
    const set = this.wanted.get(channel);
    if (channel === 'orders') set?.clear();
    else for (const id of productIds) set?.delete(id);
    if (channel === 'level2') this.awaitSnapshots(productIds);
    // While subscribing, the subs of what was wanted are already on their way: the unsub follows them on the same
    // connection, or the channel would be left streaming (and back in the session's books) with nobody wanting it.
    if (!this.live || this.ws === undefined) return;
    await this.sendSub(this.ws, 'unsub', channel, channel === 'orders' ? [] : productIds);
  }

  /** Ask for a fresh level2 snapshot of one product (after a gap, or when the book is in doubt). */
  resyncBook(productId: string): void {
    this.awaitSnapshots([productId]);
    const ws = this.ws;
    // Still subscribing is live too: a gap seen then (the snapshot of one sub in, another sub not answered yet)
    // would otherwise never be resynced on this connection, and the book would stay in doubt for as long as it lives.
    if (!this.live || ws === undefined) return;
    // A second sub of a product already subscribed is answered with a new snapshot.
    this.sendSub(ws, 'sub', 'level2', [productId]).catch(() => undefined);
  }

  // ---- trading

  /**
   * Resolves with the order's first update, which acknowledges it (often `pending`: the engine's outcome
   * follows as further updates, and a refusal by the engine also as an error event on onDidReceiveError).
   * Rejects when the venue refuses the request itself (bad input, not authenticated, read-only key).
   */
  async createOrder(data: WsCreateOrderData): Promise<WsOrder> {
    const order = { ...data, client_order_id: data.client_order_id ?? newClientOrderId() };
    const answer = await this.request('create_order', { data: order }, undefined, order.client_order_id);
    // The request's records may hold another order's too: one of ours that this order decreased (stp DC) or filled.
    const ours = (answer as { data: WsOrder[] }).data.find((o) => sameClientOrderId(o.client_order_id, order.client_order_id));
    // Never so from this venue; were it, the order is to be looked up by its client order id, not taken from another.
    if (ours === undefined) throw new OutcomeUnknownError('create_order', 'unreadable', order.client_order_id);
    return ours;
  }

  /**
   * Resolves with the order's update once it is done (cancelled, or filled before the cancel arrived). The
   * venue sends that update only to connections subscribed to `orders` (or to the one that created the
   * order), so subscribe first.
   */
  async cancelOrder(selection: WsOrderSelection): Promise<WsOrder> {
    const isDoneTarget = (order: WsOrder): boolean =>
      DONE_STATUSES.has(order.status) &&
      ('order_id' in selection ? order.id === selection.order_id : sameClientOrderId(order.client_order_id, selection.client_order_id));
    const matches = (message: VenueMessage): boolean => message.channel === 'orders' && message.type === 'update' && message.data.some(isDoneTarget);
    const answer = await this.request('cancel_order', { data: selection }, matches);
    // The frame may hold an earlier change of the order in the same commit (a fill, a decrease): the answer is it done.
    return (answer as { data: WsOrder[] }).data.find(isDoneTarget) as WsOrder;
  }

  /** One heartbeat round trip, in milliseconds. */
  async ping(): Promise<number> {
    const sentAt = Date.now();
    await this.request('ping', {});
    return Date.now() - sentAt;
  }

  // ---- the connection

  private dial(): void {
    const state = this.status.sessions === 0 && this.status.attempt === 0 ? 'connecting' : 'reconnecting';
    this.setStatus({ state, nextAttemptAt: undefined });
    const ws = new WebSocket(this.options.url, { handshakeTimeout: this.options.requestTimeoutMs, perMessageDeflate: false });
    this.ws = ws;
    this.perConnection.dispose();
    this.perConnection = new DisposableStore();
    ws.on('open', () => {
      this.establish(ws).catch((err: unknown) => {
        if (err instanceof VenueError && err.category === 'auth') {
          this.refuse(ws, err);
          return;
        }
        this.lose(ws, describe(err));
      });
    });
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.receive(ws, rawText(data));
    });
    ws.on('error', (err) => this.lose(ws, describe(err)));
    ws.on('close', (code) => this.lose(ws, `closed (${code})`));
  }

  /** Authenticate and put every wanted subscription back, then report `open`. */
  private async establish(ws: WebSocket): Promise<void> {
    if (this.#credentials !== undefined) {
      this.setStatus({ state: 'authenticating' });
      await this.authenticate(ws, this.#credentials);
    }
    this.setStatus({ state: 'subscribing' });
    this.awaitSnapshots([...this.bookSequence.keys()]);
    const subs: Promise<void>[] = [];
    for (const [channel, ids] of this.wanted) {
      if (ids.size === 0) continue;
      if (channel === 'orders') {
        subs.push(this.sendSub(ws, 'sub', channel, []));
        continue;
      }
      // One product a frame, so a product the venue refuses is reported and dropped on its own; the
      // connection stands. So it does for one not answered in time: sendSub sends it again once the connection is
      // open, where dropping the connection for it would lose the orders channel and redial into the same wait.
      for (const id of ids) {
        subs.push(this.sendSub(ws, 'sub', channel, [id]).catch((err: unknown) => {
          if (!(err instanceof VenueError || (err instanceof OutcomeUnknownError && err.reason === 'timeout'))) throw err;
        }));
      }
    }
    await Promise.all(subs);
    if (ws !== this.ws) return;
    // `attempt` goes back to 0 at the first heartbeat answered, not here: a link that drops as soon as it opens
    // must keep backing off rather than be redialled at once, each time with a full reconcile behind it.
    this.setStatus({ state: 'open', sessions: this.status.sessions + 1, lastError: undefined });
    this.startHeartbeat(ws);
  }

  private async authenticate(ws: WebSocket, credentials: VenueCredentials): Promise<void> {
    try {
      await this.request('auth', { data: await signAuth(credentials, this.clockOffsetMs) }, undefined, undefined, ws);
    } catch (err) {
      // Another connection with this key (another desk) may have used this second's signature: the venue
      // takes each signature once. Or this machine's clock is not the venue's. One more try with a later second,
      // by the venue's clock, tells those from wrong credentials.
      if (!(err instanceof VenueError && err.ref === 'E0001_AuthRequired')) throw err;
      await this.readVenueClock(credentials.apiKey);
      await this.request('auth', { data: await signAuth(credentials, this.clockOffsetMs) }, undefined, undefined, ws);
    }
  }

  private async readVenueClock(apiKey: string): Promise<void> {
    if (this.venueClock === undefined) return;
    let venueNow: number;
    try {
      venueNow = await this.venueClock();
    } catch {
      // Unread, the clock stays as it was; a refusal then stands as the venue's answer.
      return;
    }
    if (!Number.isFinite(venueNow)) return;
    const offset = Math.round(venueNow - Date.now());
    // Further off than any signature runs ahead: the one refused was outside the venue's window, never taken, and
    // seconds are counted on the venue's clock from here (else a desk ahead of it would wait to catch up).
    if (Math.abs(offset - this.clockOffsetMs) > MAX_AHEAD_SECONDS * 1000) {
      lastAuthSecond.set(apiKey, Math.min(lastAuthSecond.get(apiKey) ?? 0, Math.floor(venueNow / 1000) - 1));
    }
    this.clockOffsetMs = offset;
  }

  private startHeartbeat(ws: WebSocket): void {
    const timer = setInterval(() => {
      const sentAt = Date.now();
      this.request('ping', {}, undefined, undefined, ws, this.options.heartbeatTimeoutMs).then(
        () => {
          if (ws === this.ws) this.setStatus({ latencyMs: Date.now() - sentAt, attempt: 0 });
        },
        () => {
          // No pong in time: the link is dead even if TCP has not noticed; replace it.
          this.lose(ws, 'heartbeat timed out');
        },
      );
    }, this.options.heartbeatIntervalMs);
    this.perConnection.add(toDisposable(() => clearInterval(timer)));
  }

  /** The connection `ws` is gone (error, close or dead heartbeat): fail what waited on it and dial again. */
  private lose(ws: WebSocket, reason: string): void {
    if (ws !== this.ws) return;
    this.ws = undefined;
    this.perConnection.dispose();
    this.perConnection = new DisposableStore();
    this.failPending(ws, 'connection_lost');
    ws.removeAllListeners('message');
    ws.on('error', () => undefined);
    ws.terminate();
    if (this.status.state === 'closed') return;
    // Nothing more comes on this connection, and the next one sends a snapshot for each product it subscribes.
    this.awaitSnapshots([...new Set([...this.bookSequence.keys(), ...(this.wanted.get('level2') ?? [])])]);
    if (this.status.state === 'refused') return;
    const delay = backoffDelay(this.options.reconnect, this.status.attempt, this.options.random);
    this.setStatus({ state: 'reconnecting', attempt: this.status.attempt + 1, lastError: reason, nextAttemptAt: Date.now() + delay });
    const timer = setTimeout(() => {
      if (this.status.state === 'reconnecting') this.dial();
    }, delay);
    this.perConnection.add(toDisposable(() => clearTimeout(timer)));
  }

  private refuse(ws: WebSocket, err: VenueError): void {
    this.setStatus({ state: 'refused', lastError: err.message });
    this.lose(ws, err.message);
  }

  private failPending(ws: WebSocket | undefined, reason: 'connection_lost'): void {
    for (const [id, pending] of this.pending) {
      if (!id.startsWith(connectionTag(ws))) continue;
      this.pending.delete(id);
      pending.reject(new OutcomeUnknownError(pending.op, reason));
    }
  }

  private setStatus(change: Partial<{ [K in keyof SocketStatus]: SocketStatus[K] | undefined }>): void {
    const next: Record<string, unknown> = { ...this.status, ...change };
    for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
    this.status = next as unknown as SocketStatus;
    this._onDidChangeStatus.fire(this.status);
  }

  // ---- requests and answers

  private sendSub(ws: WebSocket, op: 'sub' | 'unsub', channel: Channel, productIds: readonly string[]): Promise<void> {
    const frame = channel === 'orders' ? { channel } : { channel, product_ids: [...productIds] };
    return this.request(op, frame, undefined, undefined, ws).then(
      () => {
        if (op === 'sub' && channel !== 'orders' && ws === this.ws) this._onDidAnswerSubscription.fire({ channel, productIds });
      },
      (err: unknown) => {
        if (err instanceof VenueError && op === 'sub' && channel !== 'orders') {
          // Refused for now (the connection's frame rate, the venue stopping), not for the product: sent again
          // later on this connection, or by the next one, rather than the feed moved to REST polling for good.
          if (err.isRateLimit || err.code === 'E0902') this.subscribeAgainLater(ws, channel, productIds, err.retryAfterMs ?? SUB_RETRY_MS);
          else {
            const set = this.wanted.get(channel);
            for (const id of productIds) set?.delete(id);
            this._onDidRefuseSubscription.fire({ channel, productIds, error: err });
          }
        }
        // Not answered in time while the connection stands (a venue or relay that lost it, one slow to answer): in
        // force or not, nothing else would send it again before the next connection. A sub of a product already
        // subscribed is answered with a fresh snapshot, so sending it again does no harm.
        if (err instanceof OutcomeUnknownError && err.reason === 'timeout' && op === 'sub' && channel !== 'orders') {
          this.subscribeAgainLater(ws, channel, productIds, 0);
        }
        throw err;
      },
    );
  }

  /** A market-data sub refused for now: sent again after `delayMs` on the same connection, for what is still wanted. */
  private subscribeAgainLater(ws: WebSocket, channel: Channel, productIds: readonly string[], delayMs: number): void {
    const cancel = toDisposable(() => clearTimeout(timer));
    const timer = setTimeout(() => {
      // A sub lost to timeouts is tried again every few seconds for as long as the connection lives: a fired
      // timer leaves the connection's store, or each try would stay in it.
      this.perConnection.delete(cancel);
      const wanted = this.wanted.get(channel);
      const still = productIds.filter((id) => wanted?.has(id) === true);
      // Still subscribing is this connection too: another sub it waits on may outlast this one's retry.
      if (ws !== this.ws || !this.live || still.length === 0) return;
      this.sendSub(ws, 'sub', channel, still).catch(() => undefined);
    }, delayMs + Math.floor(this.options.random() * SUB_RETRY_MS));
    this.perConnection.add(cancel);
  }

  /**
   * Send `{ op, request_id, ...fields }` and settle on the answer carrying the request id (or matching
   * `matches`). A request that cannot be sent is VenueUnreachableError; one whose connection is lost, or that
   * is not answered in time, is OutcomeUnknownError.
   */
  private request(
    op: string,
    fields: Record<string, unknown>,
    matches?: (message: VenueMessage) => boolean,
    clientOrderId?: string,
    on: WebSocket | undefined = this.status.state === 'open' ? this.ws : undefined,
    timeoutMs: number = this.options.requestTimeoutMs,
  ): Promise<VenueMessage> {
    const ws = on;
    if (ws === undefined || ws.readyState !== WebSocket.OPEN) {
      return Promise.reject(new VenueUnreachableError(op, `not connected (${this.status.state})`));
    }
    const requestId = `${connectionTag(ws)}${++this.nextRequest}`;
    return new Promise<VenueMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new OutcomeUnknownError(op, 'timeout', clientOrderId));
      }, timeoutMs);
      const settle = (): void => {
        clearTimeout(timer);
        this.pending.delete(requestId);
      };
      this.pending.set(requestId, {
        op,
        ...(matches === undefined ? {} : { matches }),
        resolve: (message) => {
          settle();
          resolve(message);
        },
        reject: (err) => {
          settle();
          reject(err instanceof OutcomeUnknownError && clientOrderId !== undefined ? new OutcomeUnknownError(op, err.reason, clientOrderId) : err);
        },
      });
      ws.send(JSON.stringify({ op, request_id: requestId, ...fields }), (err) => {
        if (err !== undefined && err !== null) this.pending.get(requestId)?.reject(new OutcomeUnknownError(op, 'connection_lost'));
      });
    });
  }

  private receive(ws: WebSocket, text: string): void {
    if (ws !== this.ws) return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return;
    }
    const parsed = VenueMessageSchema.safeParse(json);
    // Frames of channels this client does not know are skipped, so a newer venue does not break it.
    if (!parsed.success) return;
    const message = parsed.data;
    // Read from the frame itself: the orders update schema does not list request_id, and parsing drops it.
    const rawId = (json as { request_id?: unknown }).request_id;
    const requestId = typeof rawId === 'string' ? rawId : undefined;
    const waiting = requestId === undefined ? undefined : this.pending.get(requestId);

    if (message.type === 'error') {
      const error = venueErrorFromWsEvent(message);
      if (waiting !== undefined) waiting.reject(error);
      // Unasked, on the auth channel: the key stopped working while connected (expired, revoked), and the
      // venue sends this connection nothing more of its orders. Staying "open" would show a stale blotter.
      else if (message.channel === 'auth' && error.category === 'auth') this.refuse(ws, error);
      else this._onDidReceiveError.fire(error);
      return;
    }
    switch (message.channel) {
      case 'auth':
      case 'subscriptions':
      case 'heartbeat':
        waiting?.resolve(message);
        return;
      case 'orders': {
        // A frame holds everything one commit did to our orders, so it may answer several requests (two sent
        // together; a fill or an expiry of another order in the same turn): each record names the request that
        // caused it, and each request is answered with its own records only.
        const answered = new Map<string, WsOrder[]>();
        for (const order of message.data) {
          const answers = order.request_id ?? requestId;
          this._onDidUpdateOrder.fire({ order, ...(answers === undefined ? {} : { requestId: answers }) });
          if (answers !== undefined) answered.set(answers, [...(answered.get(answers) ?? []), order]);
        }
        for (const [id, data] of answered) this.pending.get(id)?.resolve({ ...message, data });
        for (const pending of [...this.pending.values()]) if (pending.matches?.(message) === true) pending.resolve(message);
        return;
      }
      case 'level2':
        if (message.type === 'snapshot') this.acceptSnapshot(message);
        else this.acceptBookUpdate(message);
        return;
      case 'trades':
        this._onDidReceiveTrades.fire(message);
        return;
      case 'ticker':
        // In order: the venue never sends a connection a ticker older than one it sent (docs/api.md, ticker).
        this._onDidReceiveTicker.fire(message);
        return;
      case 'candles':
        this._onDidReceiveCandles.fire(message);
        return;
    }
  }

  /** Each product's updates wait for its next snapshot; said even when none was being applied yet. */
  private awaitSnapshots(productIds: readonly string[]): void {
    for (const productId of productIds) {
      this.bookSequence.delete(productId);
      this._onDidAwaitBookSnapshot.fire(productId);
    }
  }

  private acceptSnapshot(snapshot: Level2SnapshotEvent): void {
    this.bookSequence.set(snapshot.product_id, snapshot.sequence);
    this._onDidReceiveBookSnapshot.fire(snapshot);
  }

  private acceptBookUpdate(update: Level2UpdateEvent): void {
    const last = this.bookSequence.get(update.product_id);
    // Waiting for a snapshot, or an update the snapshot already holds.
    if (last === undefined || update.sequence <= last) return;
    if (update.sequence !== last + 1) {
      this._onDidDetectBookGap.fire({ productId: update.product_id, expected: last + 1, received: update.sequence });
      this.resyncBook(update.product_id);
      return;
    }
    this.bookSequence.set(update.product_id, update.sequence);
    this._onDidReceiveBookUpdate.fire(update);
  }
}

/**
 * The venue accepts each auth signature once, and a signature is fixed by key and second: every connection of
 * this process signs a second no earlier connection with the same key has used.
 */
const lastAuthSecond = new Map<string, number>();

/** How far ahead of the clock a signature may run (the local venue accepts ±30 s). */
const MAX_AHEAD_SECONDS = 20;

async function signAuth(credentials: VenueCredentials, clockOffsetMs: number): Promise<{ key: string; timestamp: number; signature: string }> {
  // Connections faster than one a second run ahead of the clock; at the limit, wait for a second of our own
  // rather than sign one already used (the venue would refuse it as a replay, and the key would look wrong).
  let timestamp: number;
  for (;;) {
    const now = Math.floor((Date.now() + clockOffsetMs) / 1000);
    timestamp = Math.max(now, (lastAuthSecond.get(credentials.apiKey) ?? 0) + 1);
    if (timestamp <= now + MAX_AHEAD_SECONDS) break;
    await new Promise((resolve) => setTimeout(resolve, (timestamp - now - MAX_AHEAD_SECONDS) * 1000));
  }
  lastAuthSecond.set(credentials.apiKey, timestamp);
  const signature = createHmac('sha256', credentials.apiSecret).update(authSignaturePayload(credentials.apiKey, timestamp)).digest('hex');
  return { key: credentials.apiKey, timestamp, signature };
}

/** Request ids carry their connection, so a lost connection fails exactly its own requests. */
const tags = new WeakMap<WebSocket, string>();
let nextTag = 0;
function connectionTag(ws: WebSocket | undefined): string {
  if (ws === undefined) return '\u0000';
  let tag = tags.get(ws);
  if (tag === undefined) {
    tag = `c${++nextTag}-`;
    tags.set(ws, tag);
  }
  return tag;
}

function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

function describe(err: unknown): string {
  if (err instanceof VenueError) return err.message;
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code;
  return err instanceof Error ? err.message : 'connection failed';
}
