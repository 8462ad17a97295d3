/**
 * The venue's WebSocket at /ws (interface 4.12 and 6, the contract's market data): auth, the orders channel,
 * create_order and cancel_order, and the public market-data channels. Every frame arrives as unknown and goes
 * through src-shared/protocol/ws; every failure is an error event with the code of 7.4.
 *
 * Robustness: frames above maxFrameBytes close the connection (ws does it, code 1009); each connection has a
 * message rate limit; the server pings and drops a peer that stops answering; a peer whose send buffer grows
 * past maxBufferedBytes is disconnected with close code 1008 rather than slowing the venue. Each connection holds
 * a file descriptor, which the journal and every other client need too: one that neither authenticates nor
 * subscribes within idleTimeoutMs is closed (1008), and past maxConnections an upgrade is refused (503).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { ApiError, apiError } from '../../../src-shared/errors/api-error';
import { WS_MESSAGE_OF } from '../../../src-shared/errors/ws-messages';
import { parseWsCreateOrder } from '../../../src-shared/protocol/orders';
import { errorEventFor, parseClientMessage, parseWsCancelOrder, type Channel, type MarketDataChannel, type TickerEvent } from '../../../src-shared/protocol/ws';
import type { Caller } from '../accounts/key-ring';
import type { OrderEvent } from '../exchange/exchange';
import { MarketDataFeed } from '../market-data/feed';
import type { CommittedBatch, Venue } from '../venue';
import { LONE_SURROGATE, jsonTextRefusal } from './json-text';
import { endWithFailure } from './raw-failure';
import { RateLimitError, RateLimiter } from './rate-limit';
import { closeWsOrderRecord, openWsOrderRecord } from './records';

export interface WsApiOptions {
  maxFrameBytes: number;
  /** Messages a connection may send per second (burst of the same size). */
  messagesPerSecond: number;
  maxBufferedBytes: number;
  pingIntervalMs: number;
  /** How far an auth timestamp may be from the venue's clock, either way. */
  authWindowSeconds: number;
  /** A connection that has neither authenticated nor subscribed to anything this long after it opened is closed. */
  idleTimeoutMs: number;
  /** Connections held at once; an upgrade beyond them is refused. */
  maxConnections: number;
}

export const DEFAULT_WS_OPTIONS: WsApiOptions = {
  maxFrameBytes: 16 * 1024,
  messagesPerSecond: 200,
  maxBufferedBytes: 4 * 1024 * 1024,
  pingIntervalMs: 15_000,
  authWindowSeconds: 30,
  idleTimeoutMs: 10_000,
  // Far more than a desk and its scripts open, and far fewer than the descriptors a process gets: macOS starts an
  // app with 256 (Node raises its own limit to the hard one, which Linux services often set at 1024).
  maxConnections: 128,
};

export const CLOSE_SLOW_CONSUMER = 1008;
/** The venue is stopping (RFC 6455: going away). */
const CLOSE_GOING_AWAY = 1001;
export const CLOSE_RATE_LIMIT = 1008;
export const CLOSE_IDLE = 1008;

/** The 7.4 text for an invalid field: which field decides it. */
function fieldMessage(description: string): string | undefined {
  // The field or fields a description names: "size: ...", "size or quote_size: ...", "order_id, client_order_id: ...".
  const fields = (description.split(':')[0] ?? '').split(/, | (?:or|and|×) /);
  const names = (...wanted: string[]): boolean => fields.some((f) => wanted.includes(f));
  if (/minimum notional/.test(description)) return 'invalid size';
  if (names('order_id', 'client_order_id') && /one of them is required|exactly one/.test(description)) return 'missing order id, client order id';
  if (names('product_id')) return 'invalid product';
  if (names('price', 'limit_price', 'stop_trigger_price')) return 'invalid price';
  if (names('size', 'base_size', 'quote_size', 'exact_quote_size')) return 'invalid size';
  return undefined;
}

/** The error with the interface's message text in front of the specific reason. */
function withListedMessage(err: ApiError): ApiError {
  const listed = WS_MESSAGE_OF[err.ref] ?? fieldMessage(err.description);
  if (listed === undefined || err.description.startsWith(listed)) return err;
  return new ApiError(err.ref, `${listed} (${err.description})`, err.httpStatus);
}

