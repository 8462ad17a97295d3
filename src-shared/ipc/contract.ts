/**
 * The bridge between windows and the main process: every method a window may call and every event main pushes,
 * with their schemas. The preload builds `window.nova` from the names in methods.ts; main parses every call
 * against the request schema here (ARCHITECTURE rule 4) and every answer against the response schema, which
 * drops any field the contract does not name: no schema here has a field for a secret, so none can slip out.
 *
 * The one exception to "secrets never cross the bridge" is inbound: `keys.import` carries the secret a trader
 * typed into a window, one way, into main, which puts it in the keychain. No answer or event ever echoes it.
 */
import { z } from 'zod';
import {
  AccountSchema,
  BookLevelSchema,
  OrderSchema,
  ProductSchema,
  PublicTradeSchema,
} from '../protocol/records';
import { CandleSchema } from '../protocol/ws';
import { ORDER_SIDES, ORDER_STATUSES, ORDER_TYPES, REST_STP_MODES, STOP_TYPES, TIMES_IN_FORCE, ARCHIVED_SORTS } from '../protocol/vocabulary';
import type { EventName, MethodName } from './methods';

export { EVENT_CHANNEL, EVENT_NAMES, IPC_CHANNEL, METHOD_NAMES, type EventName, type MethodName } from './methods';

// ---- building blocks

const empty = z.strictObject({});
/** A plain non-negative decimal as the wire writes it: "2500000000", "0.0001". */
const decimal = z.string().regex(/^\d{1,30}(\.\d{1,30})?$/, 'must be a plain decimal like "0.5"');
/** UNIX nanoseconds as a digit string. */
const nanos = z.string().regex(/^\d{1,19}$/, 'must be UNIX nanoseconds as digits');
const productId = z.string().regex(/^[A-Z0-9]{1,12}-[A-Z0-9]{1,12}$/, 'must be a product like BTC-VND');
const id = z.string().min(1).max(128);
const clientOrderId = z.string().regex(/^[A-Za-z0-9:_-]{1,128}$/, 'must be 1-128 letters, digits, ":", "-" or "_"');
const url = (scheme: RegExp, what: string) =>
  z
    .string()
    .max(2048)
    .refine((text) => {
      try {
        return scheme.test(new URL(text).protocol);
      } catch {
        return false;
      }
    }, `must be an absolute ${what} address`);
/**
 * A key or secret as the venue showed it. It travels in a request header as typed, where fetch trims surrounding
 * whitespace (the WebSocket then signs with the untrimmed secret, and is refused) and refuses anything else
 * outside visible ASCII before sending (which read as a lost connection).
 */
const credential = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces or line breaks, as the venue showed it');
/**
 * No venue mints a secret this short (the local venue's are 43 characters): shorter is a slip (a half-pasted
 * secret, a key id, a placeholder) that would otherwise sit in the keychain until the venue refused it.
 */
