/**
 * The venue's REST API (interface section 4.1-4.11, the contract's public records and /sim endpoints) on
 * Fastify. Every input arrives as unknown and goes through one parser of src-shared/protocol; every failure is
 * the interface's error object with the catalogue's HTTP status. Nothing here decides trading: the exchange does.
 */
import { isUtf8 } from 'node:buffer';
import http from 'node:http';
import net, { type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError, apiError, errorBody, lookupErrors } from '../../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import { DEFAULT_MAKER_FEE_RATE, DEFAULT_TAKER_FEE_RATE } from '../../../src-shared/protocol/products';
import {
  parseAccountPath,
  parseActiveOrdersQuery,
  parseArchivedOrderQuery,
  parseArchivedOrdersQuery,
  parseBulkCancelBody,
  parseCancelAllQuery,
  parseCancelOrderQuery,
  parseCreateApiKeyBody,
  parseErrorCodesQuery,
  parseOrderBookQuery,
  parseProductPath,
  parseSimDepositBody,
  parseSimResetRequest,
  parseSimUserBody,
  parseTradesQuery,
} from '../../../src-shared/protocol/queries';
import { DAY_NS, MAX_ACTIVE_KEYS_PER_USER, MAX_KEYS_CREATED_PER_DAY, type Caller } from '../accounts/key-ring';
import { FEE_ACCOUNT_ID } from '../exchange/exchange';
import type { LiveOrder } from '../exchange/live-order';
import type { Market } from '../exchange/market';
import type { OrderRow } from '../store';
import type { Venue } from '../venue';
import type { MarketSimulator } from '../sim/market-simulator';
import { RateLimitError, type RateLimiter } from './rate-limit';
import { endWithFailure, rawFailure } from './raw-failure';
import { registerSimControls } from './sim-routes';
import { access, accessOf, type Access } from './access';
import { jsonTextRefusal } from './json-text';
import { accountRecord, apiKeyRecord, assetRecords, orderBookRecord, orderRecord, productRecord, publicTradeRecord } from './records';

export interface HttpApiOptions {
  /** Per-key request and order rates, shared with the WebSocket API: one key has one budget however it sends. */
  requestLimit: RateLimiter;
  orderLimit: RateLimiter;
  /** Largest accepted request body. */
  bodyLimit?: number;
  /** The market simulator, when the venue runs one: its controls live under /sim. */
  simulator?: MarketSimulator;
  /**
   * Takes a request with an Upgrade header that no route takes (the WebSocket's handshake), once the answers before
   * it on its connection are sent. Without it, Node hands such requests to the routes as plain ones.
   */
  upgrade?: (request: http.IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** How long a request may take to arrive whole, headers and body, before it is answered 408. Tests shorten it. */
  requestTimeoutMs?: number;
}

export const DEFAULT_BODY_LIMIT = 64 * 1024;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** Longest path parameter the router takes: every product or user id is far shorter. */
const MAX_PATH_PARAM = 100;

/** A body of JSON whitespace only: clients send it with Content-Type: application/json and mean "no body". */
const BLANK_JSON = /^[ \t\r\n]*$/;

function fail(error: ApiError, reply: FastifyReply): FastifyReply {
  return reply.code(error.httpStatus).send(errorBody(error));
}

/** What answers bytes Node's parser refused (Fastify's clientErrorHandler): no route, hook or error handler runs. */
function clientFailure(error: Error & { code?: string }): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return apiError('E0103_BodyTooLarge', `request headers larger than ${http.maxHeaderSize} bytes`, 431);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return apiError('E0101_InvalidArgument', 'request: not received in full in time', 408);
    default:
      return apiError('E0101_InvalidArgument', 'request: not a valid HTTP/1.1 request');
  }
}

/**
 * Node hands a CONNECT request to the server's 'connect' listeners (a proxy's tunnel) and, with none, drops the
 * connection without a byte, so no route, hook or handler of Fastify's ever sees it. The venue is no proxy: it
 * answers as for any other method it has no route for.
 */
function onConnect(request: http.IncomingMessage, socket: Duplex): void {
  const target = (request.url ?? '').split('?')[0]?.slice(0, 100) ?? '';
  endWithFailure(socket, apiError('E0105_RouteNotFound', `no route CONNECT ${target}`));
}

/**
 * Node answers an `Expect` other than 100-continue by itself, before any route, with a bare 417 and no body; with
 * a listener, the listener answers instead: the same 417, with the API's error object. The request is not run, and
 * the connection closes, since a body may follow that no route reads.
 */