class Session {
  caller: Caller | undefined;
  orders = false;
  readonly market = new Map<MarketDataChannel, Set<string>>();
  /**
   * By channel and product ('level2 BTC-VND', 'candles BTC-VND'), the mark of the snapshot sent (see
   * MarketDataEvent): updates up to it are already in it, and none goes out before it (level2's is sent a turn
   * after its sub, candles' once the commits it holds are published). A commit taken before the snapshot was
   * read may publish after it.
   */
  readonly snapshotMarks = new Map<string, number>();
  /** By channel and product ('level2 BTC-VND', 'ticker BTC-VND'): what ends this connection's watch of it. */
  readonly watches = new Map<string, () => void>();
  /**
   * Per product, the time of the last ticker sent: one taken earlier is not sent after it. A subscription's first
   * ticker, read once the commits before it are published, may otherwise pass a commit's published just before.
   */
  readonly tickerTimes = new Map<string, bigint>();
  /**
   * By product, the candles snapshot read and waiting for the commits it holds to be published: their updates are
   * in it; a later commit's, published meanwhile, is held here and sent right after it.
   */
  readonly pendingCandles = new Map<string, PendingSnapshot>();
  /** The working orders this connection created and still hears of as their creator (see creators). */
  readonly created = new Set<string>();
  alive = true;
  overLimit = 0;
  /** Until the connection authenticates or subscribes: what closes it if it does neither in time. */
  idle: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly socket: WebSocket) {}

  subscriptions(): { channel: string; product_ids: string[] }[] {
    const out: { channel: string; product_ids: string[] }[] = [];
    if (this.orders) out.push({ channel: 'orders', product_ids: [] });
    for (const [channel, products] of this.market) if (products.size > 0) out.push({ channel, product_ids: [...products] });
    return out;
  }
}

interface PendingSnapshot {
  /** The snapshot's mark once read; until then every commit published is one the read will hold. */
  mark: number;
  readonly held: string[];
}

/** What caused an order event, or created an order: the connection and its request's id. */
interface Attribution {
  readonly session: Session;
  readonly requestId: string | undefined;
  readonly userId: string;
}

export interface WsApi {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /**
   * Nothing more is taken: a frame read from now on is refused with E0902 while its socket is open, and an
   * upgrade is refused with E0902 too. What was taken before is still answered (see answered, close).
   */
  stopTaking(): void;
  /** Settles once every request taken so far has been answered (or failed to be). */
  answered(): Promise<void>;
  /** Every connection closed with 1001: call once the answers to what was taken are out. */
  close(): void;
}

/**
 * `limits`: the per-key request and order rates, the ones the REST API takes from: a key has one budget of each
 * however it sends. Each trading operation takes a request, and create_order an order too.
 */
