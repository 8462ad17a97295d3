/**
 * Order creation: the REST body of POST /api/v1/orders and the WebSocket create_order data, each checked
 * against the interface's 4.2 / 4.12 and the venue contract's order semantics, and both normalized into the
 * one NewOrderRequest the engine takes.
 *
 * Decisions the interface leaves open (documented in docs/api.md):
 * - Unknown fields are ignored, as Coinbase does; every known field is checked.
 * - JSON null counts as absent (the protobuf JSON convention); a required field that is null is missing.
 * - A numeric field that is "0" counts as absent, as the interface's "must be 0" rules imply.
 * - time_in_force defaults to IOC for a MARKET order (and a STOP order with no limit price, which becomes one),
 *   to FOK for an exact_quote_size order, and to GTC otherwise; any other explicit value for those is refused.
 * - client_order_id may be absent (it becomes '') but not empty.
 * - Fields that only mean something for other orders (expired_at without GTT or TWAP, a stop trigger on a
 *   non-STOP order, post_only with IOC or FOK) are refused rather than ignored.
 */

import { z } from 'zod';
import { apiError, type ApiError } from '../errors/api-error';
import type { ErrorRef } from '../errors/catalogue';
import { formatAtoms, formatUnits, isReason, toAtoms, toInt64, toUnits, type Reason } from './decimal';
import { notionalAtoms, productRules, type ProductRules } from './product-rules';
import { shapeError } from './shape';
import {
  ORDER_SIDES,
  ORDER_TYPES,
  REST_STP_MODES,
  STOP_TYPES,
  TIMES_IN_FORCE,
  isOneOf,
  type OrderSide,
  type OrderType,
  type SelfTradePrevention,
  type StopType,
  type TimeInForce,
} from './vocabulary';

/** A validated order, in the engine's integers and the order record's canonical decimal strings. */
export interface NewOrderRequest {
  readonly productId: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly postOnly: boolean;
  readonly stp: SelfTradePrevention;
  readonly stopType: StopType;
  /** '' when the client gave none. Uniqueness among open orders is case-insensitive (the venue checks it). */
  readonly clientOrderId: string;
  /** Price increments; 0 means no limit (MARKET, exact quote, uncapped TWAP, STOP that triggers a market order). */
  readonly limitTicks: number;
  /** Size increments; 0 for a MARKET order sized by quote_size. */
  readonly baseLots: number;
  /** Quote asset atoms; 0n unless a MARKET order is sized by quote. */
  readonly quoteAtoms: bigint;
  /** Quote asset atoms the trade must move, fees included; 0n unless an exact-quote order. */
  readonly exactQuoteAtoms: bigint;
  readonly stopTriggerTicks: number;
  /** UNIX nanoseconds; 0n when absent. */
  readonly expiredAt: bigint;
  readonly scheduledAt: bigint;
  readonly wait: boolean;
  /** Canonical decimals for the order record: no trailing zeros, '0' when absent. */
  readonly limitPrice: string;
  readonly baseSize: string;
  readonly quoteSize: string;
  readonly exactQuoteSize: string;
  readonly stopTriggerPrice: string;
}

export interface ParseOrderOptions {
  /** The venue's clock, UNIX nanoseconds: GTT and TWAP expiries must lie after it. */
  readonly now: bigint;
}

/** JSON null and absence mean the same on the wire (the protobuf JSON convention). */
type Maybe<T> = T | null | undefined;

/** The fields after the API-specific vocabulary is translated; still unchecked beyond their JSON types. */
interface OrderDraft {
  readonly type: OrderType;
  readonly side: OrderSide;
  readonly productId: string;
  readonly stp: SelfTradePrevention;
  readonly limitPrice: Maybe<string>;
  readonly baseSize: Maybe<string>;
  readonly quoteSize: Maybe<string>;
  readonly exactQuoteSize: Maybe<string>;
  readonly timeInForce: Maybe<string>;
  readonly postOnly: Maybe<boolean>;
  readonly stopType: Maybe<string>;
  readonly stopTriggerPrice: Maybe<string>;
  readonly clientOrderId: Maybe<string>;
  readonly expiredAt: Maybe<string>;
  readonly scheduledAt: Maybe<string>;
  readonly wait: Maybe<boolean>;
}