function answerUnmetExpectation(request: http.IncomingMessage, response: http.ServerResponse): void {
  const expectation = String(request.headers.expect ?? '').slice(0, 50);
  const failure = apiError('E0101_InvalidArgument', `Expect: ${expectation} is not supported (only 100-continue is)`, 417);
  const body = JSON.stringify(errorBody(failure));
  response.shouldKeepAlive = false;
  response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
  response.end(body);
}

/**
 * A request to one of the API's routes that also asks to upgrade the connection (curl --http2 sends
 * `Upgrade: h2c` with every plain-http request; some clients and proxies send `Upgrade: websocket`). Node hands
 * every such request to the server's 'upgrade' listener, so no route sees it, and it was answered 404 as if the
 * route did not exist. RFC 9110 7.8 lets a server ignore Upgrade: the request is given back to the HTTP server,
 * on its own connection, as it would have come without the header, and the route answers it (a keep-alive
 * connection then serves on). False, and nothing done, when no route takes the method and path: the upgrade is
 * then the WebSocket's to answer.
 */
function answerWithoutUpgrade(app: FastifyInstance, request: http.IncomingMessage, socket: Duplex, head: Buffer): boolean {
  const path = (request.url ?? '').split('?')[0] ?? '';
  let route: unknown;
  try {
    route = app.findRoute({ method: request.method ?? '', url: path });
  } catch {
    return false;
  }
  if (route === null || !(socket instanceof net.Socket)) return false;
  const lines = [`${request.method ?? ''} ${request.url ?? ''} HTTP/${request.httpVersion}`];
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const value = raw[i + 1] as string;
    const lower = name.toLowerCase();
    if (lower === 'upgrade') continue;
    if (lower === 'connection') {
      const kept = value.split(',').map((token) => token.trim()).filter((token) => token !== '' && token.toLowerCase() !== 'upgrade');
      if (kept.length > 0) lines.push(`${name}: ${kept.join(', ')}`);
      continue;
    }
    lines.push(`${name}: ${value}`);
  }
  // Node reads header bytes as latin1, so latin1 writes back the bytes the client sent; `head` is what followed.
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  // Node documents emitting 'connection' to hand a server a connection: it parses the request anew.
  app.server.emit('connection', socket);
  return true;
}

/** The first path segment that is not valid percent-encoding (the whole path when none is), for messages. */
function badPathComponent(url: string): string {
  const path = url.split('?')[0] ?? '';
  const bad = path.split('/').find((part) => {
    try {
      decodeURIComponent(part);
      return false;
    } catch {
      return true;
    }
  });
  return (bad ?? path).slice(0, 100);
}

/** Fastify's frameworkErrors, raised while routing: before any route, hook or error handler runs. */
function routingFailure(code: string, url: string): ApiError {
  switch (code) {
    case 'FST_ERR_BAD_URL':
      return apiError('E0101_InvalidArgument', `path: '${badPathComponent(url)}' is not a valid URL component`);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return apiError('E0110_ValueOutOfRange', `path: a component is longer than ${MAX_PATH_PARAM} characters`, 414);
    default:
      return apiError('E0901_InternalError', 'the venue could not complete this request');
  }
}

/** Whether text parses as plain JSON: after the secure parser refused it, that means a forbidden key. */
function isJson(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''));
    return true;
  } catch {
    return false;
  }
}

function ok<T>(value: T | ApiError): T {
  if (value instanceof ApiError) throw value;
  return value;
}

/** How many Host lines a request has: Node keeps the first in `headers` and drops the others. */
function hostLines(raw: readonly string[]): number {
  let count = 0;
  // The length first: most names are not four letters, and this runs for every request.
  for (let i = 0; i < raw.length; i += 2) if (raw[i]?.length === 4 && raw[i]?.toLowerCase() === 'host') count += 1;
  return count;
}

/** Why a request's Host lines are refused (RFC 9112 3.2), if they are: for a route's request and a handshake alike. */
function hostRefusal(request: http.IncomingMessage): ApiError | undefined {
  if (request.httpVersion === '1.1' && request.headers.host === undefined) {
    return apiError('E0101_InvalidArgument', 'request: an HTTP/1.1 request needs a Host header (RFC 9112 3.2)');
  }
  if (hostLines(request.rawHeaders) > 1) return apiError('E0101_InvalidArgument', 'request: more than one Host header (RFC 9112 3.2)');
  return undefined;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Whether a sent reply was its connection's last: a request that asked for that, or its own Connection: close (Fastify
 * sets one after a refused body; Node's response has forgotten its headers by the time it closes, Fastify's has not).
 */
function closesConnection(reply: FastifyReply): boolean {
  return !reply.raw.shouldKeepAlive || /\bclose\b/i.test(String(reply.getHeader('connection') ?? ''));
}

const API_KEY_FIELDS: ReadonlySet<string> = new Set(['name', 'read_only', 'expiration_time']);

