/**
 * Parsers for every venue request other than order creation: query strings, small bodies, path ids.
 *
 * Query values arrive as Fastify's parser gives them: a string, an array of strings when the name repeats,
 * or absent. A parameter that takes one value and is given twice is E0101, even with equal values, since the
 * client meant something we cannot guess. An empty value (`?product_id=`) counts as absent, and unknown query
 * parameters and body fields are ignored, except on the cancel-all and /sim/reset, where either would make the
 * request act on every product or account.
 */

import { z } from 'zod';
import { apiError, type ApiError } from '../errors/api-error';
import { parseRate, toAtoms, toInt64, isReason, type Reason } from './decimal';
import { isValidClientOrderId, unknownProduct } from './orders';
import { findAsset, findProduct } from './products';
import { shapeError } from './shape';
import { ARCHIVED_SORTS, ORDER_STATUSES, isOneOf, type ArchivedSort, type OrderStatus } from './vocabulary';

export const MAX_IDS_PER_BULK_CANCEL = 100;
export const MAX_ARCHIVED_LIMIT = 1000;
export const DEFAULT_ARCHIVED_LIMIT = 100;
export const MAX_BOOK_DEPTH = 1000;
export const DEFAULT_BOOK_DEPTH = 50;
export const MAX_TRADES_LIMIT = 1000;
export const DEFAULT_TRADES_LIMIT = 100;
export const MAX_API_KEY_NAME = 100;

const queryValue = z.union([z.string(), z.array(z.string())]).optional();
type QueryValue = z.infer<typeof queryValue>;

function queryShape<const K extends string>(...keys: K[]) {
  return z.object(Object.fromEntries(keys.map((k) => [k, queryValue])) as Record<K, typeof queryValue>);
}

function parseQuery<K extends string>(
  shape: z.ZodObject<Record<K, typeof queryValue>>,
  query: unknown,
): Record<K, QueryValue> | ApiError {
  // A request without a query string may reach us as undefined.
  const parsed = shape.safeParse(query ?? {});
  if (!parsed.success) return shapeError(parsed.error, query, 'query');
  return parsed.data as Record<K, QueryValue>;
}

function invalid(description: string): ApiError {
  return apiError('E0101_InvalidArgument', description);
}

function outOfRange(description: string): ApiError {
  return apiError('E0110_ValueOutOfRange', description);
}

function fromReason(field: string, reason: Reason): ApiError {
  return apiError(reason.outOfRange === true ? 'E0110_ValueOutOfRange' : 'E0101_InvalidArgument', `${field}: ${reason.reason}`);
}

/** One value, or undefined when absent or empty. */
function single(value: QueryValue, name: string): string | undefined | ApiError {
  if (Array.isArray(value)) {
    if (value.length > 1) return invalid(`${name}: given more than once`);
    value = value[0];
  }
  return value === '' ? undefined : value;
}

function productFilter(value: QueryValue, name: string): string | undefined | ApiError {
  const id = single(value, name);
  if (id === undefined || id instanceof Error) return id;
  return findProduct(id) === undefined ? unknownProduct(name, id) : id;
}

/**
 * The history's name for a product filter, sent to an endpoint that takes one `product_id`. Ignored as an unknown
 * name it would list, or cancel, every product's orders.
 */
function historyProductFilter(q: { readonly product_ids?: QueryValue; readonly 'product_ids[]'?: QueryValue }): ApiError | undefined {
  return misnamed([q.product_ids, q['product_ids[]']], 'product_ids', 'product_id');
}

/** The bulk cancel's plural, sent to an order list that takes one `client_order_id`: ignored, it listed every order. */
function pluralClientOrderIds(q: { readonly client_order_ids?: QueryValue; readonly 'client_order_ids[]'?: QueryValue }): ApiError | undefined {
  return misnamed([q.client_order_ids, q['client_order_ids[]']], 'client_order_ids', 'client_order_id');
}

function misnamed(values: readonly QueryValue[], name: string, right: string): ApiError | undefined {
  const given = values.flat().some((v) => v !== undefined && v !== '');
  return given ? invalid(`${name}: not a parameter of this endpoint, which takes one ${right}`) : undefined;
}