/** How each API spells the fields, so every message names what the client actually sent. */
interface FieldNames {
  readonly productId: string;
  readonly limitPrice: string;
  readonly baseSize: string;
  readonly quoteSize: string;
  readonly exactQuoteSize: string;
  readonly timeInForce: string;
  readonly postOnly: string;
  readonly stopType: string;
  readonly stopTriggerPrice: string;
  readonly clientOrderId: string;
  readonly expiredAt: string;
  readonly scheduledAt: string;
}

const REST_NAMES: FieldNames = {
  productId: 'product_id',
  limitPrice: 'limit_price',
  baseSize: 'base_size',
  quoteSize: 'quote_size',
  exactQuoteSize: 'exact_quote_size',
  timeInForce: 'time_in_force',
  postOnly: 'post_only',
  stopType: 'order_stop_type',
  stopTriggerPrice: 'stop_trigger_price',
  clientOrderId: 'client_order_id',
  expiredAt: 'expired_at',
  scheduledAt: 'scheduled_at',
};

const WS_NAMES: FieldNames = { ...REST_NAMES, limitPrice: 'price', baseSize: 'size' };

const CLIENT_ORDER_ID = /^[A-Za-z0-9:_-]{1,64}$/;

export function isValidClientOrderId(text: string): boolean {
  return CLIENT_ORDER_ID.test(text);
}

function invalid(description: string): ApiError {
  return apiError('E0101_InvalidArgument', description);
}

function outOfRange(description: string): ApiError {
  return apiError('E0110_ValueOutOfRange', description);
}

function fromReason(field: string, reason: Reason): ApiError {
  const ref: ErrorRef = reason.outOfRange === true ? 'E0110_ValueOutOfRange' : 'E0101_InvalidArgument';
  return apiError(ref, `${field}: ${reason.reason}`);
}

/** Echo a client's value in a message only when it is short and plain. */
function echo(value: string): string {
  return /^[A-Za-z0-9:_.-]{1,40}$/.test(value) ? ` ${value}` : '';
}

export function unknownProduct(field: string, productId: string, httpStatus?: number): ApiError {
  return apiError('E0104_InvalidSymbol', `${field}: unknown product${echo(productId)}`, httpStatus);
}

function oneOfMessage(field: string, allowed: readonly string[]): string {
  return `${field}: must be one of ${allowed.join(', ')}`;
}

function ticks(text: Maybe<string>, field: string, rules: ProductRules): number | ApiError {
  if (text == null) return 0;
  const units = toUnits(text, rules.spec.priceIncrement);
  if (isReason(units)) return fromReason(field, units);
  if (units > rules.maxTicks) return outOfRange(`${field}: above the maximum price ${rules.spec.maxPrice}`);
  return units;
}

function lots(text: Maybe<string>, field: string, rules: ProductRules): number | ApiError {
  if (text == null) return 0;
  const units = toUnits(text, rules.spec.sizeIncrement);
  if (isReason(units)) return fromReason(field, units);
  if (units === 0) return 0;
  if (units < rules.minLots) return outOfRange(`${field}: below the minimum size ${rules.spec.minSize}`);
  if (units > rules.maxLots) return outOfRange(`${field}: above the maximum size ${rules.spec.maxSize}`);
  return units;
}

function quoteAmount(text: Maybe<string>, field: string, rules: ProductRules): bigint | ApiError {
  if (text == null) return 0n;
  const atoms = toAtoms(text, rules.quote.decimals);
  if (isReason(atoms)) return fromReason(field, atoms);
  if (atoms === 0n) return 0n;
  if (atoms < BigInt(rules.minNotionalAtoms)) {
    return outOfRange(`${field}: below the minimum notional ${rules.spec.minNotional}`);
  }
  if (atoms > BigInt(rules.maxNotionalAtoms)) {
    return outOfRange(`${field}: above the maximum notional ${formatAtoms(BigInt(rules.maxNotionalAtoms), rules.quote.decimals)}`);
  }
  return atoms;
}

function nanos(text: Maybe<string>, field: string): bigint | ApiError {
  if (text == null) return 0n;
  const value = toInt64(text);
  return isReason(value) ? fromReason(field, value) : value;
}