export function createWsApi(venue: Venue, limits: { requests: RateLimiter; orders: RateLimiter }, partial: Partial<WsApiOptions> = {}): WsApi {
  const options = { ...DEFAULT_WS_OPTIONS, ...partial };
  const { exchange, keys } = venue;
  const feed = new MarketDataFeed(exchange.markets, venue.now);
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes, perMessageDeflate: false });
  const sessions = new Set<Session>();
  const limiter = new RateLimiter(options.messagesPerSecond);
  /** Signatures seen within the auth window, so a captured auth frame cannot be replayed, even after a restart. */
  const { usedSignatures } = venue;
  /**
   * The connection that created an order gets that order's updates, with its create request id, whether or
   * not it subscribed to orders, until the order is done or the connection loses its key. A cancel from
   * elsewhere does not replace it. (The events a request itself caused are its answer: see deliverOrders.)
   */
  const creators = new Map<string, Attribution>();
  /**
   * The command whose events the exchange is emitting right now, and the events it caused: tagged as they
   * happen, because a commit publishes them later, after other commands may have touched the same order.
   */
  let cause: Attribution | undefined;
  const causes = new WeakMap<OrderEvent, Attribution>();
  const tagCause = (event: OrderEvent): void => {
    // Only the commanding user's orders: a maker filled by someone else's order is not theirs to see.
    if (cause !== undefined && event.row.userId === cause.userId) causes.set(event, cause);
  };

  /** Run a command against the exchange with its order events attributed to this request. */
  function runAs<T>(attribution: Attribution, command: () => T): Promise<T> {
    return venue.run(() => {
      cause = attribution;
      try {
        return command();
      } finally {
        cause = undefined;
      }
    });
  }

  function send(session: Session, message: unknown): void {
    sendText(session, JSON.stringify(message));
  }

  function sendText(session: Session, text: string): void {
    const { socket } = session;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > options.maxBufferedBytes) {
      closeWith(socket, CLOSE_SLOW_CONSUMER, 'slow consumer');
      return;
    }
    socket.send(text);
  }

  function fail(session: Session, frame: unknown, err: ApiError): void {
    const refusal = withListedMessage(err);
    let event = errorEventFor(frame, refusal);
    let echoed = frame;
    // The echo is the one place a frame is written back whole, and JSON.stringify recurses once per level: a
    // 16 KiB frame of 8,000 nested arrays overflowed the stack here and the RangeError took the venue down. The
    // depth is looked at here, on a refusal, rather than on every frame, so an accepted order is never walked.
    if (nestedDeeper(event, MAX_ECHO_DEPTH)) {
      echoed = undefined;
      event = errorEventFor(envelopeOf(frame), new ApiError(refusal.ref, `${refusal.description} (${NOT_ECHOED})`, refusal.httpStatus));
    }
    // Least privilege: whatever refused an auth frame, the connection is not authenticated after it.
    if (event.channel === 'auth') unauthenticate(session);
    sendText(session, errorEventText(echoed, event));
  }

  /**
   * A key can expire or be revoked while its connection only listens, to the orders channel or to orders it
   * created: before orders are delivered, such a connection is told so on the auth channel (401, as an auth with
   * that key would be) and stops receiving them. Once per commit, so the per-order delivery checks a field only.
   */
  function endExpiredSubscriptions(): void {
    let now: bigint | undefined;
    for (const session of sessions) {
      if ((!session.orders && session.created.size === 0) || session.caller === undefined) continue;
      now ??= venue.now();
      const refusal = keys.refusal(session.caller.apiKey, now);
      if (refusal !== undefined) fail(session, { op: 'auth' }, refusal);
    }
  }

  /**
   * The connection loses its key: no trading, no orders subscription, no more updates of orders it created. What
   * it asked before is still answered (the events a request caused go to its connection: see deliverOrders).
   */
  function unauthenticate(session: Session): void {
    if (session.caller === undefined) return;
    session.caller = undefined;
    session.orders = false;
    forgetCreations(session);
  }

  /** The orders made on this connection stop reaching it as their creator's. */
  function forgetCreations(session: Session): void {
    for (const id of session.created) creators.delete(id);
    session.created.clear();
  }

  /** The connection authenticated or subscribed: it is no longer closed as idle (see WsApiOptions.idleTimeoutMs). */
  function inUse(session: Session): void {
    clearTimeout(session.idle);
    session.idle = undefined;
  }

  /** Closed, with a moment for the peer to answer the close frame before the socket is cut. */
  function closeWith(socket: WebSocket, code: number, reason: string): void {
    socket.close(code, reason);
    setTimeout(() => socket.terminate(), 1_000).unref();
  }

  /** Commits are followed only while a connection is open: with none, the venue copies no events for us. */
  let unfollow: (() => void) | undefined;
  let untag: (() => void) | undefined;
  const follow = (): void => {
    unfollow ??= venue.onCommitted(publish);
    untag ??= exchange.onOrderEvent(tagCause);
  };
  const stopFollowing = (): void => {
    unfollow?.();
    unfollow = undefined;
    untag?.();
    untag = undefined;
  };

  function publish(batch: CommittedBatch): void {
    if (batch.orders.length > 0) endExpiredSubscriptions();
    deliverOrders(batch.orders);
    const wants = (channel: MarketDataChannel, productId: string): boolean => {
      for (const session of sessions) if (session.market.get(channel)?.has(productId) === true) return true;
      return false;
    };
    for (const { channel, productId, event, mark } of feed.eventsOf(batch, wants)) {
      if (channel === 'ticker') {
        const text = JSON.stringify(event);
        for (const session of sessions) if (session.market.get(channel)?.has(productId) === true) sendTicker(session, event as TickerEvent, text);
        continue;
      }
      let text: string | undefined;
      const markKey = `${channel} ${productId}`;
      for (const session of sessions) {
        if (session.market.get(channel)?.has(productId) !== true) continue;
        const pending = channel === 'candles' ? session.pendingCandles.get(productId) : undefined;
        if (pending !== undefined) {
          if (mark !== undefined && mark > pending.mark) pending.held.push((text ??= JSON.stringify(event)));
          continue;
        }
        if (mark !== undefined && mark <= (session.snapshotMarks.get(markKey) ?? Number.POSITIVE_INFINITY)) continue;
        text ??= JSON.stringify(event);
        sendText(session, text);
      }
    }
  }

  function sendTicker(session: Session, ticker: TickerEvent, text = JSON.stringify(ticker)): void {
    const time = BigInt(ticker.time);
    if (time < (session.tickerTimes.get(ticker.product_id) ?? 0n)) return;
    session.tickerTimes.set(ticker.product_id, time);
    sendText(session, text);
  }

  /**
   * One update frame per connection for everything a commit did to its orders, in the order it happened; each
   * order record is serialised once however many connections receive it. A record carries the request_id of
   * the create_order or cancel_order that caused it, on the connection that sent it; on the order's creating
   * connection, other changes carry the create's request_id. When every record of the frame answers the same
   * request, the frame carries it too.
   *
   * The records a request caused are its answer, and go to the connection that sent it even if that connection
   * has since lost its key or taken another user's (an auth read right behind the request, a key that expired
   * before the commit was published): the request was taken while it was authenticated, and a client never told
   * of an order it placed may place it again. Any other record needs the connection's current user.
   */
  function deliverOrders(events: readonly OrderEvent[]): void {
    const frames = new Map<Session, { records: string[]; requestIds: Set<string | undefined> }>();
    for (const event of events) {
      const market = exchange.markets.get(event.row.productId);
      if (market === undefined) continue;
      const causedBy = causes.get(event);
      const creator = creators.get(event.row.orderId);
      let open: string | undefined;
      for (const session of sessions) {
        let requestId: string | undefined;
        const user = session.caller?.userId;
        // A creator that lost its key or took another user's was forgotten (unauthenticate, authenticate); the
        // user is checked too, so that no slip there sends one user's orders to another's connection.
        if (causedBy?.session === session) requestId = causedBy.requestId;
        else if (creator?.session === session && creator.userId === user) requestId = creator.requestId;
        else if (!session.orders || user !== event.row.userId) continue;
        open ??= openWsOrderRecord(event.row, event.trades, market);
        const record = closeWsOrderRecord(open, requestId);
        let frame = frames.get(session);
        if (frame === undefined) {
          frame = { records: [], requestIds: new Set() };
          frames.set(session, frame);
        }
        frame.records.push(record);
        frame.requestIds.add(requestId);
      }
      if (event.row.status === 'DONE' && creator !== undefined) {
        creators.delete(event.row.orderId);
        creator.session.created.delete(event.row.orderId);
      }
    }
    for (const [session, frame] of frames) {
      const [only] = frame.requestIds;
      const id = frame.requestIds.size === 1 && only !== undefined ? `"request_id":${JSON.stringify(only)},` : '';
      sendText(session, `{"channel":"orders","type":"update",${id}"data":[${frame.records.join(',')}]}`);
    }
  }

  async function authenticate(session: Session, frame: unknown, key: string, timestamp: number, signature: string): Promise<void> {
    // The client signs with its own clock: the window is the wall clock's (see Venue.wallNow).
    const nowSeconds = Number(venue.wallNow() / 1_000_000_000n);
    if (Math.abs(nowSeconds - timestamp) > options.authWindowSeconds) {
      return fail(session, frame, apiError('E0001_AuthRequired', `timestamp outside ±${options.authWindowSeconds} s of the venue's clock`));
    }
    // A window's margin past the timestamps the window still takes: a wall clock stepped back by up to a window
    // does not make a forgotten signature good again.
    usedSignatures.forgetBefore(key, nowSeconds - 2 * options.authWindowSeconds);
    if (usedSignatures.has(key, timestamp, signature)) return fail(session, frame, apiError('E0001_AuthRequired', 'signature already used'));
    const caller = keys.verifySignature(key, timestamp, signature, venue.now());
    if (caller instanceof ApiError) return fail(session, frame, caller);
    // Used from now on in memory, and durable before the client is told it signed in: a venue killed after the
    // answer still refuses the frame when it starts again. The session takes its caller now, so frames the client
    // sent right behind the auth act as it (their commits follow this one).
    const durable = venue.run(() => usedSignatures.add(key, timestamp, signature));
    // Another user's key on the same connection: the first user's orders made here stop reaching it. Its orders
    // subscription stays, now for the second user's orders (delivery goes by the caller's user).
    if (session.caller !== undefined && session.caller.userId !== caller.userId) forgetCreations(session);
    session.caller = caller;
    inUse(session);
    try {
      await durable;
    } catch (err) {
      unauthenticate(session);
      throw err;
    }
    const requestId = (frame as { request_id?: unknown }).request_id;
    send(session, { channel: 'auth', type: 'authenticated', ...(typeof requestId === 'string' ? { request_id: requestId } : {}) });
  }

  /** The session's caller, if its key is still usable now: a key can expire or be revoked after auth. */
  function authenticated(session: Session, action: string): Caller {
    const { caller } = session;
    if (caller === undefined) throw apiError('E0001_AuthRequired', action);
    const refusal = keys.refusal(caller.apiKey, venue.now());
    if (refusal !== undefined) {
      unauthenticate(session);
      throw refusal;
    }
    return caller;
  }

  function trader(session: Session): Caller {
    const caller = authenticated(session, 'authenticate first');
    if (caller.readOnly) throw apiError('E0004_InsufficientScope', 'this API key cannot trade');
    return caller;
  }

  function subscribe(session: Session, op: 'sub' | 'unsub', channel: Channel, productIds: readonly string[], requestId: string | undefined): void {
    if (channel === 'orders') {
      if (op === 'sub') authenticated(session, 'authenticate before subscribing to orders');
      session.orders = op === 'sub';
    } else {
      const set = session.market.get(channel) ?? new Set<string>();
      session.market.set(channel, set);
      for (const id of productIds) {
        if (op === 'unsub') set.delete(id);
        else set.add(id);
        if (channel === 'candles') session.pendingCandles.delete(id);
        if (channel !== 'level2' && channel !== 'ticker') continue;
        // The venue builds level diffs and tickers only for products someone watches.
        const watch = `${channel} ${id}`;
        if (op === 'sub' && !session.watches.has(watch)) session.watches.set(watch, channel === 'level2' ? venue.watchBook(id) : venue.watchTicker(id));
        if (op === 'unsub') {
          session.watches.get(watch)?.();
          session.watches.delete(watch);
        }
      }
    }
    if (op === 'sub') inUse(session);
    send(session, { channel: 'subscriptions', type: 'update', ...(requestId === undefined ? {} : { request_id: requestId }), subscriptions: session.subscriptions() });
    if (op === 'unsub' || channel === 'orders') return;
    for (const id of productIds) {
      if (channel === 'level2') {
        // No update reaches the subscriber before its snapshot, and none its snapshot already holds.
        session.snapshotMarks.delete(`level2 ${id}`);
        venue.afterTurn(() => {
          if (session.market.get('level2')?.has(id) !== true) return;
          const snapshot = feed.level2Snapshot(id);
          if (snapshot === undefined) return;
          session.snapshotMarks.set(`level2 ${id}`, snapshot.sequence);
          send(session, snapshot);
        });
        continue;
      }
      if (channel === 'ticker') {
        // Read as of the commits taken so far and sent once they are published: read at once, it showed trades not
        // yet durable, and those commits' older tickers followed it.
        venue.readDurable(() => feed.ticker(id)).then(
          (ticker) => {
            if (ticker !== undefined && session.market.get('ticker')?.has(id) === true) sendTicker(session, ticker);
          },
          () => undefined, // a venue that halts answers nothing more
        );
        continue;
      }
      if (channel === 'candles') {
        // As the ticker: read as of the commits taken so far, sent once they are published. Read at once, it held
        // trades a crash could still lose, ahead of the trades channel.
        const pending: PendingSnapshot = { mark: Number.POSITIVE_INFINITY, held: [] };
        session.pendingCandles.set(id, pending);
        venue
          .readDurable(() => {
            const snapshot = feed.candleSnapshot(id);
            if (snapshot !== undefined) pending.mark = snapshot.mark;
            return snapshot;
          })
          .then(
            (snapshot) => {
              if (session.pendingCandles.get(id) !== pending) return; // unsubscribed, or subscribed again, meanwhile
              session.pendingCandles.delete(id);
              if (snapshot === undefined) return;
              session.snapshotMarks.set(`candles ${id}`, snapshot.mark);
              send(session, snapshot.event);
              for (const text of pending.held) sendText(session, text);
            },
            () => session.pendingCandles.delete(id), // a venue that halts answers nothing more
          );
      }
    }
  }

  async function handle(session: Session, frame: unknown): Promise<void> {
    const message = parseClientMessage(frame);
    if (message instanceof ApiError) return fail(session, frame, message);
    switch (message.op) {
      case 'auth':
        return authenticate(session, frame, message.key, message.timestamp, message.signature);
      case 'sub':
      case 'unsub':
        return subscribe(session, message.op, message.channel, message.productIds, message.requestId);
      case 'ping':
        return send(session, { channel: 'heartbeat', type: 'pong', ...(message.requestId === undefined ? {} : { request_id: message.requestId }) });
      case 'create_order': {
        const caller = trader(session);
        const busy = limits.requests.take(caller.apiKey);
        if (busy !== undefined) return fail(session, frame, new RateLimitError('E0501_RateLimitExceeded', busy));
        const request = parseWsCreateOrder(message.data, { now: venue.now() });
        if (request instanceof ApiError) return fail(session, frame, request);
        // Only an order that is placed takes from the order budget, as over REST: one the exchange refuses gives it back.
        const wait = limits.orders.take(caller.apiKey);
        if (wait !== undefined) return fail(session, frame, new RateLimitError('E0503_OrderRateLimitExceeded', wait));
        const attribution: Attribution = { session, requestId: message.requestId, userId: caller.userId };
        const placed = await runAs(attribution, () => {
          const { row } = limits.orders.refundIfRefused(caller.apiKey, () => exchange.place(caller.userId, request)).processed;
          // Done at once: every event it will have was tagged while it ran.
          if (row.status !== 'DONE') {
            creators.set(row.orderId, attribution);
            session.created.add(row.orderId);
          }
          return row;
        });
        // The engine's refusals arrive as a rejected order; the interface also names them as errors.
        if (placed.doneReason === 'REJECTED' && placed.rejectReason !== '') {
          const ref = placed.rejectReason as ApiError['ref'];
          return fail(session, frame, apiError(ref, WS_MESSAGE_OF[ref] ?? 'order rejected'));
        }
        return;
      }
      case 'cancel_order': {
        const caller = trader(session);
        const busy = limits.requests.take(caller.apiKey);
        if (busy !== undefined) return fail(session, frame, new RateLimitError('E0501_RateLimitExceeded', busy));
        // No data names no order, as {} does: the 7.4 text "missing order id" rather than "data: required".
        const target = parseWsCancelOrder(message.data ?? {});
        if (target instanceof ApiError) return fail(session, frame, target);
        // An order not working is refused from the tables, which catch up without stalling the core (see
        // Venue.cancelRefusal); one working is cancelled at once, in the order the connection sent its frames.
        if (exchange.findLive(caller.userId, target) === undefined) return fail(session, frame, await venue.cancelRefusal(caller.userId, target));
        await runAs({ session, requestId: message.requestId, userId: caller.userId }, () => exchange.cancel(caller.userId, target));
        return;
      }
    }
  }

  let stopping = false;
  /**
   * Requests taken and not yet answered. A cancel of an order no longer working is answered from the tables,
   * after the venue's last commits: closing the sockets once those commits settled lost that answer.
   */
  let inFlight = 0;
  /** Waiters of answered(), called when inFlight falls to 0. */
  let whenAnswered: (() => void)[] = [];
  const answeredOne = (): void => {
    inFlight -= 1;
    if (inFlight > 0) return;
    const waiters = whenAnswered;
    whenAnswered = [];
    for (const resolve of waiters) resolve();
  };
  const SHUTTING_DOWN = 'the venue is shutting down: this request was not taken';
  // With a listener, ws leaves a handshake it refuses to us instead of answering it in text/html.
  wss.on('wsClientError', (err: Error, socket: Duplex) => {
    // RFC 6455 4.4: a version the server does not speak is answered with the ones it does.
    const version: Record<string, string> = /Sec-WebSocket-Version/.test(err.message) ? { 'Sec-WebSocket-Version': '13, 8' } : {};
    endWithFailure(socket, apiError('E0101_InvalidArgument', `WebSocket handshake: ${err.message}`), version);
  });
  wss.on('connection', (socket: WebSocket) => {
    const session = new Session(socket);
    sessions.add(session);
    follow();
    // A ping does not count: the heartbeat would otherwise keep a connection that does nothing forever.
    session.idle = setTimeout(() => closeWith(socket, CLOSE_IDLE, `no auth or subscription within ${options.idleTimeoutMs / 1000} s`), options.idleTimeoutMs);
    session.idle.unref();
    socket.on('pong', () => {
      session.alive = true;
    });
    socket.on('message', (data, isBinary) => {
      // Stopping: nothing more is taken, and the client is told so while it can still hear it (the close frame
      // follows once what was taken is answered); a frame read after the close frame is not taken either.
      if (stopping) {
        return fail(session, isBinary ? null : echoable(parseFrame(data)), apiError('E0902_ServiceUnavailable', SHUTTING_DOWN));
      }
      const wait = limiter.take(String(socketId(socket)));
      if (wait !== undefined) {
        session.overLimit += 1;
        if (session.overLimit > options.messagesPerSecond) {
          socket.close(CLOSE_RATE_LIMIT, 'rate limit exceeded');
          return;
        }
        // Answered like any refused frame, so a client can match the refusal to its request.
        return fail(session, isBinary ? null : echoable(parseFrame(data)), new RateLimitError('E0501_RateLimitExceeded', wait));
      }
      session.overLimit = 0;
      if (isBinary) return fail(session, null, apiError('E0101_InvalidArgument', 'frames must be JSON text'));
      const parsed = parseFrame(data);
      if (parsed === NOT_JSON) return fail(session, null, apiError('E0102_MalformedJson', 'frame is not valid JSON'));
      const { frame } = parsed;
      // Answered on its channel, its data not echoed: which of a key's two values, or a text that is no character,
      // would the answer repeat?
      const refusal = textRefusal(parsed);
      if (refusal !== undefined) return fail(session, envelopeOf(frame), refusal);
      inFlight += 1;
      handle(session, frame).then(answeredOne, (err: unknown) => {
        try {
          fail(session, frame, err instanceof ApiError ? err : apiError('E0901_InternalError', 'the venue could not complete this request'));
        } finally {
          answeredOne();
        }
      });
    });
    socket.on('close', () => {
      clearTimeout(session.idle);
      sessions.delete(session);
      if (sessions.size === 0) stopFollowing();
      for (const unwatch of session.watches.values()) unwatch();
      limiter.forget(String(socketId(socket)));
      forgetCreations(session);
    });
    socket.on('error', () => socket.terminate());
  });

  const heartbeat = setInterval(() => {
    for (const session of sessions) {
      if (!session.alive) {
        session.socket.terminate();
        continue;
      }
      session.alive = false;
      session.socket.ping();
    }
  }, options.pingIntervalMs);
  heartbeat.unref();

  return {
    handleUpgrade(request, socket, head) {
      // Answered as the HTTP API answers a request while stopping, not with ws's bare 503 once it is closed.
      if (stopping) {
        endWithFailure(socket, apiError('E0902_ServiceUnavailable', 'the venue is shutting down'));
        return;
      }
      const path = (request.url ?? '').split('?')[0]?.slice(0, 100) ?? '';
      // A POST /ws is answered as the HTTP API answers it without the Upgrade header (no route), not with ws's 405.
      if (path !== '/ws' || request.method !== 'GET') {
        endWithFailure(socket, apiError('E0105_RouteNotFound', `no route ${request.method ?? ''} ${path} for an upgrade (the WebSocket is GET /ws)`));
        return;
      }
      if (sessions.size >= options.maxConnections) {
        const most = `the venue holds ${options.maxConnections} WebSocket connections, its most: close one, or try again later`;
        endWithFailure(socket, apiError('E0902_ServiceUnavailable', most));
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    },
    stopTaking() {
      stopping = true;
    },
    answered() {
      return inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenAnswered.push(resolve));
    },
    close() {
      stopping = true;
      clearInterval(heartbeat);
      stopFollowing();
      // Going away (1001), said to each client so it knows to reconnect rather than guess from a dropped socket;
      // one that does not answer the close is cut off a moment later.
      for (const session of sessions) closeWith(session.socket, CLOSE_GOING_AWAY, 'venue stopping');
      wss.close();
    },
  };
}