const MIN_SECRET_LENGTH = 16;
const apiSecret = credential(512).min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters, as a venue shows a secret: is part of it missing?`);
const httpUrl = url(/^https?:$/, 'http(s)');
const wsUrl = url(/^wss?:$/, 'ws(s)');

export const EnvironmentId = z.enum(['local', 'development', 'production']);
export type EnvironmentId = z.infer<typeof EnvironmentId>;

// ---- records the desk answers with

export const VenueStatus = z.object({
  state: z.enum(['starting', 'ready', 'stopped', 'failed']),
  baseUrl: z.string(),
  wsUrl: z.string(),
  simulate: z.boolean(),
  detail: z.string(),
});
export type VenueStatus = z.infer<typeof VenueStatus>;

export const Environment = z.object({
  id: EnvironmentId,
  name: z.string(),
  baseUrl: z.string(),
  wsUrl: z.string(),
  /** Shown in red, everywhere: real money. */
  production: z.boolean(),
  /** Every order is confirmed by the trader before it is sent. */
  confirmOrders: z.boolean(),
  /** The key the desk trades with here, if any (the key id, never its secret). */
  activeKey: z.string().optional(),
});
export type Environment = z.infer<typeof Environment>;

export const SecretStorage = z.object({
  kind: z.enum(['keychain', 'memory']),
  /** Said to the trader as it stands when secrets will not outlive the session. */
  notice: z.string().optional(),
});

export const EnvironmentsView = z.object({
  active: EnvironmentId,
  environments: z.array(Environment),
  secretStorage: SecretStorage,
});
export type EnvironmentsView = z.infer<typeof EnvironmentsView>;

export const ConnectionStatus = z.object({
  environment: EnvironmentId,
  production: z.boolean(),
  /**
   * no_key: nothing to trade with yet (the market is polled from the public endpoints); unavailable: the
   * environment cannot be reached, so what the market panels show is stale: the local venue did not start, or
   * without a key its public endpoints stopped answering (detail says why); the rest are the venue session's states.
   */
  state: z.enum(['no_key', 'unavailable', 'connecting', 'reconciling', 'live', 'reconnecting', 'refused', 'closed']),
  userId: z.string().optional(),
  apiKey: z.string().optional(),
  readOnly: z.boolean().optional(),
  latencyMs: z.number().optional(),
  detail: z.string(),
  /**
   * The client order ids of this environment's orders whose outcome was unknown that the desk's lookup found were
   * never placed, while detail says so: the window that sent one follows it by that id (the ticket's Last order line).
   */
  notPlaced: z.array(z.string()).optional(),
});
export type ConnectionStatus = z.infer<typeof ConnectionStatus>;

export const StoredKey = z.object({
  environment: EnvironmentId,
  apiKey: z.string(),
  name: z.string(),
  readOnly: z.boolean(),
  /** UNIX nanoseconds; '0' when it does not expire. */
  expiredAt: z.string(),
  createdAt: z.string(),
  userId: z.string().optional(),
  origin: z.enum(['bootstrap', 'created', 'imported']),
  active: z.boolean(),
  /**
   * Where its secret is: the keychain, memory for this session only, nowhere any more (import it again), or
   * 'locked': the keychain cannot be read now (locked, or not running), so whether it holds the secret is not
   * known until it is unlocked.
   */
  storedIn: z.enum(['keychain', 'memory', 'missing', 'locked']),
});
export type StoredKey = z.infer<typeof StoredKey>;

export const KeyStored = z.object({ key: StoredKey, note: z.string() });

export const PreTradeIssue = z.object({
  check: z.enum(['confirmation', 'price_deviation', 'max_notional']),
  message: z.string(),
});
export type PreTradeIssue = z.infer<typeof PreTradeIssue>;

export const PlaceResult = z.discriminatedUnion('status', [
  z.object({ status: z.literal('placed'), order: OrderSchema }),
  /** Nothing was sent: the trader confirms (or overrides the checks) and places again. */
  z.object({ status: z.literal('held'), issues: z.array(PreTradeIssue) }),
]);
export type PlaceResult = z.infer<typeof PlaceResult>;

export const Fill = z.object({
  tradeId: z.string(),
  orderId: z.string(),
  clientOrderId: z.string(),
  productId: z.string(),
  side: z.string(),
  price: z.string(),
  size: z.string(),
  liquidity: z.string(),
  feeAsset: z.string(),
  feeAmount: z.string(),
  time: z.string(),
});
export type Fill = z.infer<typeof Fill>;

export const BookSnapshot = z.object({
  productId: z.string(),
  sequence: z.number(),
  time: z.string(),
  source: z.enum(['stream', 'poll', 'rest']),
  /** The last levels known, not the venue's book: a gap in the stream not yet resynced, or polls that fail. */
  inDoubt: z.boolean().optional(),
  bids: z.array(BookLevelSchema),
  asks: z.array(BookLevelSchema),
});
export type BookSnapshot = z.infer<typeof BookSnapshot>;

export const Ticker = z.object({
  productId: z.string(),
  price: z.string(),
  bestBid: z.string(),
  bestAsk: z.string(),
  volume24h: z.string(),
  time: z.string(),
  /** The last ticker known, not the venue's: its stream was cut off (a lost connection) and is not back yet. */
  inDoubt: z.boolean().optional(),
});
export type Ticker = z.infer<typeof Ticker>;

/** A product's streams besides its book: each is in doubt (the last known) while its sub is not answered. */
export const MarketFeed = z.enum(['trades', 'ticker', 'candles']);
export type MarketFeed = z.infer<typeof MarketFeed>;

/**
 * The book of a product the window now watches, and which of its other streams are in doubt (none when absent): the
 * window starting to watch reads the tape and candles, which say nothing of it, and no event tells the doubt until it
 * changes.
 */
export const WatchAnswer = BookSnapshot.extend({ feedsInDoubt: z.array(MarketFeed).optional() });
export type WatchAnswer = z.infer<typeof WatchAnswer>;

export const PreTradeSettings = z.object({
  /** Hold an order whose limit is further than this from the market (last trade, else mid), in percent. '' = off. */
  maxDeviationPercent: z.union([decimal, z.literal('')]),
  /** Hold an order whose notional (quote asset) is above this. '' = off. */
  maxNotional: z.union([decimal, z.literal('')]),
});

/**
 * What a window may set: a limit that is on is above 0 ("0" would read as on and act as off). A file an
 * earlier build wrote with "0" still opens, as PreTradeSettings.
 */
const positiveLimit = decimal.refine((text) => /[1-9]/.test(text), 'must be above 0; leave it empty to turn the check off');
const PreTradeSettingsChange = z.strictObject({
  maxDeviationPercent: z.union([positiveLimit, z.literal('')]),
  maxNotional: z.union([positiveLimit, z.literal('')]),
});
export type PreTradeSettings = z.infer<typeof PreTradeSettings>;

export const Settings = z.object({
  preTrade: PreTradeSettings,
  confirmOrders: z.object({ local: z.boolean(), development: z.boolean(), production: z.boolean() }),
});
export type Settings = z.infer<typeof Settings>;

export const ErrorCodeView = z.object({
  ref: z.string(),
  code: z.string(),
  category: z.string(),
  title: z.string(),
  message: z.string(),
  action: z.string(),
  severity: z.string(),
  retry_allowed: z.boolean(),
  http_status: z.number(),
});

export const MAX_LAYOUT_BYTES = 256 * 1024;
export const MAX_LAYOUT_DEPTH = 64;

/** Whether a value nests deeper than `limit`, found without recursion: a hostile value cannot overflow the stack. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(item) ? (item as unknown[]) : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * A saved layout: whatever JSON the renderer keeps, at most MAX_LAYOUT_DEPTH deep (checked before zod walks it:
 * a value deep enough to overflow the stack on a cold start would keep the desk from opening its file), and at
 * most MAX_LAYOUT_BYTES (checked in main).
 */
export const LayoutJson: z.ZodType<unknown> = z
  .unknown()
  .transform((value, ctx) => {
    if (!nestsDeeperThan(value, MAX_LAYOUT_DEPTH)) return value;
    ctx.addIssue({ code: 'custom', message: `must nest at most ${MAX_LAYOUT_DEPTH} levels` });
    return z.NEVER;
  })
  .pipe(z.json());
const layoutName = z
  .string()
  .regex(/^[\w .-]{1,64}$/, 'must be 1-64 letters, digits, spaces, ".", "-" or "_"')
  // Layouts are kept by name in a plain object, where this one name would set the object's prototype.
  .refine((name) => name !== '__proto__', 'must not be __proto__');

// ---- requests

export const PlaceOrderRequest = z.strictObject({
  product_id: productId,
  side: z.enum(ORDER_SIDES),
  type: z.enum(ORDER_TYPES).optional(),
  limit_price: decimal.optional(),
  base_size: decimal.optional(),
  quote_size: decimal.optional(),
  exact_quote_size: decimal.optional(),
  time_in_force: z.enum(TIMES_IN_FORCE).optional(),
  post_only: z.boolean().optional(),
  stp: z.enum(REST_STP_MODES).optional(),
  order_stop_type: z.enum(STOP_TYPES).optional(),
  stop_trigger_price: decimal.optional(),
  client_order_id: clientOrderId.optional(),
  expired_at: nanos.optional(),
  scheduled_at: nanos.optional(),
  /**
   * The environment the ticket was on when the trader sent it (required): one naming another than the desk's
   * sends nothing, so an order filled in on Local never goes out on Development because the desk switched while
   * the call was on its way.
   */
  environment: EnvironmentId,
  /**
   * The environment the trader confirmed this order for, as the confirmation named it (required where the
   * environment confirms orders). A bare yes cannot say where it was given: a dialog left open across a switch
   * would have sent its Local order to Production unconfirmed. One naming another environment sends nothing.
   */
  confirmed: EnvironmentId.optional(),
  /** The trader saw the pre-trade warnings and sends anyway. */
  override_checks: z.boolean().optional(),
});
export type PlaceOrderRequest = z.infer<typeof PlaceOrderRequest>;
/** The order itself, as a ticket describes it: where it goes and what the trader said to it are added on sending. */
export type OrderFields = Omit<PlaceOrderRequest, 'environment' | 'confirmed' | 'override_checks'>;

/**
 * `environment`: the one the trader asked to cancel on (required). One naming another than the desk's cancels
 * nothing: a product's orders (or client order ids, which the trader chooses and may reuse) exist on every
 * environment, and a click made just before a switch must not cancel the next one's.
 */
const askedOn = { environment: EnvironmentId };

const OrderSelection = z.union([
  z.strictObject({ order_id: id, ...askedOn }),
  z.strictObject({ client_order_id: clientOrderId, ...askedOn }),
]);

const idList = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(100);
const BulkCancelRequest = z.union([
  z.strictObject({ order_ids: idList(id), ...askedOn }),
  z.strictObject({ client_order_ids: idList(clientOrderId), ...askedOn }),
  z.strictObject({ product_ids: idList(productId), ...askedOn }),
]);

export const HistoryRequest = z.strictObject({
  product_ids: z.array(productId).max(50).optional(),
  start_time: nanos.optional(),
  end_time: nanos.optional(),
  limit: z.int().min(1).max(1000).optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  sort: z.enum(ARCHIVED_SORTS).optional(),
  client_order_id: clientOrderId.optional(),
});

const ProductRequest = z.strictObject({ product_id: productId });

/**
 * A key used, removed or revoked, with the environment of the key the trader acted on (required): one key string
 * may be stored for two environments, and a click made just before a switch must not act on the next one's key.
 * One naming another environment than the desk's does nothing.
 */
const KeyActionRequest = z.strictObject({ environment: EnvironmentId, api_key: z.string().min(1).max(256) });

// ---- the table

export const contract = {
  'venue.status': { request: empty, response: VenueStatus },
  'environments.list': { request: empty, response: EnvironmentsView },
  'environments.configure': {
    request: z.strictObject({ id: z.enum(['development', 'production']), baseUrl: httpUrl, wsUrl: wsUrl }),
    response: EnvironmentsView,
  },
  'environments.switch': { request: z.strictObject({ id: EnvironmentId }), response: ConnectionStatus },
  'connection.status': { request: empty, response: ConnectionStatus },
  'orders.place': { request: PlaceOrderRequest, response: PlaceResult },
  'orders.cancel': { request: OrderSelection, response: OrderSchema },
  'orders.cancelBulk': {
    request: BulkCancelRequest,
    response: z.object({ cancelRequested: z.array(z.string()), notOpened: z.array(z.string()), alreadyRequested: z.array(z.string()) }),
  },
  'orders.cancelAll': {
    request: z.strictObject({
      product_id: productId.optional(),
      /**
       * The environment the trader asked to cancel on (a question, a button, a menu; required): one naming another
       * than the desk's cancels nothing, as a window or a dialog left over from before a switch must not.
       */
      environment: EnvironmentId,
    }),
    response: z.object({ cancelRequested: z.number() }),
  },
  'orders.active': { request: z.strictObject({ product_id: productId.optional() }), response: z.array(OrderSchema) },
  'orders.history': { request: HistoryRequest, response: z.array(OrderSchema) },
  'orders.fills': {
    request: z.strictObject({ product_id: productId.optional(), limit: z.int().min(1).max(1000).optional() }),
    response: z.array(Fill),
  },
  'market.products': { request: empty, response: z.array(ProductSchema) },
  'market.watch': { request: ProductRequest, response: WatchAnswer },
  'market.unwatch': { request: ProductRequest, response: z.object({ watching: z.array(z.string()) }) },
  'market.book': {
    request: z.strictObject({ product_id: productId, depth: z.int().min(1).max(1000).optional() }),
    response: BookSnapshot,
  },
  'market.trades': {
    request: z.strictObject({ product_id: productId, limit: z.int().min(1).max(1000).optional() }),
    response: z.array(PublicTradeSchema),
  },
  'market.candles': { request: ProductRequest, response: z.array(CandleSchema) },
  'account.get': { request: empty, response: AccountSchema },
  /** The keys of one environment: the active one unless named. */
  'keys.list': { request: z.strictObject({ environment: EnvironmentId.optional() }), response: z.array(StoredKey) },
  'keys.create': {
    request: z.strictObject({
      name: z.string().max(100).optional(),
      read_only: z.boolean().optional(),
      expiration_time: nanos.optional(),
      /** Trade with the new key from now on. */
      use: z.boolean().optional(),
      /** The environment the trader made it on (required): one naming another than the desk's makes nothing. */
      environment: EnvironmentId,
      /**
       * The environment the trader confirmed making the key on, as the confirmation named it: required on
       * Production, and one naming another environment than the desk's makes nothing.
       */
      confirmed: EnvironmentId.optional(),
    }),
    response: KeyStored,
  },
  'keys.import': {
    request: z
      .strictObject({
        environment: EnvironmentId.optional(),
        api_key: credential(256),
        api_secret: apiSecret,
        user_id: z.string().min(1).max(128).optional(),
        name: z.string().max(100).optional(),
        use: z.boolean().optional(),
      })
      .refine((r) => r.api_secret !== r.api_key, { path: ['api_secret'], message: 'is the API key itself: paste the secret the venue showed beside it' }),
    response: KeyStored,
  },
  'keys.use': { request: KeyActionRequest, response: ConnectionStatus },
  'keys.forget': { request: KeyActionRequest, response: z.array(StoredKey) },
  /**
   * Revokes the key on the local venue (it stops working there, on every connection) and removes it from the
   * desk. Only the local venue can: the interface names no way to revoke a key.
   */
  'keys.revoke': { request: KeyActionRequest, response: z.array(StoredKey) },
  'errors.catalogue': {
    request: z.strictObject({ ref: z.string().max(80).optional(), category: z.string().max(40).optional() }),
    response: z.array(ErrorCodeView),
  },
  'settings.get': { request: empty, response: Settings },
  'settings.update': {
    request: z.strictObject({
      preTrade: PreTradeSettingsChange.partial().optional(),
      confirmOrders: z.strictObject({ local: z.boolean(), development: z.boolean(), production: z.boolean() }).partial().optional(),
    }),
    response: Settings,
  },
  'layouts.list': { request: empty, response: z.array(z.string()) },
  'layouts.save': { request: z.strictObject({ name: layoutName, layout: LayoutJson }), response: z.array(z.string()) },
  'layouts.load': { request: z.strictObject({ name: layoutName }), response: LayoutJson },
  'layouts.delete': { request: z.strictObject({ name: layoutName }), response: z.array(z.string()) },
} as const satisfies Record<MethodName, { request: z.ZodType; response: z.ZodType }>;

export const events = {
  'connection.changed': ConnectionStatus,
  'environments.changed': EnvironmentsView,
  /** Orders new to the desk or changed since the last frame, merged by order id. */
  'orders.changed': z.array(OrderSchema),
  /** The whole top of the book as it stands (never a diff), at most once a frame per product. */
  'book.changed': BookSnapshot,
  /** inDoubt: the tape holds the last trades known, as a book in doubt its last levels (see Ticker's); none may come with it. */
  'trades.received': z.object({ productId: z.string(), trades: z.array(PublicTradeSchema), inDoubt: z.boolean().optional() }),
  'ticker.changed': Ticker,
  /** inDoubt: the candles are the last known, as the tape's (see trades.received). */
  'candles.changed': z.object({ productId: z.string(), candles: z.array(CandleSchema), inDoubt: z.boolean().optional() }),
  'account.changed': AccountSchema,
} as const satisfies Record<EventName, z.ZodType>;

/**
 * The reads of the account's own data: their answers name the session they were read on (Result's `session`). The
 * desk may switch (environment, or key on one) while a read is out, and a window that has not heard of it yet would
 * otherwise show the next account's orders, fills or balances under the name it still shows.
 */
export const SESSION_READS = ['orders.active', 'orders.history', 'orders.fills', 'account.get'] as const satisfies readonly MethodName[];
export type SessionRead = (typeof SESSION_READS)[number];

/** The desk's session a read was answered on: its environment, and the key it used there (the key id, never its secret). */
export const Session = z.object({ environment: EnvironmentId, apiKey: z.string().optional() });
export type Session = z.infer<typeof Session>;

export function isSessionRead(method: MethodName): method is SessionRead {
  return (SESSION_READS as readonly MethodName[]).includes(method);
}

export type Contract = typeof contract;
export type Request<M extends MethodName> = z.input<Contract[M]['request']>;
export type ParsedRequest<M extends MethodName> = z.output<Contract[M]['request']>;
export type Response<M extends MethodName> = z.infer<Contract[M]['response']>;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

/** One thing wrong with a request: the field, as a dotted path ("preTrade.maxNotional"; "" for the whole request). */
export interface BridgeErrorIssue {
  path: string;
  message: string;
}

/** The answer's error: a catalogue reference and a message that starts with it. Never holds a secret. */
export interface BridgeErrorBody {
  ref: string;
  message: string;
  /**
   * A request refused for its shape: each field refused and why, so a window puts each beside its box by the
   * path, never by reading the message (whose wording may change).
   */
  issues?: BridgeErrorIssue[];
}

/** What a schema refused in a request, an answer or an event: the first few issues, each named by its field's path. */
export function issuesOf(error: z.ZodError): BridgeErrorIssue[] {
  return error.issues.slice(0, 5).map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

export function describeIssues(name: string, issues: readonly BridgeErrorIssue[]): string {
  return `${name}: ${issues.map((i) => `${i.path || 'request'}: ${i.message}`).join('; ')}`;
}

/**
 * An event's payload as its schema reads it, or why it does not: main builds each field by field, and the window
 * parses what arrives (ARCHITECTURE rule 4) rather than let a malformed one into its store.
 */
export function parseEvent<E extends EventName>(name: E, payload: unknown): { ok: true; payload: EventPayload<E> } | { ok: false; reason: string } {
  const parsed = events[name].safeParse(payload);
  if (parsed.success) return { ok: true, payload: parsed.data as EventPayload<E> };
  return { ok: false, reason: describeIssues(name, issuesOf(parsed.error)) };
}

/**
 * Every answer crosses the bridge in this shape, so a window never has to catch a thrown Error. `session`: on the
 * answers of SESSION_READS, the session they were read on; on their refusals, the session they were tried on.
 */
export type Result<T> = { ok: true; value: T; session?: Session } | { ok: false; error: BridgeErrorBody; session?: Session };