/** The checks shared by both APIs, in the order a client fixing one error at a time would meet them. */
/**
 * `stopTypeOptional`: a STOP order may leave order_stop_type out (stopType STOP_NONE), and the exchange takes it
 * from where the trigger lies against the last trade (the WebSocket, whose data table has no such field).
 */
function normalize(draft: OrderDraft, names: FieldNames, now: bigint, stopTypeOptional = false): NewOrderRequest | ApiError {
  const rules = productRules(draft.productId);
  if (rules === undefined) return unknownProduct(names.productId, draft.productId);

  if (draft.timeInForce != null && !isOneOf(draft.timeInForce, TIMES_IN_FORCE)) {
    return invalid(oneOfMessage(names.timeInForce, TIMES_IN_FORCE));
  }
  if (draft.stopType != null && !isOneOf(draft.stopType, STOP_TYPES)) {
    return invalid(oneOfMessage(names.stopType, STOP_TYPES));
  }
  const clientOrderId = draft.clientOrderId ?? '';
  if (draft.clientOrderId != null && !CLIENT_ORDER_ID.test(clientOrderId)) {
    return invalid(`${names.clientOrderId}: 1 to 64 characters, each a letter, a digit, ':', '-' or '_'`);
  }

  const limitTicks = ticks(draft.limitPrice, names.limitPrice, rules);
  if (typeof limitTicks !== 'number') return limitTicks;
  const baseLots = lots(draft.baseSize, names.baseSize, rules);
  if (typeof baseLots !== 'number') return baseLots;
  const quoteAtoms = quoteAmount(draft.quoteSize, names.quoteSize, rules);
  if (typeof quoteAtoms !== 'bigint') return quoteAtoms;
  const exactQuoteAtoms = quoteAmount(draft.exactQuoteSize, names.exactQuoteSize, rules);
  if (typeof exactQuoteAtoms !== 'bigint') return exactQuoteAtoms;
  const stopTriggerTicks = ticks(draft.stopTriggerPrice, names.stopTriggerPrice, rules);
  if (typeof stopTriggerTicks !== 'number') return stopTriggerTicks;
  const expiredAt = nanos(draft.expiredAt, names.expiredAt);
  if (typeof expiredAt !== 'bigint') return expiredAt;
  const scheduledAt = nanos(draft.scheduledAt, names.scheduledAt);
  if (typeof scheduledAt !== 'bigint') return scheduledAt;

  const { type } = draft;
  const exactQuote = exactQuoteAtoms > 0n;
  // A STOP order without a limit price becomes a MARKET order when it triggers, so it follows MARKET's rules.
  const marketLike = type === 'MARKET' || (type === 'STOP' && limitTicks === 0);
  const timeInForce: TimeInForce = draft.timeInForce ?? (marketLike ? 'IOC' : exactQuote ? 'FOK' : 'GTC');
  const postOnly = draft.postOnly ?? false;
  const stopType: StopType = draft.stopType ?? 'STOP_NONE';

  if (baseLots > 0 && quoteAtoms > 0n) {
    return invalid(`${names.baseSize} and ${names.quoteSize} are mutually exclusive: the other must be absent or 0`);
  }
  // A stop names its size in base: on the WebSocket a stop-market is sent as type market, so 'MARKET only' misled.
  if (quoteAtoms > 0n && type === 'STOP') return invalid(`${names.quoteSize}: not for a stop order, which takes ${names.baseSize}`);
  if (quoteAtoms > 0n && type !== 'MARKET') return invalid(`${names.quoteSize}: for MARKET orders only`);

  // Zero counts as absent where a rule wants 0, but where a positive value is needed a client that sent "0" is told
  // its value is too small, not that it sent nothing ("base_size: required" for a base_size of "0" misled).
  const sizeTooSmall = (): ApiError => outOfRange(`${names.baseSize}: must be above 0, at least the minimum size ${rules.spec.minSize}`);
  const noSize = (rule: string): ApiError => (draft.baseSize != null ? sizeTooSmall() : invalid(`${names.baseSize}: required ${rule}`));
  if (exactQuote) {
    if (type !== 'LIMIT') return invalid(`${names.exactQuoteSize}: for LIMIT orders only`);
    if (limitTicks !== 0) return invalid(`${names.limitPrice}: must be 0 with ${names.exactQuoteSize}`);
    if (baseLots === 0) return noSize(`with ${names.exactQuoteSize}`);
    if (timeInForce !== 'FOK') return invalid(`${names.timeInForce}: must be FOK with ${names.exactQuoteSize}`);
  } else if (type === 'MARKET') {
    if (limitTicks !== 0) return invalid(`${names.limitPrice}: must be 0 for a MARKET order`);
    if (baseLots === 0 && quoteAtoms === 0n) {
      const baseSent = draft.baseSize != null;
      const quoteSent = draft.quoteSize != null;
      if (baseSent && !quoteSent) return sizeTooSmall();
      if (quoteSent && !baseSent) return outOfRange(`${names.quoteSize}: must be above 0, at least the minimum notional ${rules.spec.minNotional}`);
      if (baseSent && quoteSent) return outOfRange(`${names.baseSize} or ${names.quoteSize}: both are 0, and a MARKET order needs one of them above 0`);
      return invalid(`${names.baseSize} or ${names.quoteSize}: one is required for a MARKET order`);
    }
  } else {
    if (type === 'LIMIT' && limitTicks === 0) {
      // exact_quote_size "0" is absent too, so an exact-quote order sent with it is a LIMIT order without a price.
      if (draft.exactQuoteSize != null) {
        return outOfRange(`${names.exactQuoteSize}: must be above 0, at least the minimum notional ${rules.spec.minNotional} (or give ${names.limitPrice} above 0 for a plain LIMIT order)`);
      }
      if (draft.limitPrice != null) return outOfRange(`${names.limitPrice}: must be above 0 for a LIMIT order, at least ${rules.spec.priceIncrement}`);
      return invalid(`${names.limitPrice}: required for a LIMIT order`);
    }
    if (baseLots === 0) return noSize(`for a ${type} order`);
  }

  const kind = type === 'STOP' && marketLike ? 'STOP order without a limit price' : `${type} order`;
  if (marketLike && timeInForce !== 'IOC') return invalid(`${names.timeInForce}: must be IOC for a ${kind}`);
  if (type === 'TWAP' && timeInForce !== 'GTC' && timeInForce !== 'GTT') {
    return invalid(`${names.timeInForce}: must be GTC or GTT for a TWAP order`);
  }
  if (postOnly) {
    // Post-only means "only ever rest"; every one of these takes liquidity or never rests.
    if (exactQuote) return invalid(`${names.postOnly}: must be false with ${names.exactQuoteSize}`);
    if (marketLike || type === 'TWAP') return invalid(`${names.postOnly}: must be false for a ${kind}`);
    if (timeInForce === 'IOC' || timeInForce === 'FOK') {
      return invalid(`${names.postOnly}: cannot be combined with ${timeInForce}`);
    }
  }

  if (type === 'STOP') {
    if (stopType === 'STOP_NONE' && !stopTypeOptional) return invalid(`${names.stopType}: must be STOP_LOSS or TAKE_PROFIT for a STOP order`);
    if (stopTriggerTicks === 0) {
      return apiError('E0213_InvalidStopPrice', `${names.stopTriggerPrice}: required and above 0 for a STOP order`);
    }
  } else {
    if (stopType !== 'STOP_NONE') return invalid(`${names.stopType}: for STOP orders only`);
    if (stopTriggerTicks !== 0) {
      return apiError('E0213_InvalidStopPrice', `${names.stopTriggerPrice}: for STOP orders only`);
    }
  }

  const expires = type === 'TWAP' || timeInForce === 'GTT';
  if (expires) {
    if (expiredAt === 0n) return invalid(`${names.expiredAt}: required for ${type === 'TWAP' ? 'a TWAP order' : 'GTT'}`);
    if (expiredAt <= now) return outOfRange(`${names.expiredAt}: must be in the future`);
    if (scheduledAt !== 0n && expiredAt <= scheduledAt) {
      return outOfRange(`${names.expiredAt}: must be after ${names.scheduledAt}`);
    }
  } else if (expiredAt !== 0n) {
    return invalid(`${names.expiredAt}: for GTT and TWAP orders only`);
  }

  if (limitTicks > 0 && baseLots > 0 && (type === 'LIMIT' || type === 'STOP')) {
    if (notionalAtoms(rules, limitTicks, baseLots) < rules.minNotionalAtoms) {
      return outOfRange(`${names.limitPrice} × ${names.baseSize}: below the minimum notional ${rules.spec.minNotional}`);
    }
  }

  const quoteDecimals = rules.quote.decimals;
  return {
    productId: rules.spec.id,
    side: draft.side,
    type,
    timeInForce,
    postOnly,
    stp: draft.stp,
    stopType,
    clientOrderId,
    limitTicks,
    baseLots,
    quoteAtoms,
    exactQuoteAtoms,
    stopTriggerTicks,
    expiredAt,
    scheduledAt,
    wait: draft.wait ?? false,
    limitPrice: formatUnits(limitTicks, rules.spec.priceIncrement),
    baseSize: formatUnits(baseLots, rules.spec.sizeIncrement),
    quoteSize: formatAtoms(quoteAtoms, quoteDecimals),
    exactQuoteSize: formatAtoms(exactQuoteAtoms, quoteDecimals),
    stopTriggerPrice: formatUnits(stopTriggerTicks, rules.spec.priceIncrement),
  };
}