const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * How deep an error event may nest and still be written with its echo. Its data sits where it sat in the frame
 * (a level below the top), so this is also the deepest frame whose data is echoed. No request needs more than
 * three levels; JSON.stringify, recursing once per level, has room for thousands, fewer on a deeper stack.
 */
const MAX_ECHO_DEPTH = 32;
const NOT_ECHOED = `data not echoed: the frame nests it deeper than ${MAX_ECHO_DEPTH} levels`;

/** Bounded: it looks no deeper than `levels`, so it cannot overflow the stack itself. */
function nestedDeeper(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  for (const child of Array.isArray(value) ? value : Object.values(value)) if (nestedDeeper(child, levels - 1)) return true;
  return false;
}

/** What names a frame's answer (its op, request_id and channel), without its data. */
function envelopeOf(frame: unknown): unknown {
  const { op, request_id: requestId, channel } = frame as Record<string, unknown>;
  const text = (value: unknown): string | undefined => (typeof value === 'string' && !LONE_SURROGATE.test(value) ? value : undefined);
  return { op: text(op), request_id: text(requestId), channel: text(channel) };
}

/** Frames whose nanosecond numbers were quoted to parse them, with the fields quoted: their echo unquotes them. */
const quotedFields = new WeakMap<object, ReadonlySet<string>>();