/**
 * A field of a POST /api-keys body that the endpoint does not take, if one is there (not null). Elsewhere an unknown
 * field is ignored, as Coinbase ignores them; here ignoring one makes the key more powerful than asked: a misspelt
 * read_only (readOnly, or the record's is_read_only) or expiry (expires_at, or the record's expired_at) made a key
 * that trades and never expires, for a client that asked for a read-only or short-lived one and may never read
 * the answer to find out.
 */
function strayApiKeyField(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const stray = Object.entries(body).find(([field, value]) => !API_KEY_FIELDS.has(field) && value !== null);
  if (stray === undefined) return undefined;
  // `{"": 1}` names no field: the answer says so rather than start with ':'.
  return stray[0] === '' ? 'a field without a name' : stray[0].slice(0, 50);
}

export function buildHttpApi(venue: Venue, options: HttpApiOptions): FastifyInstance {
  // Requests pipelined on one connection run in the order sent, each once the one before it is answered. Node
  // parses each as it arrives and orders only the answers, so an order list sent after an order ran before the
  // order was placed and missed it, and a cancel-all could run before the orders sent ahead of it (RFC 9112 9.3.2
  // lets a server process pipelined requests in parallel only when all are safe).
  // A request behind an answer that closed the connection (a refused body, a client's own Connection: close) is
  // not run at all (RFC 9112 9.6): its answer could never be sent, so an order placed then was unknown to the
  // client, which may send it again.
  const lastOnConnection = new WeakMap<object, Promise<void>>();
  const answeredLast = new WeakSet<object>();
  const refusing = new WeakSet<object>();
  /** The last request parsed on each connection, so that a refusal of its bytes can tell whether they are its own. */
  const latest = new WeakMap<object, InLine>();

  interface InLine {
    readonly request: http.IncomingMessage;
    readonly response: http.ServerResponse;
    /** The answers before this one on its connection; undefined when all were sent. */
    readonly before: Promise<void> | undefined;
    readonly answered: Promise<void>;
  }

  /**
   * Puts a request's answer last on its connection: what arrives after it waits until it is sent, and does not run
   * at all if `closes` (asked once it is sent) says it closed the connection.
   */
  function join(socket: object, request: http.IncomingMessage, response: http.ServerResponse, closes: () => boolean): InLine {
    const before = lastOnConnection.get(socket);
    // A response emits 'close' once it is sent, or once its connection is gone.
    const answered = new Promise<void>((resolve) =>
      response.once('close', () => {
        if (closes()) answeredLast.add(socket);
        resolve();
      }),
    );
    lastOnConnection.set(socket, answered);
    void answered.then(() => {
      if (lastOnConnection.get(socket) === answered) lastOnConnection.delete(socket);
    });
    const inLine = { request, response, before, answered };
    latest.set(socket, inLine);
    return inLine;
  }

  /**
   * Runs `act` (a refusal written straight to the socket, or the socket handed on) once `pending` (the answers to
   * the requests before on its connection) is sent. Done at once, it wrote over the answer in flight or took the
   * connection from it: an order placed ahead was never acknowledged, and its client would send it again. Not run at
   * all behind an answer that closed the connection, as no request is.
   */
  function afterAnswers(socket: Duplex, pending: Promise<void> | undefined, act: () => void): void {
    if (pending === undefined) {
      act();
      return;
    }
    // Node took its own error listener off a socket it hands over (an upgrade, a CONNECT): a reset meanwhile must
    // not be an unhandled error.
    const onError = (): void => {
      socket.destroy();
    };
    socket.on('error', onError);
    void pending.then(() => {
      socket.off('error', onError);
      if (socket.destroyed || answeredLast.has(socket)) socket.destroy();
      else act();
    });
  }

  /**
   * Node's parser refused the bytes, or timed them out: it refuses each later chunk the same way, answered once.
   * They are a later request's (its headers), answered after all before it, or those of the request still arriving
   * (its body broke off or stalled), whose own answer waits for a body that never comes: the refusal is that
   * answer, after those before it, unless it was answered before its body was read (a key refused); the connection
   * then closes once that answer is sent, with no second one.
   */
  function onClientError(error: Error & { code?: string }, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed || refusing.has(socket)) return;
    refusing.add(socket);
    const refuse = (): void => {
      if (socket.writable) socket.write(rawFailure(clientFailure(error)));
      socket.destroy();
    };
    const arriving = latest.get(socket);
    if (arriving === undefined || arriving.request.complete) {
      afterAnswers(socket, lastOnConnection.get(socket), refuse);
      return;
    }
    afterAnswers(socket, arriving.before, () => {
      if (arriving.response.headersSent) void arriving.answered.then(() => socket.destroy());
      else refuse();
    });
  }

  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;

  const app = Fastify({
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    logger: false,
    // Fastify's own 503 while closing has its own body ({ error: 'Service Unavailable' }): the hook below answers
    // with the interface's error object instead.
    return503OnClosing: false,
    // A request whose headers or body stall is answered 408 rather than held open for good. Node reads its timeouts
    // at createServer: Fastify sets requestTimeout only afterwards (to this value, or to 0 without it), when the
    // time for headers Node derived (60 s) is already longer than it, and Node then times nothing out.
    requestTimeout,
    routerOptions: { maxParamLength: MAX_PATH_PARAM },
    http: {
      requestTimeout,
      // How often Node looks for requests out of time: by default every 30 s, so a 408 came 30 to 60 s after.
      connectionsCheckingInterval: Math.ceil(requestTimeout / 10),
      // Node answers an HTTP/1.1 request without a Host header by itself with a bare 400 and no body: the onRequest
      // hook below refuses it instead, with the error object.
      requireHostHeader: false,
    },
    // Failures before routing still answer with the interface's error object (7.1), not Fastify's own body.
    frameworkErrors: (error, request, reply) => {
      void fail(routingFailure(error.code, request.url), reply);
    },
    clientErrorHandler: onClientError,
  });
  app.server.on('connect', (request: http.IncomingMessage, socket: Duplex) => afterAnswers(socket, lastOnConnection.get(socket), () => onConnect(request, socket)));
  const { upgrade } = options;
  if (upgrade !== undefined) {
    app.server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      // Refused as any request is: a handshake never reaches the hooks.
      const refusal = hostRefusal(request);
      afterAnswers(socket, lastOnConnection.get(socket), () => {
        if (refusal !== undefined) endWithFailure(socket, refusal);
        else if (!answerWithoutUpgrade(app, request, socket, head)) upgrade(request, socket, head);
      });
    });
  }
  // Node writes the 417 in turn after the answers before it; what is pipelined behind it waits for it as for any
  // answer, and, since it closes the connection, never runs.
  app.server.on('checkExpectation', (request: http.IncomingMessage, response: http.ServerResponse) => {
    join(request.socket, request, response, () => true);
    answerUnmetExpectation(request, response);
  });
  // Bodies are JSON only (interface section 4): without this, text/plain would reach a route as a string.
  app.removeContentTypeParser('text/plain');
  // Any other type: an empty body is no body, as for application/json below. Some clients label every POST and
  // DELETE with a default type though they send nothing (Java's HttpURLConnection: form-urlencoded), and such a
  // cancel-all was refused 415 for a body that was not there. A body that is there is refused as soon as it is
  // known to be there, unread: buffering it first let a client make the venue hold up to bodyLimit bytes of it per
  // request only to refuse them. Fastify closes the connection after a parser's refusal, so the rest is never read.
  app.addContentTypeParser('*', (request, payload, done) => {
    const unsupported = () => apiError('E0106_UnsupportedMediaType', 'request bodies must be application/json');
    if (request.headers['transfer-encoding'] === undefined) {
      // Node's parser has already refused a Content-Length that is not a plain decimal.
      if (Number(request.headers['content-length'] ?? '0') === 0) done(null, undefined);
      else done(unsupported());
      return;
    }
    // Chunked: whether any body comes is known only by its first byte, or by its end without one.
    const settle = (error: Error | null): void => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onError);
      done(error, undefined);
    };
    const onData = (): void => settle(unsupported());
    const onEnd = (): void => settle(null);
    const onError = (): void => settle(apiError('E0101_InvalidArgument', 'request body: not received in full'));
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  });
  // Fastify's JSON parser, except that a blank body is no body, and valid JSON refused only for its __proto__
  // or constructor keys is E0101 (Fastify 5 reports both as invalid JSON with the same message).
  const secureJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    // The venue reads bodies as sent: a compressed one would be parsed as if it were JSON text.
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      done(apiError('E0106_UnsupportedMediaType', `content-encoding ${encoding.slice(0, 20)} is not accepted: send the JSON body uncompressed`));
      return;
    }
    // Node undoes chunked alone (and refuses a body not ending in it): a coding before it (gzip, chunked) is left on.
    const transfer = request.headers['transfer-encoding'];
    if (transfer !== undefined && transfer.trim().toLowerCase() !== 'chunked') {
      done(apiError('E0106_UnsupportedMediaType', `transfer-encoding ${transfer.slice(0, 30)} is not accepted: send the JSON body uncompressed, chunked or with a Content-Length`));
      return;
    }
    // Decoded as a string, bytes that are not UTF-8 became U+FFFD: the venue stored text the client never sent.
    if (!isUtf8(bytes)) {
      done(apiError('E0102_MalformedJson', 'request body is not valid UTF-8 (JSON bodies are UTF-8)'));
      return;
    }
    const text = bytes.toString('utf8');
    if (BLANK_JSON.test(text)) {
      done(null, undefined);
      return;
    }
    void secureJson(request, text, (error: Error | null, value?: unknown) => {
      if (error !== null && (error as { code?: unknown }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' && isJson(text)) {
        done(apiError('E0101_InvalidArgument', 'request body: __proto__ and constructor keys are not allowed'));
        return;
      }
      const refusal = error === null ? jsonTextRefusal(text, 'request body') : undefined;
      if (refusal !== undefined) {
        done(refusal);
        return;
      }
      done(error, value);
    });
  });
  const requests = options.requestLimit;
  const orders = options.orderLimit;
  const { exchange, store, keys } = venue;

  function authenticate(request: FastifyRequest, who: Access): Caller {
    const caller = ok(keys.authenticate(header(request, 'nova-key'), header(request, 'nova-secret'), venue.now()));
    const wait = requests.take(caller.apiKey);
    if (wait !== undefined) throw new RateLimitError('E0501_RateLimitExceeded', wait);
    const adminOnly = who === 'admin-read' || who === 'admin-trade';
    if (adminOnly && exchange.user(caller.userId)?.isAdmin !== true) throw apiError('E0003_PermissionDenied', 'the simulation endpoints need the venue admin key');
    if ((who === 'trade' || who === 'admin-trade') && caller.readOnly) {
      throw apiError('E0004_InsufficientScope', adminOnly ? 'this API key is read-only and cannot change the simulation' : 'this API key is read-only and cannot trade');
    }
    return caller;
  }

  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket as Socket | null;
    if (socket === null) {
      done();
      return;
    }
    const { before } = join(socket, request.raw, reply.raw, () => closesConnection(reply));
    const next = (): void => {
      if (answeredLast.has(socket)) socket.destroy();
      else done();
    };
    if (before === undefined) next();
    else void before.then(next);
  });

  // A request that arrives once the venue is stopping (pipelined behind one in flight) is refused, not started.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  // Credentials are checked as the request arrives, before its body is read (access.ts).
  const callers = new WeakMap<FastifyRequest, Caller>();
  app.addHook('onRequest', (request, reply, done) => {
    const who = accessOf(request.routeOptions.config);
    try {
      const hosts = hostRefusal(request.raw);
      if (hosts !== undefined) {
        void reply.header('connection', 'close');
        throw hosts;
      }
      if (closing) {
        void reply.header('connection', 'close');
        throw apiError('E0902_ServiceUnavailable', 'the venue is shutting down');
      }
      if (who !== undefined) callers.set(request, authenticate(request, who));
      done();
    } catch (err) {
      done(err instanceof Error ? err : new Error(String(err)));
    }
  });

  // And again once the body is in, as the request is about to act: a body may take up to a minute to arrive, and
  // a key revoked or expired meanwhile (a leaked key its owner just revoked) must not place an order or mint a key.
  app.addHook('preHandler', (request, _reply, done) => {
    const caller = callers.get(request);
    const refusal = caller === undefined ? undefined : keys.refusal(caller.apiKey, venue.now());
    done(refusal);
  });

  /** The caller the onRequest hook let through: a route with access() options has one. */
  function callerOf(request: FastifyRequest): Caller {
    const caller = callers.get(request);
    if (caller === undefined) throw new Error(`route ${request.routeOptions.url ?? ''} names no access() but asks who calls it`);
    return caller;
  }

  function market(productId: string): Market {
    const m = exchange.markets.get(productId);
    if (m === undefined) throw apiError('E0104_InvalidSymbol', `unknown product ${productId}`);
    return m;
  }

  const liveRecord = (order: LiveOrder) => orderRecord(order.row, order.trades, order.market);

  /**
   * Orders as the tables hold them, which is everything acknowledged: the row the query chose by its status, not
   * the order in memory, which may be ahead of it (a stop triggered by a trade whose commit is still in flight
   * was listed under status=SCHEDULED as ACTIVE, a state a crash then could undo).
   */
  function recordsOf(rows: OrderRow[]) {
    const byOrder = store.tradesByOrder(rows.map((r) => r.orderId));
    return rows.map((row) => orderRecord(row, byOrder.get(row.orderId) ?? [], market(row.productId)));
  }

  app.setErrorHandler((error: unknown, _request, reply) => {
    if (error instanceof ApiError) {
      if (error instanceof RateLimitError) void reply.header('retry-after', String(error.retryAfterSeconds));
      return fail(error, reply);
    }
    const code = (error as { code?: unknown }).code;
    switch (code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return fail(apiError('E0103_BodyTooLarge', `request body larger than ${options.bodyLimit ?? DEFAULT_BODY_LIMIT} bytes`), reply);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return fail(apiError('E0106_UnsupportedMediaType', 'request bodies must be application/json'), reply);
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return fail(apiError('E0102_MalformedJson', 'request body is not valid JSON'), reply);
      default: {
        const status = (error as { statusCode?: unknown }).statusCode;
        if (typeof status === 'number' && status >= 400 && status < 500) {
          // Any other refusal of Fastify's (a bad header): the request is refused, never half-read.
          return fail(apiError('E0101_InvalidArgument', (error as Error).message.slice(0, 200)), reply);
        }
        return fail(apiError('E0901_InternalError', 'the venue could not complete this request'), reply);
      }
    }
  });
  app.setNotFoundHandler((request, reply) =>
    fail(apiError('E0105_RouteNotFound', `no route ${request.method} ${request.url.split('?')[0]?.slice(0, 100) ?? ''}`), reply),
  );

  // ---- API keys (4.1) --------------------------------------------------------------------------------------
  app.post('/api-keys', access('trade'), async (request) => {
    const caller = callerOf(request);
    const stray = strayApiKeyField(request.body);
    if (stray !== undefined) {
      throw apiError('E0101_InvalidArgument', `${stray}: not a field of POST /api-keys, which takes name, read_only and expiration_time (ignored, it could make a key that trades or never expires)`);
    }
    const spec = ok(parseCreateApiKeyBody(request.body ?? {}, { now: venue.now() }));
    const expiredAt = spec.expiresAt === 0n ? null : spec.expiresAt;
    // Otherwise a short-lived key (one handed to a script, say) would mint a permanent one, and its expiry would
    // end nothing. Refused rather than capped: the client asked for a lifetime it would not get, and says so.
    if (caller.expiredAt !== null && (expiredAt === null || expiredAt > caller.expiredAt)) {
      throw apiError(
        'E0110_ValueOutOfRange',
        `expiration_time: this key expires at ${caller.expiredAt}, so a key it creates must expire by then too (send expiration_time at most ${caller.expiredAt})`,
      );
    }
    const created = await venue.run(() => {
      // Counted in the same command as the create, so two requests at once cannot both take the last place.
      const now = venue.now();
      if (keys.activeKeysOf(caller.userId, now).length >= MAX_ACTIVE_KEYS_PER_USER) {
        throw apiError(
          'E0110_ValueOutOfRange',
          `you already have ${MAX_ACTIVE_KEYS_PER_USER} active API keys (neither revoked nor expired), the most a user may have: revoke one (GET /api-keys lists them, DELETE /api-keys/{api_key} revokes one) to create another`,
        );
      }
      // A key of the last 24 hours counts even once revoked or expired: it is stored all the same.
      const today = keys.createdSince(caller.userId, now - DAY_NS);
      const oldest = today[today.length - MAX_KEYS_CREATED_PER_DAY];
      if (oldest !== undefined) {
        throw apiError(
          'E0110_ValueOutOfRange',
          `you have created ${MAX_KEYS_CREATED_PER_DAY} API keys in the last 24 hours (revoked and expired ones count), the most a user may: the next can be created from ${oldest.createdAt + DAY_NS} (UNIX ns)`,
        );
      }
      return keys.create(caller.userId, { name: spec.name, readOnly: spec.readOnly, expiredAt }, now);
    });
    return { api_key: apiKeyRecord(created.row, created.secret) };
  });

  // This venue's addition, as the revoke below is: the caller's keys that still work, oldest first, never with a
  // secret. They are what MAX_ACTIVE_KEYS_PER_USER counts, and without them a client that lost track of its keys
  // (a script's, a create whose answer never came) could not tell which to revoke to create another.
  app.get('/api-keys', access('read'), (request) => {
    const caller = callerOf(request);
    return venue.readDurable(() => ({ api_keys: keys.activeKeysOf(caller.userId, venue.now()).map((row) => apiKeyRecord(row)) }));
  });

  // This venue's addition (the interface creates keys but names no way to end one, though it rejects revoked
  // keys): the caller revokes one of its own keys, the one it calls with included. Another user's key answers
  // as a key that does not exist.
  app.delete<{ Params: { api_key: string } }>('/api-keys/:api_key', access('trade'), async (request) => {
    const caller = callerOf(request);
    const local = venue.localCredentials();
    if (local?.api_key === request.params.api_key && local.user_id === caller.userId) {
      throw apiError('E0003_PermissionDenied', 'this is the local key, by which the desk and bootstrap.json reach the venue: it cannot be revoked');
    }
    const row = await venue.run(() => keys.revoke(request.params.api_key, caller.userId));
    if (row === undefined) throw apiError('E0305_ApiKeyNotFound', 'you have no such API key');
    return { api_key: { ...apiKeyRecord(row), revoked: true } };
  });

  // ---- orders (4.2-4.8) ------------------------------------------------------------------------------------
  app.post('/api/v1/orders', access('trade'), async (request) => {
    const caller = callerOf(request);
    const order = ok(parseCreateOrder(request.body, { now: venue.now() }));
    // Only an order that is placed takes from the order budget; an invalid one took its request's (onRequest).
    const wait = orders.take(caller.apiKey);
    if (wait !== undefined) throw new RateLimitError('E0503_OrderRateLimitExceeded', wait);
    return venue.run(() => {
      const { submitted, processed } = orders.refundIfRefused(caller.apiKey, () => exchange.place(caller.userId, order));
      const row = order.wait ? processed.row : submitted;
      return { order: orderRecord(row, order.wait ? processed.trades : [], processed.market) };
    });
  });

  app.get('/api/v1/orders/active', access('read'), (request) => {
    const caller = callerOf(request);
    const q = ok(parseActiveOrdersQuery(request.query));
    const filter = {
      ...(q.productId === undefined ? {} : { productIds: [q.productId] }),
      ...(q.clientOrderId === undefined ? {} : { clientOrderId: q.clientOrderId }),
    };
    return venue.readDurable(() => ({ orders: exchange.activeOrders(caller.userId, filter).map(liveRecord) }));
  });

  app.delete('/api/v1/order/active', access('trade'), async (request) => {
    const caller = callerOf(request);
    const target = ok(parseCancelOrderQuery(request.query));
    // An order not working is refused from the tables, which catch up without stalling other clients (see
    // Venue.cancelRefusal); one working is cancelled at once.
    if (exchange.findLive(caller.userId, target) === undefined) throw await venue.cancelRefusal(caller.userId, target);
    return venue.run(() => {
      // The order as the cancel left it, fills and all: the tables may not hold its last fill yet.
      const order = exchange.cancel(caller.userId, target);
      return { order: orderRecord(order.row, order.trades, order.market) };
    });
  });

  app.delete('/api/v1/orders/active', access('trade'), async (request) => {
    const caller = callerOf(request);
    const select = ok(parseBulkCancelBody(request.body));
    const seenThrough = exchange.lastSeq;
    const ids = [...select.ids];
    const { cancelRequested, notWorking } = await venue.run(() =>
      exchange.cancelMany(caller.userId, {
        ...(select.by === 'order_ids' ? { orderIds: ids } : {}),
        ...(select.by === 'client_order_ids' ? { clientOrderIds: ids } : {}),
        ...(select.by === 'product_ids' ? { productIds: ids } : {}),
      }),
    );
    // What was not working is told apart from the tables once they hold every commit before (as for one cancel).
    if (notWorking.length > 0) await venue.inTables();
    const { notOpened, alreadyCancelRequested } = exchange.sortNotWorking(caller.userId, notWorking, seenThrough);
    const pair = (o: { id: string; clientOrderId: string }) => ({ id: o.id, client_order_id: o.clientOrderId });
    return {
      cancel_requested_orders: cancelRequested.map(pair),
      not_opened_orders: notOpened.map(pair),
      already_cancel_requested_orders: alreadyCancelRequested.map(pair),
    };
  });

  app.delete('/api/v1/orders/active/all', access('trade'), (request) => {
    const caller = callerOf(request);
    const q = ok(parseCancelAllQuery(request.query, request.body));
    return venue.run(() => ({
      cancel_requested_orders: exchange
        .cancelAll(caller.userId, q.productId)
        .map((row) => ({ order_id: row.orderId, client_order_id: row.clientOrderId })),
    }));
  });

  app.get('/api/v1/orders/archived', access('read'), async (request) => {
    const caller = callerOf(request);
    const q = ok(parseArchivedOrdersQuery(request.query));
    await store.caughtUp();
    const rows = store.archivedOrders(caller.userId, {
      ...(q.productIds.length > 0 ? { productIds: [...q.productIds] } : {}),
      ...(q.startTime === undefined ? {} : { startTime: q.startTime }),
      ...(q.endTime === undefined ? {} : { endTime: q.endTime }),
      limit: q.limit,
      ...(q.status === undefined ? {} : { status: q.status }),
      sort: q.sort,
      ...(q.clientOrderId === undefined ? {} : { clientOrderId: q.clientOrderId }),
    });
    return { orders: recordsOf(rows) };
  });

  app.get('/api/v1/order/archived', access('read'), async (request) => {
    const caller = callerOf(request);
    const q = ok(parseArchivedOrderQuery(request.query));
    await store.caughtUp();
    const row =
      (q.uuidShaped ? store.orderById(caller.userId, q.order.toLowerCase()) : undefined) ??
      store.newestOrderByClientId(caller.userId, q.order);
    if (row === undefined) throw apiError('E0301_OrderNotFound', 'no order with that id or client order id');
    const [record] = recordsOf([row]);
    return { order: record };
  });

  // ---- account (4.9) ---------------------------------------------------------------------------------------
  app.get('/accounts/:user_id', access('read'), (request) => {
    const caller = callerOf(request);
    const userId = parseAccountPath((request.params as { user_id: string }).user_id);
    if (userId !== caller.userId) throw apiError('E0003_PermissionDenied', 'these credentials belong to another account');
    const user = exchange.user(userId);
    if (user === undefined) throw apiError('E0304_UserNotFound', 'no such account');
    return venue.readDurable(() => ({ account: accountRecord(user, exchange.ledger.balances(userId), exchange.orderCounts(userId)) }));
  });

  // ---- error codes (4.10) ----------------------------------------------------------------------------------
  app.get('/v1/error-codes', (request) => {
    const q = ok(parseErrorCodesQuery(request.query));
    return Promise.resolve({ data: { errors: ok(lookupErrors(q)) } });
  });

  // ---- public (4.11) ---------------------------------------------------------------------------------------
  app.get('/products', () => Promise.resolve({ products: [...exchange.markets.values()].map(productRecord) }));
  app.get('/assets', () => Promise.resolve({ assets: assetRecords() }));
  app.get('/products/:id/orderbook', (request) => {
    const id = productPathOr404((request.params as { id: string }).id);
    const { depth } = ok(parseOrderBookQuery(request.query));
    // Read between turns, so the book is the one its sequence names, and sent once that is durable.
    return venue.readDurable(() => ({ orderbook: orderBookRecord(market(id), depth, venue.now()) }));
  });
  app.get('/products/:id/trades', (request) => {
    const id = productPathOr404((request.params as { id: string }).id);
    const { limit } = ok(parseTradesQuery(request.query));
    return venue.readDurable(() => ({ trades: market(id).recentTrades.slice(-limit).reverse().map(publicTradeRecord) }));
  });

  /** The contract: an unknown product in the path is a 404 naming E0104_InvalidSymbol. */
  function productPathOr404(id: string): string {
    const parsed = parseProductPath(id);
    if (parsed instanceof ApiError) throw apiError(parsed.ref, parsed.description, 404);
    return parsed;
  }

  // ---- simulation (venue contract) -------------------------------------------------------------------------
  app.post('/sim/users', access('admin-trade'), async (request) => {
    const body = ok(parseSimUserBody(request.body));
    // The account, its funds and its key in one commit: a user is never stored without the key that reaches it.
    const { user, key } = await venue.run(() => {
      // Every amount is checked before the user exists: a refusal must leave no half-funded account behind.
      for (const b of body.balances) exchange.checkDeposit(b.assetId, b.atoms, `balances.${b.assetId}`);
      const opened = exchange.createUser({ isAdmin: false, makerFeeRate: body.makerFeeRate ?? DEFAULT_MAKER_FEE_RATE, takerFeeRate: body.takerFeeRate ?? DEFAULT_TAKER_FEE_RATE });
      for (const b of body.balances) exchange.fund(opened.id, b.assetId, b.atoms);
      return { user: opened, key: keys.create(opened.id, { name: 'simulated', readOnly: false, expiredAt: null }, venue.now()) };
    });
    return { user_id: user.id, api_key: apiKeyRecord(key.row, key.secret) };
  });

  app.post('/sim/reset', access('admin-trade'), async (request) => {
    ok(parseSimResetRequest(request.query, request.body));
    await venue.run(() => exchange.reset());
    return { reset: true };
  });

  app.post('/sim/deposit', access('admin-trade'), async (request) => {
    const body = ok(parseSimDepositBody(request.body));
    return venue.run(() => {
      const user = exchange.user(body.userId);
      if (user === undefined) throw apiError('E0304_UserNotFound', `no user ${body.userId}`);
      // Its balance is the fees charged, which /sim/reset empties: a deposit there would be neither.
      if (body.userId === FEE_ACCOUNT_ID) throw apiError('E0101_InvalidArgument', 'user_id: the fee account holds the fees charged and takes no deposits');
      exchange.deposit(body.userId, body.assetId, body.atoms);
      return { account: accountRecord(user, exchange.ledger.balances(body.userId), exchange.orderCounts(body.userId)) };
    });
  });

  if (options.simulator !== undefined) registerSimControls(app, options.simulator);

  return app;
}