const text = z.string().nullish();
const flag = z.boolean().nullish();

const RestCreateOrderShape = z.object({
  type: text,
  side: text,
  product_id: text,
  stp: text,
  limit_price: text,
  base_size: text,
  quote_size: text,
  exact_quote_size: text,
  time_in_force: text,
  post_only: flag,
  order_stop_type: text,
  stop_trigger_price: text,
  client_order_id: text,
  expired_at: text,
  scheduled_at: text,
  wait: flag,
});

/** POST /api/v1/orders. Never throws: any input gives a request or an ApiError. */
export function parseCreateOrder(body: unknown, opts: ParseOrderOptions): NewOrderRequest | ApiError {
  const shape = RestCreateOrderShape.safeParse(body);
  if (!shape.success) return shapeError(shape.error, body);
  const b = shape.data;

  const type = b.type ?? 'LIMIT';
  if (!isOneOf(type, ORDER_TYPES)) return invalid(oneOfMessage('type', ORDER_TYPES));
  if (b.side == null) return invalid('side: required');
  if (!isOneOf(b.side, ORDER_SIDES)) return invalid(oneOfMessage('side', ORDER_SIDES));
  if (b.product_id == null) return invalid('product_id: required');
  const stp = b.stp ?? 'CANCEL_TAKER';
  if (!isOneOf(stp, REST_STP_MODES)) return invalid(oneOfMessage('stp', REST_STP_MODES));

  return normalize(
    {
      type,
      side: b.side,
      productId: b.product_id,
      stp,
      limitPrice: b.limit_price,
      baseSize: b.base_size,
      quoteSize: b.quote_size,
      exactQuoteSize: b.exact_quote_size,
      timeInForce: b.time_in_force,
      postOnly: b.post_only,
      stopType: b.order_stop_type,
      stopTriggerPrice: b.stop_trigger_price,
      clientOrderId: b.client_order_id,
      expiredAt: b.expired_at,
      scheduledAt: b.scheduled_at,
      wait: b.wait,
    },
    REST_NAMES,
    opts.now,
  );
}