/** A frame as parsed, with its text: the checks JSON.parse does not make read the text (textRefusal). */
interface ParsedFrame {
  frame: unknown;
  text: string;
}

function parseFrame(data: RawData): ParsedFrame | typeof NOT_JSON {
  try {
    const text = frameText(data);
    // Most frames name neither field; looking first is ten times cheaper than the search in quoteNanoseconds.
    if (!text.includes('_at"')) return { frame: JSON.parse(text) as unknown, text };
    const quoted = new Set<string>();
    const frame = JSON.parse(quoteNanoseconds(text, quoted)) as unknown;
    if (quoted.size > 0 && typeof frame === 'object' && frame !== null) quotedFields.set(frame, quoted);
    return { frame, text };
  } catch {
    return NOT_JSON;
  }
}

/**
 * A frame that names a key twice or escapes a lone surrogate is refused, as REST bodies are (json-text.ts):
 * JSON.parse would take the last of two sides, and a request_id that is no character was echoed as JSON that strict
 * parsers refuse.
 */
function textRefusal({ frame, text }: ParsedFrame): ApiError | undefined {
  return typeof frame === 'object' && frame !== null ? jsonTextRefusal(text, 'frame') : undefined;
}

/** What the answer to a frame refused before it was handled (stopping, over the rate) may echo of it. */
function echoable(parsed: ParsedFrame | typeof NOT_JSON): unknown {
  if (parsed === NOT_JSON) return null;
  return textRefusal(parsed) === undefined ? parsed.frame : envelopeOf(parsed.frame);
}