function clientOrderIdFilter(value: QueryValue, name: string): string | undefined | ApiError {
  const id = single(value, name);
  if (id === undefined || id instanceof Error) return id;
  return isValidClientOrderId(id) ? id : invalidClientOrderId(name);
}

function invalidClientOrderId(name: string): ApiError {
  return invalid(`${name}: 1 to 64 characters, each a letter, a digit, ':', '-' or '_'`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/** User ids are UUIDs the venue writes in lowercase; a UUID's case means nothing (RFC 9562 4), as for order ids. */
function userIdOf(text: string): string {
  return isUuid(text) ? text.toLowerCase() : text;
}

/** A count parameter: digits only, 1 to max, default when absent. */
function count(value: QueryValue, name: string, fallback: number, max: number): number | ApiError {
  const text = single(value, name);
  if (text === undefined || text instanceof Error) return text ?? fallback;
  const n = toInt64(text);
  if (isReason(n)) return fromReason(name, n);
  if (n < 1n) return outOfRange(`${name}: must be at least 1`);
  if (n > BigInt(max)) return outOfRange(`${name}: must be at most ${max}`);
  return Number(n);
}

function nanosParam(value: QueryValue, name: string): bigint | undefined | ApiError {
  const text = single(value, name);
  if (text === undefined || text instanceof Error) return text;
  const n = toInt64(text);
  return isReason(n) ? fromReason(name, n) : n;
}

// ---- GET /api/v1/orders/active

export interface ActiveOrdersQuery {
  readonly productId?: string;
  /** Compared case-insensitively by the venue. */
  readonly clientOrderId?: string;
}

const ActiveOrdersShape = queryShape('product_id', 'client_order_id', 'product_ids', 'product_ids[]', 'client_order_ids', 'client_order_ids[]');

export function parseActiveOrdersQuery(query: unknown): ActiveOrdersQuery | ApiError {
  const q = parseQuery(ActiveOrdersShape, query);
  if (q instanceof Error) return q;
  const wrongName = historyProductFilter(q) ?? pluralClientOrderIds(q);
  if (wrongName !== undefined) return wrongName;
  const productId = productFilter(q.product_id, 'product_id');
  if (productId instanceof Error) return productId;
  const clientOrderId = clientOrderIdFilter(q.client_order_id, 'client_order_id');
  if (clientOrderId instanceof Error) return clientOrderId;
  return { ...(productId !== undefined && { productId }), ...(clientOrderId !== undefined && { clientOrderId }) };
}

// ---- DELETE /api/v1/order/active, and the WebSocket cancel_order

/** Which order a single cancel means. An order id is returned lowercased, as the venue writes UUIDs. */
export type OrderSelector =
  | { readonly orderId: string; readonly clientOrderId?: undefined }
  | { readonly clientOrderId: string; readonly orderId?: undefined };

export function selectOrder(orderId: string | undefined, clientOrderId: string | undefined): OrderSelector | ApiError {
  if (orderId !== undefined && clientOrderId !== undefined) {
    return invalid('order_id, client_order_id: give exactly one, not both');
  }
  if (orderId !== undefined) {
    return isUuid(orderId) ? { orderId: orderId.toLowerCase() } : invalid('order_id: must be a UUID');
  }
  if (clientOrderId !== undefined) {
    return isValidClientOrderId(clientOrderId) ? { clientOrderId } : invalidClientOrderId('client_order_id');
  }
  return invalid('order_id, client_order_id: one of them is required');
}

const CancelOrderShape = queryShape('order_id', 'client_order_id');

export function parseCancelOrderQuery(query: unknown): OrderSelector | ApiError {
  const q = parseQuery(CancelOrderShape, query);
  if (q instanceof Error) return q;
  const orderId = single(q.order_id, 'order_id');
  if (orderId instanceof Error) return orderId;
  const clientOrderId = single(q.client_order_id, 'client_order_id');
  if (clientOrderId instanceof Error) return clientOrderId;
  return selectOrder(orderId, clientOrderId);
}

// ---- DELETE /api/v1/orders/active (bulk)

/**
 * Exactly one list; giving two is E0101, since cancelling the union or the intersection would both surprise
 * someone. An empty list is a valid request that cancels nothing. Duplicates are dropped, first one kept.
 */
export type BulkCancel =
  | { readonly by: 'product_ids'; readonly ids: readonly string[] }
  | { readonly by: 'order_ids'; readonly ids: readonly string[] }
  | { readonly by: 'client_order_ids'; readonly ids: readonly string[] };

const idList = z.array(z.string()).nullish();
const BulkCancelShape = z.object({ product_ids: idList, order_ids: idList, client_order_ids: idList });

export function parseBulkCancelBody(body: unknown): BulkCancel | ApiError {
  const shape = BulkCancelShape.safeParse(body);
  if (!shape.success) return shapeError(shape.error, body);
  const given = (['product_ids', 'order_ids', 'client_order_ids'] as const).filter((k) => shape.data[k] != null);
  if (given.length === 0) return invalid('product_ids, order_ids, client_order_ids: one of them is required');
  if (given.length > 1) return invalid(`${given.join(', ')}: give exactly one list`);
  const by = given[0] as BulkCancel['by'];
  const ids = shape.data[by] as string[];
  if (by !== 'product_ids' && ids.length > MAX_IDS_PER_BULK_CANCEL) {
    return outOfRange(`${by}: at most ${MAX_IDS_PER_BULK_CANCEL} items, got ${ids.length}`);
  }
  for (const [i, id] of ids.entries()) {
    if (by === 'product_ids' && findProduct(id) === undefined) return unknownProduct(`product_ids[${i}]`, id);
    if (by === 'order_ids' && !isUuid(id)) return invalid(`order_ids[${i}]: must be a UUID`);
    if (by === 'client_order_ids' && !isValidClientOrderId(id)) return invalidClientOrderId(`client_order_ids[${i}]`);
  }
  // Duplicates are dropped as the venue compares them: order ids as UUIDs, client order ids case-insensitively
  // (the first spelling is kept), so an order lands in one answer list, not two.
  if (by === 'order_ids') return { by, ids: [...new Set(ids.map((id) => id.toLowerCase()))] };
  const seen = new Map<string, string>();
  for (const id of ids) if (!seen.has(id.toLowerCase())) seen.set(id.toLowerCase(), id);
  return { by, ids: [...seen.values()] };
}

// ---- DELETE /api/v1/orders/active/all

export interface CancelAllQuery {
  readonly productId?: string;
}

const CancelAllShape = queryShape('product_id', 'product_ids', 'product_ids[]');

/**
 * The endpoint takes no body: a client that sends its filter there (as the bulk cancel takes one) would have it
 * ignored and every product cancelled. An empty object is no body.
 */
export function parseCancelAllQuery(query: unknown, body?: unknown): CancelAllQuery | ApiError {
  if (body != null && !(typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) {
    return invalid('request body: this endpoint takes none; give product_id in the query');
  }
  const q = parseQuery(CancelAllShape, query);
  if (q instanceof Error) return q;
  // An empty value counts as absent for a read, where it lists every product; here it cancelled every product's
  // orders for a client that built ?product_id= from a variable that happened to be empty.
  if (q.product_id === '') return apiError('E0104_InvalidSymbol', 'product_id: empty; leave product_id out to cancel every product');
  // Elsewhere an unknown parameter is ignored, as Coinbase ignores them; here ignoring one makes the request
  // broader: ?productId=BTC-VND (or product=, symbol=, product_ids=) cancelled every product's orders. An empty
  // one is let by beside a product_id, which narrows the cancel anyway; without one it is refused, as an empty
  // product_id is.
  const narrowed = q.product_id !== undefined;
  const stray = Object.entries(query ?? {}).find(
    ([name, value]) => name !== 'product_id' && ([value as unknown].flat().some((v) => v !== '') || !narrowed),
  );
  if (stray !== undefined) {
    // `?=` (a name and a value both left empty) names no parameter: the answer says so rather than start with ':'.
    const name = stray[0] === '' ? 'a parameter without a name' : stray[0].slice(0, 50);
    return Object.hasOwn(CancelAllShape.shape, name)
      ? invalid(`${name}: not a parameter of this endpoint, which takes one product_id`)
      : invalid(`${name}: not a parameter of this endpoint, which takes only product_id (ignored, it would cancel every product)`);
  }
  const productId = productFilter(q.product_id, 'product_id');
  if (productId instanceof Error) return productId;
  return productId === undefined ? {} : { productId };
}

// ---- GET /api/v1/orders/archived

export interface ArchivedOrdersQuery {
  /** Empty means every product. */
  readonly productIds: readonly string[];
  /** UNIX nanoseconds, inclusive. */
  readonly startTime?: bigint;
  readonly endTime?: bigint;
  readonly limit: number;
  readonly status?: OrderStatus;
  readonly sort: ArchivedSort;
  readonly clientOrderId?: string;
}

// `product_ids[]` is how some HTTP clients (axios's default, qs) write a repeated parameter, and `product_id` is
// the active orders' name (and Coinbase's older one for its order list): ignored as unknown names, either would
// silently return every product's orders.
const ArchivedOrdersShape = queryShape(
  'product_ids',
  'product_ids[]',
  'product_id',
  'start_time',
  'end_time',
  'limit',
  'status',
  'sort',
  'client_order_id',
  'client_order_ids',
  'client_order_ids[]',
);

export function parseArchivedOrdersQuery(query: unknown): ArchivedOrdersQuery | ApiError {
  const q = parseQuery(ArchivedOrdersShape, query);
  if (q instanceof Error) return q;
  const wrongName = pluralClientOrderIds(q);
  if (wrongName !== undefined) return wrongName;

  // Repeated (?product_ids=A&product_ids=B), bracketed (product_ids[]=A), singular (product_id=A) and comma
  // separated (?product_ids=A,B) mix freely.
  const productIds: string[] = [];
  const pieces = [q.product_ids, q['product_ids[]'], q.product_id].flatMap((v) => (v === undefined ? [] : [v].flat())).flatMap((v) => v.split(','));
  for (const id of pieces) {
    if (id === '' || productIds.includes(id)) continue;
    if (findProduct(id) === undefined) return unknownProduct('product_ids', id);
    productIds.push(id);
  }

  const startTime = nanosParam(q.start_time, 'start_time');
  if (startTime instanceof Error) return startTime;
  const endTime = nanosParam(q.end_time, 'end_time');
  if (endTime instanceof Error) return endTime;
  if (startTime !== undefined && endTime !== undefined && startTime > endTime) {
    return outOfRange('start_time: must not be after end_time');
  }
  const limit = count(q.limit, 'limit', DEFAULT_ARCHIVED_LIMIT, MAX_ARCHIVED_LIMIT);
  if (limit instanceof Error) return limit;
  const status = single(q.status, 'status');
  if (status instanceof Error) return status;
  if (status !== undefined && !isOneOf(status, ORDER_STATUSES)) {
    return invalid(`status: must be one of ${ORDER_STATUSES.join(', ')}`);
  }
  const sort = single(q.sort, 'sort') ?? '-created_at';
  if (sort instanceof Error) return sort;
  if (!isOneOf(sort, ARCHIVED_SORTS)) return invalid(`sort: must be one of ${ARCHIVED_SORTS.join(', ')}`);
  const clientOrderId = clientOrderIdFilter(q.client_order_id, 'client_order_id');
  if (clientOrderId instanceof Error) return clientOrderId;

  return {
    productIds,
    ...(startTime !== undefined && { startTime }),
    ...(endTime !== undefined && { endTime }),
    limit,
    ...(status !== undefined && { status }),
    sort,
    ...(clientOrderId !== undefined && { clientOrderId }),
  };
}

// ---- GET /api/v1/order/archived

export interface ArchivedOrderQuery {
  /** An order id or a client order id; the venue tries it as an order id first. */
  readonly order: string;
  /** Whether it can be an order id at all; a client order id may look like one too. */
  readonly uuidShaped: boolean;
}

const ArchivedOrderShape = queryShape('order');

export function parseArchivedOrderQuery(query: unknown): ArchivedOrderQuery | ApiError {
  const q = parseQuery(ArchivedOrderShape, query);
  if (q instanceof Error) return q;
  const order = single(q.order, 'order');
  if (order instanceof Error) return order;
  if (order === undefined) return invalid('order: required (an order id or a client order id)');
  if (!isValidClientOrderId(order)) return invalid('order: must be an order id or a client order id');
  return { order, uuidShaped: isUuid(order) };
}

// ---- POST /api-keys

export interface CreateApiKeyRequest {
  /** '' when absent. */
  readonly name: string;
  readonly readOnly: boolean;
  /** UNIX nanoseconds; 0n for a key that never expires. */
  readonly expiresAt: bigint;
}

const CreateApiKeyShape = z.object({
  name: z.string().nullish(),
  read_only: z.boolean().nullish(),
  expiration_time: z.string().nullish(),
});

// Control characters would corrupt logs and the desk's key list.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Every field is optional, and so is the body itself. */
export function parseCreateApiKeyBody(body: unknown, opts: { readonly now: bigint }): CreateApiKeyRequest | ApiError {
  const shape = CreateApiKeyShape.safeParse(body ?? {});
  if (!shape.success) return shapeError(shape.error, body);
  const { name, read_only: readOnly, expiration_time: expiration } = shape.data;
  if (name != null) {
    if ([...name].length > MAX_API_KEY_NAME) return outOfRange(`name: at most ${MAX_API_KEY_NAME} characters`);
    if (CONTROL.test(name)) return invalid('name: must not contain control characters');
  }
  let expiresAt = 0n;
  if (expiration != null) {
    const n = toInt64(expiration);
    if (isReason(n)) return fromReason('expiration_time', n);
    if (n !== 0n && n <= opts.now) return outOfRange('expiration_time: must be in the future');
    expiresAt = n;
  }
  return { name: name ?? '', readOnly: readOnly ?? false, expiresAt };
}

// ---- GET /v1/error-codes (the values are checked by lookupErrors)

export interface ErrorCodesQuery {
  readonly category?: string;
  readonly ref?: string;
}

const ErrorCodesShape = queryShape('category', 'ref');

export function parseErrorCodesQuery(query: unknown): ErrorCodesQuery | ApiError {
  const q = parseQuery(ErrorCodesShape, query);
  if (q instanceof Error) return q;
  const category = single(q.category, 'category');
  if (category instanceof Error) return category;
  const ref = single(q.ref, 'ref');
  if (ref instanceof Error) return ref;
  return { ...(category !== undefined && { category }), ...(ref !== undefined && { ref }) };
}

// ---- Account

/** GET /accounts/{user_id}: refused by nothing here, since any id but the caller's own is the route's E0003. */
export function parseAccountPath(userId: string): string {
  return userIdOf(userId);
}

// ---- Public market data

/** A product id in a path: an unknown one is 404, the product being the resource not found. */
export function parseProductPath(id: string): string | ApiError {
  return findProduct(id) === undefined ? unknownProduct('product_id', id, 404) : id;
}

const OrderBookShape = queryShape('depth');

/** GET /products/{id}/orderbook: depth is price levels per side. */
export function parseOrderBookQuery(query: unknown): { readonly depth: number } | ApiError {
  const q = parseQuery(OrderBookShape, query);
  if (q instanceof Error) return q;
  const depth = count(q.depth, 'depth', DEFAULT_BOOK_DEPTH, MAX_BOOK_DEPTH);
  return depth instanceof Error ? depth : { depth };
}

const TradesShape = queryShape('limit');

/** GET /products/{id}/trades. */
export function parseTradesQuery(query: unknown): { readonly limit: number } | ApiError {
  const q = parseQuery(TradesShape, query);
  if (q instanceof Error) return q;
  const limit = count(q.limit, 'limit', DEFAULT_TRADES_LIMIT, MAX_TRADES_LIMIT);
  return limit instanceof Error ? limit : { limit };
}

// ---- Simulator (local venue only)

export interface AssetAmount {
  readonly assetId: string;
  readonly atoms: bigint;
}

function assetAmount(assetId: string, amount: unknown, assetField: string, amountField: string): AssetAmount | ApiError {
  const asset = findAsset(assetId);
  if (asset === undefined) {
    return invalid(`${assetField}: unknown asset${/^[A-Za-z0-9]{1,12}$/.test(assetId) ? ` ${assetId}` : ''}`);
  }
  if (typeof amount !== 'string') return invalid(`${amountField}: expected a decimal string`);
  const atoms = toAtoms(amount, asset.decimals);
  return isReason(atoms) ? fromReason(amountField, atoms) : { assetId: asset.id, atoms };
}

const SimUserShape = z.object({ balances: z.unknown().optional(), maker_fee_rate: z.string().nullish(), taker_fee_rate: z.string().nullish() });

export interface SimUserBody {
  readonly balances: readonly AssetAmount[];
  /** Decimal fractions ("0.001" is 0.1 %); absent: the venue's defaults. */
  readonly makerFeeRate?: string;
  readonly takerFeeRate?: string;
}

/** A trader practises at their own venue's fee tier: at most 10 % (parseRate takes up to 100 %). */
const MAX_FEE_RATE_PPM = 100_000;

function feeRate(field: string, text: string | null | undefined): string | ApiError | undefined {
  if (text == null) return undefined;
  const ppm = parseRate(text);
  if (isReason(ppm)) return fromReason(field, ppm);
  if (ppm > MAX_FEE_RATE_PPM) return outOfRange(`${field}: must be at most 0.1`);
  return text;
}

/**
 * POST /sim/users { balances: { BTC: "1.5" }, maker_fee_rate?, taker_fee_rate? }. Keys are walked by hand rather
 * than through z.record, which drops a "__proto__" key silently; here it is an unknown asset like any other.
 */
export function parseSimUserBody(body: unknown): SimUserBody | ApiError {
  const shape = SimUserShape.safeParse(body ?? {});
  if (!shape.success) return shapeError(shape.error, body);
  const makerFeeRate = feeRate('maker_fee_rate', shape.data.maker_fee_rate);
  if (makerFeeRate instanceof Error) return makerFeeRate;
  const takerFeeRate = feeRate('taker_fee_rate', shape.data.taker_fee_rate);
  if (takerFeeRate instanceof Error) return takerFeeRate;
  const rates = { ...(makerFeeRate !== undefined && { makerFeeRate }), ...(takerFeeRate !== undefined && { takerFeeRate }) };
  const raw = shape.data.balances;
  if (raw == null) return { balances: [], ...rates };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return invalid(`balances: expected an object of asset to amount, got ${Array.isArray(raw) ? 'array' : typeof raw}`);
  }
  const balances: AssetAmount[] = [];
  for (const [assetId, amount] of Object.entries(raw)) {
    if (amount === null) continue;
    const entry = assetAmount(assetId, amount, `balances.${assetId}`, `balances.${assetId}`);
    if (entry instanceof Error) return entry;
    balances.push(entry);
  }
  return { balances, ...rates };
}

const SimDepositShape = z.object({ user_id: z.string(), asset: z.string(), amount: z.string() });

const USER_ID = /^[A-Za-z0-9:_-]{1,64}$/;

/**
 * POST /sim/reset takes nothing: it acts on every account. A filter a client sends with it (`{"user_id": ...}`,
 * `?product_id=`) would be ignored and every account reset, so anything but no body or `{}`, and any query
 * parameter, even empty, is refused.
 */
export function parseSimResetRequest(query: unknown, body: unknown): Record<string, never> | ApiError {
  if (body != null && !(typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) {
    return invalid('request body: this endpoint takes none (it resets every account; it has no filter)');
  }
  const [name] = Object.keys(query ?? {});
  if (name !== undefined) {
    return invalid(`${name === '' ? 'a parameter without a name' : name.slice(0, 50)}: not a parameter of this endpoint, which takes none (it resets every account; it has no filter)`);
  }
  return {};
}

/** POST /sim/deposit { user_id, asset, amount }: amount above 0. */
export function parseSimDepositBody(body: unknown): ({ readonly userId: string } & AssetAmount) | ApiError {
  const shape = SimDepositShape.safeParse(body);
  if (!shape.success) return shapeError(shape.error, body);
  const { user_id: userId, asset, amount } = shape.data;
  if (!USER_ID.test(userId)) return invalid('user_id: 1 to 64 letters, digits, or the symbols : - _');
  const entry = assetAmount(asset, amount, 'asset', 'amount');
  if (entry instanceof Error) return entry;
  if (entry.atoms === 0n) return outOfRange('amount: must be above 0');
  return { userId: userIdOf(userId), ...entry };
}