const WS_TYPES: Readonly<Record<string, OrderType>> = { limit: 'LIMIT', market: 'MARKET' };
const WS_SIDES: Readonly<Record<string, OrderSide>> = { buy: 'BUY', sell: 'SELL' };
/** Oldest is the resting maker, newest the incoming taker. */
const WS_STP: Readonly<Record<string, SelfTradePrevention>> = {
  DC: 'DECREASE_AND_CANCEL',
  CO: 'CANCEL_MAKER',
  CN: 'CANCEL_TAKER',
  CB: 'CANCEL_BOTH',
};

const wsNanos = z.union([z.number(), z.string()]).nullish();

const WsCreateOrderShape = z.object({
  type: text,
  side: text,
  product_id: text,
  price: text,
  size: text,
  quote_size: text,
  exact_quote_size: text,
  time_in_force: text,
  post_only: flag,
  stp: text,
  client_order_id: text,
  stop_trigger_price: text,
  order_stop_type: text,
  expired_at: wsNanos,
  scheduled_at: wsNanos,
  wait: flag,
});

/**
 * JSON numbers above 2^53 have already lost digits when they reach us, so only safe integers are taken as
 * numbers; nanosecond times need the digit-string form.
 */
function wsNanosText(value: Maybe<number | string>, field: string): Maybe<string> | ApiError {
  if (value == null || typeof value === 'string') return value;
  if (!Number.isSafeInteger(value) || value < 0) {
    return invalid(`${field}: a non-negative safe integer, or nanoseconds as a string of digits`);
  }
  return String(value);
}