const NUMBER = '-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?';
const NANOSECOND_NUMBER = new RegExp(`"(expired_at|scheduled_at)"(\\s*):(\\s*)(${NUMBER})`, 'g');
const QUOTED_NANOSECONDS = new RegExp(`"(expired_at|scheduled_at)":"(${NUMBER})"`, 'g');

/**
 * The interface writes expired_at and scheduled_at as integer nanoseconds, which exceed what a JSON number
 * holds exactly (2^53): quote every number written there before parsing, so the digits arrive intact and a
 * literal that is not a plain integer ("1e-400", "1.5") is refused as text instead of rounded by a double.
 * `quoted` collects the fields it quoted.
 */
function quoteNanoseconds(text: string, quoted: Set<string>): string {
  return text.replace(NANOSECOND_NUMBER, (_match, field: string, before: string, after: string, digits: string) => {
    quoted.add(field);
    return `"${field}"${before}:${after}"${digits}"`;
  });
}

/** An error event's text, with the request's data echoed as sent: a number quoted to parse it is a number again. */
function errorEventText(frame: unknown, event: unknown): string {
  const text = JSON.stringify(event);
  const quoted = typeof frame === 'object' && frame !== null ? quotedFields.get(frame) : undefined;
  if (quoted === undefined) return text;
  return text.replace(QUOTED_NANOSECONDS, (match, field: string, digits: string) => (quoted.has(field) ? `"${field}":${digits}` : match));
}

/** A received frame's text, whatever form `ws` delivered it in. */
export function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(new Uint8Array(data)).toString('utf8');
  return data.toString('utf8');
}

const ids = new WeakMap<WebSocket, number>();
let nextId = 0;
function socketId(socket: WebSocket): number {
  let id = ids.get(socket);
  if (id === undefined) {
    id = ++nextId;
    ids.set(socket, id);
  }
  return id;
}