function hasValue(text: Maybe<string>): text is string {
  return text != null && !/^0(\.0+)?$/.test(text);
}

/**
 * WebSocket create_order data. Lowercase type and side, price and size for limit_price and base_size, stp as
 * DC / CO / CN / CB (default CN, REST's CANCEL_TAKER). exact_quote_size with size is the exact-quote order
 * (a LIMIT FOK order with no price) whatever the type. A stop_trigger_price above 0 makes the order a STOP
 * order (a stop-limit at price, or a stop-market without one); order_stop_type, a field only this venue reads
 * on the WebSocket, may name its kind, and otherwise the exchange takes it from the last trade.
 */
export function parseWsCreateOrder(data: unknown, opts: ParseOrderOptions): NewOrderRequest | ApiError {
  const shape = WsCreateOrderShape.safeParse(data);
  if (!shape.success) return shapeError(shape.error, data, 'data');
  const d = shape.data;

  if (d.type == null) return invalid('type: required');
  const wsType = Object.hasOwn(WS_TYPES, d.type) ? WS_TYPES[d.type] : undefined;
  if (wsType === undefined) return invalid('type: must be one of limit, market');
  if (d.side == null) return invalid('side: required');
  const side = Object.hasOwn(WS_SIDES, d.side) ? WS_SIDES[d.side] : undefined;
  if (side === undefined) return invalid('side: must be one of buy, sell');
  if (d.product_id == null) return invalid('product_id: required');
  const stpCode = d.stp ?? 'CN';
  const stp = Object.hasOwn(WS_STP, stpCode) ? WS_STP[stpCode] : undefined;
  if (stp === undefined) return invalid('stp: must be one of DC, CO, CN, CB');
  const expiredAt = wsNanosText(d.expired_at, 'expired_at');
  if (expiredAt instanceof Error) return expiredAt;
  const scheduledAt = wsNanosText(d.scheduled_at, 'scheduled_at');
  if (scheduledAt instanceof Error) return scheduledAt;

  const exactQuoteSize = d.exact_quote_size;
  const stopTriggerPrice = d.stop_trigger_price;
  const type: OrderType = hasValue(exactQuoteSize) ? 'LIMIT' : hasValue(stopTriggerPrice) ? 'STOP' : wsType;
  // A stop-market is written as type market with a trigger, a stop-limit as type limit with one; normalize checks
  // the price of each for MARKET and LIMIT but not for STOP, which takes a price of 0 as a stop-market (a limit
  // stop sent without its price became a stop-market, selling or buying at any price once triggered).
  if (type === 'STOP' && wsType === 'MARKET' && hasValue(d.price)) {
    return invalid('price: must be 0 for a market order');
  }
  if (type === 'STOP' && wsType === 'LIMIT' && !hasValue(d.price)) {
    return d.price == null ? invalid('price: required for a limit order') : outOfRange('price: must be above 0 for a limit order');
  }

  return normalize(
    {
      type,
      side,
      productId: d.product_id,
      stp,
      limitPrice: d.price,
      baseSize: d.size,
      quoteSize: d.quote_size,
      exactQuoteSize,
      timeInForce: d.time_in_force,
      postOnly: d.post_only,
      stopType: d.order_stop_type,
      stopTriggerPrice,
      clientOrderId: d.client_order_id,
      expiredAt,
      scheduledAt,
      wait: d.wait,
    },
    WS_NAMES,
    opts.now,
    true,
  );
}
