/**
 * The order ticket's checks, run on every keystroke: the venue's own validator (the same code the local venue
 * runs, so the ticket never disagrees with it), then the trader's free balance, then the estimated cost and
 * fee. Everything is integer arithmetic on ticks, lots and atoms.
 */
import { shallow } from 'zustand/shallow';
import type { OrderFields } from '../../../src-shared/ipc/contract';
import { ApiError } from '../../../src-shared/errors/api-error';
import { formatAtoms, formatUnits, isReason, parseRate, toAtoms, toUnits } from '../../../src-shared/protocol/decimal';
import { parseCreateOrder, type NewOrderRequest } from '../../../src-shared/protocol/orders';
import { buyHold, costWithFee, exactQuoteLimitTicks, feeOf, notionalReaching, notionalWithin } from '../../../src-shared/protocol/fees';
import { notionalAtoms, productRules, type ProductRules } from '../../../src-shared/protocol/product-rules';
import type { AssetBalance, BookLevel, Order } from '../../../src-shared/protocol/records';
import { ORDER_SIDES, ORDER_TYPES, REST_STP_MODES, STOP_TYPES, TIMES_IN_FORCE, type OrderSide, type OrderType, type StopType, type TimeInForce } from '../../../src-shared/protocol/vocabulary';
import { formatDecimal, formatNanosLocal, isDecimal } from '../../ui/decimal-text';

export type SizeMode = 'base' | 'quote' | 'exact_quote';
export type StpChoice = '' | 'CANCEL_TAKER' | 'CANCEL_MAKER' | 'CANCEL_BOTH';

export interface TicketForm {
  productId: string;
  side: OrderSide;
  type: OrderType;
  sizeMode: SizeMode;
  /** Base size, or the quote amount when sizeMode is not 'base'. */
  size: string;
  /** An exact-quote order's base size: the venue needs both, and derives the limit price from them. */
  exactBase: string;
  price: string;
  /** The product the price was set for, by a ladder click or typed (`priceTyped`); '' when there is none. */
  pricedFor: string;
  /** The trader typed the price (for `pricedFor`), rather than clicked it on a ladder. */
  priceTyped?: boolean;
  /** '' = the venue's default for the type. */
  timeInForce: '' | TimeInForce;
  postOnly: boolean;
  stp: StpChoice;
  clientOrderId: string;
  stopType: StopType;
  stopTrigger: string;
  /** Local date-time as an <input type="datetime-local"> writes it; '' = none. */
  expiresAt: string;
  scheduledAt: string;
}

export const EMPTY_TICKET: TicketForm = {
  productId: 'BTC-VND',
  side: 'BUY',
  type: 'LIMIT',
  sizeMode: 'base',
  size: '',
  exactBase: '',
  price: '',
  pricedFor: '',
  timeInForce: '',
  postOnly: false,
  stp: '',
  clientOrderId: '',
  stopType: 'STOP_LOSS',
  stopTrigger: '',
  expiresAt: '',
  scheduledAt: '',
};

/**
 * A ticket carried from another window (a pop-out's address, a dock message), read back: each field of the right
 * kind is taken, anything else stays as an empty ticket has it, so a malformed one never makes a bad order.
 */
export function readTicketForm(value: unknown): TicketForm | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const form: TicketForm = { ...EMPTY_TICKET };
  const out = form as unknown as Record<string, unknown>;
  const choices: Partial<Record<keyof TicketForm, readonly string[]>> = {
    side: ORDER_SIDES, type: ORDER_TYPES, sizeMode: ['base', 'quote', 'exact_quote'], timeInForce: ['', ...TIMES_IN_FORCE],
    stp: ['', ...REST_STP_MODES], stopType: STOP_TYPES,
  };
  for (const key of Object.keys(EMPTY_TICKET) as (keyof TicketForm)[]) {
    const given = v[key];
    const allowed = choices[key];
    if (typeof given === typeof EMPTY_TICKET[key] && (allowed === undefined || allowed.includes(given as string))) out[key] = given;
  }
  if (typeof v.priceTyped === 'boolean') form.priceTyped = v.priceTyped;
  return form;
}

export type TicketField = 'price' | 'size' | 'timeInForce' | 'postOnly' | 'stp' | 'clientOrderId' | 'stopTrigger' | 'stopType' | 'expiresAt' | 'scheduledAt' | 'type' | 'balance';

export interface TicketContext {
  /** UNIX nanoseconds. */
  now: bigint;
  /** Undefined while the account is not known (a key imported without its user id): the venue checks them. */
  balances: readonly AssetBalance[] | undefined;
  makerFeeRate: string;
  takerFeeRate: string;
  /** Best first on each side; used to estimate orders without a limit price. */
  bids: readonly BookLevel[];
  asks: readonly BookLevel[];
}

export interface Estimate {
  /** Quote asset, as decimal strings. */
  notional: string;
  fee: string;
  /** What a buy spends or a sell receives, fees included. */
  total: string;
  quoteAsset: string;
  /** True when the figure comes from walking the book rather than from a price the trader typed. */
  fromBook: boolean;
  /**
   * An exact-quote order: what the venue keeps beyond the fees, into its fee account (docs/api.md): the exact
   * amount less what trades at the book and its fees (a buy), or what the trade raises after fees beyond it (a sell).
   */
  kept?: string;
  /** What the book shown cannot do for this order: fill it whole. The figures are of what it could fill. */
  shortfall?: string;
  /**
   * Present when the book shown cannot tell the fee to the atom: the venue charges a fee per fill (one a maker's
   * order) and rounds each down on its own, and a level of several orders does not show how they split it. The
   * figures at the least fee the fills can come to; `fee`, `total` and `kept` are then at the most.
   */
  leastFee?: { fee: string; total: string; kept?: string };
}

export interface TicketCheck {
  /** The body to send, present only when nothing is wrong. */
  request?: OrderFields;
  errors: Partial<Record<TicketField, string>>;
  estimate?: Estimate;
}

/** An <input type="datetime-local"> value (the trader's local time) as UNIX nanoseconds; undefined if unreadable. */
export function localTimeToNanos(text: string): string | undefined {
  if (text === '') return undefined;
  const millis = new Date(text).getTime();
  if (Number.isNaN(millis)) return undefined;
  return (BigInt(millis) * 1_000_000n).toString();
}

/** Whether the ticket shows the expiry box: only GTT and TWAP orders take an expiry. */
export function takesExpiry(form: Pick<TicketForm, 'type' | 'timeInForce'>): boolean {
  return form.type === 'TWAP' || form.timeInForce === 'GTT';
}

/**
 * A figure as typed, without the thousands grouping the desk writes figures with (a narrow no-break space, U+202F)
 * or a trader types (a space, a no-break or thin space): "2 400 000 000" copied from the ladder or the blotters was
 * refused as whitespace. Only well-formed groups of three in the whole part, the first not led by 0 (the desk
 * never writes "0 100"; taken as 0100 it was refused for leading zeros the trader never typed, and the tape's
 * Large at took it as 100): anything else is left for the checks to refuse as whitespace, and the request sent never
 * holds a space (the venue refuses one).
 */
export function ungrouped(text: string): string {
  const trimmed = text.trim();
  return /^[1-9]\d{0,2}(?:[ \u00a0\u2009\u202f]\d{3})+(?:\.\d*)?$/.test(trimmed) ? trimmed.replace(/[ \u00a0\u2009\u202f]/g, '') : trimmed;
}

/** The ways a size is given for an order type: in quote only for a market order, exact quote only for a limit one. */
export function sizeModesFor(type: TicketForm['type']): readonly SizeMode[] {
  if (type === 'MARKET') return ['base', 'quote'];
  if (type === 'LIMIT') return ['base', 'exact_quote'];
  return ['base'];
}

/** The request body the form describes, without judging it. */
export function ticketRequest(form: TicketForm): OrderFields {
  const body: OrderFields = { product_id: form.productId, side: form.side, type: form.type };
  const size = ungrouped(form.size);
  const price = ungrouped(form.price);
  if (size !== '') {
    if (form.sizeMode === 'base') body.base_size = size;
    else if (form.sizeMode === 'quote') body.quote_size = size;
    else body.exact_quote_size = size;
  }
  if (form.sizeMode === 'exact_quote' && form.exactBase.trim() !== '') body.base_size = ungrouped(form.exactBase);
  // The venue derives an exact-quote order's limit price; a price typed before that mode was chosen is not sent.
  if (price !== '' && form.type !== 'MARKET' && form.sizeMode !== 'exact_quote') body.limit_price = price;
  if (form.timeInForce !== '') body.time_in_force = form.timeInForce;
  if (form.postOnly) body.post_only = true;
  if (form.stp !== '') body.stp = form.stp;
  if (form.clientOrderId.trim() !== '') body.client_order_id = form.clientOrderId.trim();
  if (form.type === 'STOP') {
    body.order_stop_type = form.stopType;
    if (form.stopTrigger.trim() !== '') body.stop_trigger_price = ungrouped(form.stopTrigger);
  }
  // The box is hidden once another time in force is picked, and what it still holds is not sent: an error on a
  // field the trader cannot see would leave the order unsendable with nothing said.
  const expires = takesExpiry(form) ? localTimeToNanos(form.expiresAt) : undefined;
  if (expires !== undefined) body.expired_at = expires;
  const scheduled = localTimeToNanos(form.scheduledAt);
  if (scheduled !== undefined) body.scheduled_at = scheduled;
  return body;
}

/**
 * Whether the ticket, as it stands, would send `asked`. A confirmation is about one order: once the trader edits
 * what it is made of (price, size, side, product...), "Send anyway" would send the order no longer on the ticket.
 */
export function sendsOrder(form: TicketForm, asked: OrderFields): boolean {
  return shallow(ticketRequest(form), asked);
}

const FIELD_OF: Readonly<Record<string, TicketField>> = {
  limit_price: 'price',
  base_size: 'size',
  quote_size: 'size',
  exact_quote_size: 'size',
  time_in_force: 'timeInForce',
  post_only: 'postOnly',
  stp: 'stp',
  client_order_id: 'clientOrderId',
  stop_trigger_price: 'stopTrigger',
  order_stop_type: 'stopType',
  expired_at: 'expiresAt',
  scheduled_at: 'scheduledAt',
  type: 'type',
};

const TICKET_WORDS: Readonly<Record<string, string>> = {
  limit_price: 'price',
  base_size: 'size',
  quote_size: 'quote size',
  exact_quote_size: 'exact quote size',
  time_in_force: 'time in force',
  post_only: 'post-only',
  client_order_id: 'client order id',
  stop_trigger_price: 'stop trigger',
  order_stop_type: 'stop type',
  expired_at: 'expiry',
  scheduled_at: 'scheduled time',
};

/** "limit_price: not a multiple of 10000" -> the price field, "not a multiple of 10000". */
function fieldError(description: string): [TicketField, string] {
  const match = /^([a-z_]+)(?: (?:×|or|and) [a-z_]+)*(?: are mutually exclusive)?:?\s*(.*)$/.exec(description);
  const wire = match?.[1] ?? '';
  const field = FIELD_OF[wire] ?? 'type';
  const rest = match?.[2] ?? description;
  const friendly = rest.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (word) => TICKET_WORDS[word] ?? word);
  return [field, friendly === '' ? description : friendly];
}

/** Free atoms of the asset; undefined when the account is not known: a balance the desk cannot see is not zero. */
function freeAtoms(balances: readonly AssetBalance[] | undefined, asset: { id: string; decimals: number }): bigint | undefined {
  if (balances === undefined) return undefined;
  const free = toAtoms(balances.find((b) => b.asset === asset.id)?.free ?? '0', asset.decimals);
  return isReason(free) ? undefined : free;
}

/** The least and the most fee, in quote atoms, that fills can come to. */
export interface FeeRange {
  least: bigint;
  most: bigint;
}

const PPM = 1_000_000n;
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

/**
 * The fee the venue charges for taking `lots` of a level of `levelLots` lots in `orders` makers' orders, at
 * `perLot` quote atoms a lot. The venue settles one fill per maker order taken and rounds each fill's fee down
 * on its own (the exchange's settle, fees.ts), and floor(a) + floor(b) <= floor(a + b): rounded once for the level,
 * the fee read an atom high for every fill whose fraction carried. The book shown gives a level's size and count of
 * orders, not how they split it, so this is a range; exact for one fill, or for a level of one-lot orders.
 */
export function levelFee(perLot: bigint, lots: number, levelLots: number, orders: number, ratePpm: number): FeeRange {
  const most = feeOf(perLot * BigInt(lots), ratePpm);
  const lotFee = feeOf(perLot, ratePpm);
  if (Math.max(orders, 1) >= levelLots) return { least: lotFee * BigInt(lots), most: lotFee * BigInt(lots) };
  const fills = Math.min(orders, lots);
  if (fills <= 1) return { least: most, most };
  // Each fill drops the fraction of an atom its fee had, in steps of `step` parts per million of an atom, at most
  // one step short of a whole atom; what they drop beyond the fraction the whole take drops is whole atoms.
  const perLotScaled = perLot * BigInt(ratePpm);
  const step = gcd(perLotScaled, PPM);
  const dropped = (perLotScaled * BigInt(lots)) % PPM;
  const carries = (BigInt(fills) * (PPM - step) - dropped) / PPM;
  const least = most - carries > lotFee * BigInt(lots) ? most - carries : lotFee * BigInt(lots);
  return { least, most };
}

/** What the book shown lets an order take: lots, their notional and their fees in quote atoms. */
export interface BookWalk {
  lots: number;
  notional: bigint;
  fee: FeeRange;
}

/**
 * Taking up to `lots` from one side of the book, best first, at prices `reachable` allows (a limit the order may
 * not pass), with the fees the venue charges the fills at `ratePpm` (levelFee).
 */
export function walkBook(rules: ProductRules, levels: readonly BookLevel[], lots: number, ratePpm: number, reachable: (ticks: number) => boolean = () => true): BookWalk {
  const { walk } = takeLevels(rules, levels, ratePpm, (ticks, size, _perLot, taken) => (reachable(ticks) ? Math.min(lots - taken.lots, size) : undefined));
  return walk;
}

/**
 * The one walk of the book every estimate makes: each level best first, taking the lots `take` says of it (undefined:
 * stop before it), with its notional and the fees its fills are charged (levelFee). It stops after a level taken in
 * part; `short` says it did, where every level shown was taken whole otherwise.
 */
function takeLevels(
  rules: ProductRules,
  levels: readonly BookLevel[],
  ratePpm: number,
  take: (ticks: number, size: number, perLot: bigint, taken: BookWalk) => number | undefined,
): { walk: BookWalk; short: boolean } {
  const walk: BookWalk = { lots: 0, notional: 0n, fee: { least: 0n, most: 0n } };
  for (const level of levels) {
    const ticks = toUnits(level.price, rules.spec.priceIncrement);
    const size = toUnits(level.size, rules.spec.sizeIncrement);
    if (isReason(ticks) || isReason(size)) continue;
    const perLot = BigInt(notionalAtoms(rules, ticks, 1));
    const lots = take(ticks, size, perLot, walk);
    if (lots === undefined) return { walk, short: true };
    walk.lots += lots;
    walk.notional += perLot * BigInt(lots);
    const fee = levelFee(perLot, lots, size, level.order_count, ratePpm);
    walk.fee.least += fee.least;
    walk.fee.most += fee.most;
    if (lots < size) return { walk, short: true };
  }
  return { walk, short: false };
}

/** What a market buy for a quote amount takes from the asks shown: lots and their notional in quote atoms. */
export interface BudgetWalk {
  lots: number;
  notional: bigint;
  fee: FeeRange;
  /**
   * It takes every ask shown whole and its budget is not spent: the venue's match runs out of asks, and a buy
   * for an amount ends CANCELED there with the rest unspent, like any IOC remainder.
   */
  emptied: boolean;
}

/**
 * A market buy with `budget` of notional: whole lots, as many as the budget pays for at each ask in turn,
 * ending at the first ask it cannot pay one lot of (the venue's match). Undefined without asks.
 */
export function budgetWalk(rules: ProductRules, asks: readonly BookLevel[], budget: bigint, ratePpm: number): BudgetWalk | undefined {
  if (asks.length === 0) return undefined;
  const { walk, short } = takeLevels(rules, asks, ratePpm, (_ticks, size, perLot, taken) => {
    const affordable = (budget - taken.notional) / perLot;
    return BigInt(size) < affordable ? size : Number(affordable);
  });
  return { ...walk, emptied: !short };
}

interface Reference {
  notional: bigint;
  fromBook: boolean;
  /** The quote amount is the total, the fee counted in: the split is worked out from it. */
  feesIncluded?: true;
  /** Fees as the venue charges the fills the walk takes: the most, and `feeLeast` when they may come to less. */
  fee?: bigint;
  feeLeast?: bigint;
  /** What the trader pays or receives whatever trades (an exact-quote order). */
  total?: bigint;
  kept?: bigint;
  shortfall?: string;
}

const sizeText = (rules: ProductRules, lots: number): string => `${formatUnits(lots, rules.spec.sizeIncrement)} ${rules.base.id}`;
const quoteText = (rules: ProductRules, atoms: bigint): string => `${formatAtoms(atoms, rules.quote.decimals)} ${rules.quote.id}`;

/**
 * An exact-quote order from the book: the venue trades its size FOK at prices no worse than the one at which size
 * and fee use up the exact amount, moves the trader's quote by exactly that amount, and pays what the fills and
 * their fees leave of it into its fee account (docs/api.md; the exchange's exactQuoteLimit and settleExactQuote).
 */
function exactQuoteReference(order: NewOrderRequest, ctx: TicketContext, rules: ProductRules): Reference {
  const rate = rateOf(ctx.takerFeeRate);
  const exact = order.exactQuoteAtoms;
  const buy = order.side === 'BUY';
  const limitTicks = exactQuoteLimitTicks(order.side, exact, rate, BigInt(notionalAtoms(rules, 1, order.baseLots)));
  const walk = walkBook(rules, buy ? ctx.asks : ctx.bids, order.baseLots, rate, (ticks) => (buy ? ticks <= limitTicks : ticks >= limitTicks));
  if (walk.lots < order.baseLots) {
    const side = buy ? 'asks' : 'bids';
    const limit = `${formatUnits(limitTicks, rules.spec.priceIncrement)} ${rules.quote.id}`;
    return {
      notional: 0n,
      fee: 0n,
      total: 0n,
      fromBook: true,
      shortfall:
        `the book shown has ${sizeText(rules, walk.lots)} of ${side} at or ${buy ? 'below' : 'above'} ${limit}, the worst price ` +
        `${quoteText(rules, exact)} ${buy ? 'pays' : 'is raised'} at for ${sizeText(rules, order.baseLots)} with fees: the venue would cancel this fill-or-kill order`,
    };
  }
  const kept = buy ? exact - walk.notional - walk.fee.most : walk.notional - walk.fee.most - exact;
  return { notional: walk.notional, fee: walk.fee.most, feeLeast: walk.fee.least, total: exact, kept: kept > 0n ? kept : 0n, fromBook: true };
}

function reference(order: NewOrderRequest, ctx: TicketContext, rules: ProductRules): Reference | undefined {
  if (order.exactQuoteAtoms > 0n) return exactQuoteReference(order, ctx, rules);
  // A size in quote is what the trader pays (buy) or receives (sell) with the fee counted in, as the venue holds it.
  if (order.quoteAtoms > 0n) {
    // The venue trades whole lots, so a quote amount is seldom what trades: a buy of 1,000,000 VND buys three lots
    // of 0.0001 BTC at 2.5e9 and spends 751,500. The book tells what it trades; without one the amount is all.
    const rate = rateOf(ctx.takerFeeRate);
    const walk = order.side === 'BUY' ? budgetWalk(rules, ctx.asks, notionalWithin(order.quoteAtoms, rate), rate) : raiseWalk(rules, ctx.bids, order.quoteAtoms, rate);
    const walked = walk?.notional;
    if (walk !== undefined && walked !== undefined && walked > 0n) {
      let shortfall: string | undefined;
      if (order.side === 'SELL') {
        const raised = walked - walk.fee.most;
        // A sell the bids shown cannot raise the amount with sells what they take (the venue's IOC remainder).
        if (raised < order.quoteAtoms) {
          shortfall = `the bids shown raise about ${quoteText(rules, raised)} of ${quoteText(rules, order.quoteAtoms)} after fees: the venue would sell what they take and cancel the rest`;
        }
      } else if ('emptied' in walk && walk.emptied) {
        shortfall =
          `the asks shown take about ${quoteText(rules, walked + walk.fee.most)} of ${quoteText(rules, order.quoteAtoms)} with fees: ` +
          `the venue would buy all ${sizeText(rules, walk.lots)} of them and cancel the rest`;
      }
      return { notional: walked, fee: walk.fee.most, feeLeast: walk.fee.least, fromBook: true, ...(shortfall !== undefined && { shortfall }) };
    }
    return { notional: order.quoteAtoms, fromBook: false, feesIncluded: true };
  }
  if (order.limitTicks > 0) return { notional: BigInt(notionalAtoms(rules, order.limitTicks, order.baseLots)), fromBook: false };
  if (order.stopTriggerTicks > 0) {
    return { notional: BigInt(notionalAtoms(rules, order.stopTriggerTicks, order.baseLots)), fromBook: false };
  }
  const side = order.side === 'BUY' ? 'asks' : 'bids';
  // Taking from the book is trading as taker (a market order is IOC, which the venue refuses with post-only).
  const walk = walkBook(rules, order.side === 'BUY' ? ctx.asks : ctx.bids, order.baseLots, rateOf(ctx.takerFeeRate));
  const walked = { notional: walk.notional, fee: walk.fee.most, feeLeast: walk.fee.least, fromBook: true };
  if (walk.lots >= order.baseLots) return walked;
  // A market order larger than the book shown fills what is there and the venue cancels the rest (IOC); a
  // stop-market or TWAP without a price meets another book later, so only a market order is told so.
  if (order.type !== 'MARKET') return undefined;
  const shortfall =
    walk.lots === 0
      ? `no ${side} on the book shown: this market order would fill nothing now`
      : `the book shown has ${sizeText(rules, walk.lots)} of ${side}: about ${sizeText(rules, walk.lots)} of ${sizeText(rules, order.baseLots)} could fill, the rest would be canceled`;
  return { ...walked, shortfall };
}

function rateOf(text: string): number {
  const value = parseRate(text);
  return isReason(value) ? 0 : value;
}

/** Quote atoms the venue will hold for a buy; undefined when it cannot be known before (a thin book, TWAP slices). */
function quoteHold(order: NewOrderRequest, ctx: TicketContext, rules: ProductRules, ref: ReturnType<typeof reference>): bigint | undefined {
  const exactQuote = order.exactQuoteAtoms > 0n;
  const takerRatePpm = rateOf(ctx.takerFeeRate);
  const hold = buyHold(
    { ...order, lots: order.baseLots, quoteAtoms: exactQuote ? order.exactQuoteAtoms : order.quoteAtoms, exactQuote, makerRatePpm: rateOf(ctx.makerFeeRate), takerRatePpm },
    (ticks, lots) => BigInt(notionalAtoms(rules, ticks, lots)),
  );
  if (hold === 'per-slice') return undefined;
  if (hold === 'book') return ref?.fromBook === true && ref.notional > 0n ? costWithFee(ref.notional, takerRatePpm) : undefined;
  return hold;
}

/** A market sell for a quote amount: the fewest lots whose proceeds after fee reach it, from the bids best first. */
function raiseWalk(rules: ProductRules, bids: readonly BookLevel[], quoteAtoms: bigint, ratePpm: number): BookWalk {
  const target = notionalReaching(quoteAtoms, ratePpm);
  const { walk } = takeLevels(rules, bids, ratePpm, (_ticks, size, perLot, taken) =>
    taken.notional >= target ? undefined : Math.min(size, Number((target - taken.notional + perLot - 1n) / perLot)));
  return walk;
}

/** Base atoms the venue will hold for a sell: its size, or for a quote amount the lots the bids take to raise it. */
function sellHold(order: NewOrderRequest, ctx: TicketContext, rules: ProductRules): bigint | undefined {
  const lots = order.baseLots > 0 ? order.baseLots : raiseWalk(rules, ctx.bids, order.quoteAtoms, rateOf(ctx.takerFeeRate)).lots;
  const atoms = toAtoms(formatUnits(lots, rules.spec.sizeIncrement), rules.base.decimals);
  return isReason(atoms) ? undefined : atoms;
}

export function checkTicket(form: TicketForm, ctx: TicketContext): TicketCheck {
  const rules = productRules(form.productId);
  if (rules === undefined) return { errors: { type: `unknown product ${form.productId}` } };
  const body = ticketRequest(form);
  const errors: TicketCheck['errors'] = {};
  // A price clicked on another product's ladder, or typed while the ticket traded another product, is a
  // valid-looking number for the wrong market. A price the ticket does not send (market, exact quote) is no matter.
  if (form.pricedFor !== '' && form.pricedFor !== form.productId && form.price.trim() !== '' && form.type !== 'MARKET' && form.sizeMode !== 'exact_quote') {
    errors.price = form.priceTyped === true ? `typed for ${form.pricedFor}; this ticket trades ${form.productId}: enter its price again` : `taken from the ${form.pricedFor} ladder; this ticket trades ${form.productId}`;
  }
  if (takesExpiry(form) && form.expiresAt !== '' && localTimeToNanos(form.expiresAt) === undefined) errors.expiresAt = 'not a date and time';
  if (form.scheduledAt !== '' && localTimeToNanos(form.scheduledAt) === undefined) errors.scheduledAt = 'not a date and time';
  if (Object.keys(errors).length > 0) return { errors };

  const parsed = parseCreateOrder(body, { now: ctx.now });
  if (parsed instanceof ApiError) {
    const [field, message] = fieldError(parsed.description);
    return { errors: { [field]: message } };
  }

  const quote = rules.quote;
  const base = rules.base;
  const ref = reference(parsed, ctx, rules);
  const rate = parsed.postOnly ? rateOf(ctx.makerFeeRate) : rateOf(ctx.takerFeeRate);
  let estimate: Estimate | undefined;
  if (ref !== undefined) {
    let notional = ref.notional;
    // Rounded down to the atom, as the venue charges it (fees.ts).
    let fee = ref.fee ?? feeOf(notional, rate);
    let total = ref.total ?? (parsed.side === 'BUY' ? notional + fee : notional - fee);
    if (ref.feesIncluded === true) {
      // The quote amount is the total: the largest notional whose cost with fee fits it (buy), or the smallest
      // whose proceeds after fee reach it (sell), by the venue's own arithmetic.
      total = ref.notional;
      notional = parsed.side === 'BUY' ? notionalWithin(total, rate) : notionalReaching(total, rate);
      fee = feeOf(notional, rate);
    }
    // What the fills may save below `fee`: a buy costs that much less, a sell raises it and an exact-quote order's
    // amount, which does not move, leaves it to the venue beyond fees.
    const saved = ref.feeLeast === undefined ? 0n : fee - ref.feeLeast;
    const least =
      saved > 0n
        ? {
            fee: formatAtoms(fee - saved, quote.decimals),
            total: formatAtoms(ref.total ?? (parsed.side === 'BUY' ? total - saved : total + saved), quote.decimals),
            ...(ref.kept !== undefined && { kept: formatAtoms(ref.kept + saved, quote.decimals) }),
          }
        : undefined;
    estimate = {
      notional: formatAtoms(notional, quote.decimals),
      fee: formatAtoms(fee, quote.decimals),
      total: formatAtoms(total, quote.decimals),
      quoteAsset: quote.id,
      fromBook: ref.fromBook,
      ...(ref.kept !== undefined && { kept: formatAtoms(ref.kept, quote.decimals) }),
      ...(ref.shortfall !== undefined && { shortfall: ref.shortfall }),
      ...(least !== undefined && { leastFee: least }),
    };
  }

  // What the venue will lock, by its own rule (fees.ts): a check stricter than the venue refuses orders it takes,
  // a looser one sends orders it rejects.
  const asset = parsed.side === 'SELL' ? base : quote;
  const free = freeAtoms(ctx.balances, asset);
  const need = parsed.side === 'SELL' ? sellHold(parsed, ctx, rules) : quoteHold(parsed, ctx, rules, ref);
  if (free !== undefined && need !== undefined && need > free) {
    const balance = `needs ${formatAtoms(need, asset.decimals)} ${asset.id} held, ${formatAtoms(free, asset.decimals)} ${asset.id} free`;
    return { errors: { balance }, ...(estimate && { estimate }) };
  }
  return { request: body, errors: {}, ...(estimate && { estimate }) };
}

/**
 * The base size that uses `percent` of what the trader can spend: for a sell, of the free base; for a buy, of
 * the free quote at `price` with the taker fee on top. Rounded down to the size increment; '' when nothing fits.
 */
export function presetSize(percent: number, side: OrderSide, productId: string, price: string, ctx: TicketContext): string {
  const rules = productRules(productId);
  if (rules === undefined) return '';
  const pct = BigInt(Math.round(percent));
  if (side === 'SELL') {
    const free = freeAtoms(ctx.balances, rules.base);
    const lot = toAtoms(rules.spec.sizeIncrement, rules.base.decimals);
    if (free === undefined || isReason(lot)) return '';
    const lots = (free * pct) / 100n / lot;
    return lots > 0n ? formatUnits(Math.min(Number(lots), rules.maxLots), rules.spec.sizeIncrement) : '';
  }
  const ticks = toUnits(ungrouped(price), rules.spec.priceIncrement);
  const free = freeAtoms(ctx.balances, rules.quote);
  if (isReason(ticks) || ticks === 0 || free === undefined) return '';
  const spend = (free * pct) / 100n;
  const perLot = BigInt(ticks * rules.quoteAtomsPerTickLot);
  const perLotWithFee = costWithFee(perLot, rateOf(ctx.takerFeeRate));
  const lots = spend / perLotWithFee;
  return lots > 0n ? formatUnits(Math.min(Number(lots), rules.maxLots), rules.spec.sizeIncrement) : '';
}

/**
 * The order as the confirmation shows it: every field that is sent, in words, with the unit of each amount, so
 * what the trader confirms is what goes out (a quote amount never reads as a base size).
 */
export function describeOrder(request: OrderFields, baseAsset: string, quoteAsset: string): string {
  const type = request.type ?? 'LIMIT';
  // Grouped as every panel writes them: the question is where a price typed a digit short or long is caught, and
  // "2400000000" beside "240000000" does not show it at a glance as "2 400 000 000" does. Never rounded.
  const figure = (text: string | undefined): string => (text === undefined ? '?' : formatDecimal(text));
  const parts: string[] = [request.side];
  if (request.exact_quote_size !== undefined) parts.push(`${figure(request.base_size)} ${baseAsset} for exactly ${figure(request.exact_quote_size)} ${quoteAsset}, fees included`);
  else if (request.quote_size !== undefined) parts.push(`${figure(request.quote_size)} ${quoteAsset} worth of ${baseAsset}`);
  else parts.push(`${figure(request.base_size)} ${baseAsset}`);
  parts.push(`on ${request.product_id}, ${type}`);
  if (request.exact_quote_size !== undefined) parts.push('at the price the venue derives');
  else if (request.limit_price !== undefined && request.limit_price !== '0') parts.push(`at ${figure(request.limit_price)} ${quoteAsset}`);
  else parts.push('at market');
  if (request.stop_trigger_price !== undefined) parts.push(`when the last trade reaches ${figure(request.stop_trigger_price)} (${request.order_stop_type ?? 'STOP_LOSS'})`);
  if (request.time_in_force !== undefined) parts.push(request.time_in_force);
  if (request.post_only === true) parts.push('post-only');
  // In local time, as the ticket's fields take them: in UTC a 17:00 start typed in UTC+7 read as 10:00.
  if (request.scheduled_at !== undefined) parts.push(`from ${formatNanosLocal(request.scheduled_at)}`);
  if (request.expired_at !== undefined) parts.push(`until ${formatNanosLocal(request.expired_at)}`);
  return parts.join(' ');
}

/**
 * What the ticket's send button says: the side, the amount and the product, once each. The base asset is in the
 * product's name, so a base size reads "Buy 0.05 BTC-VND" (it read "Buy 0.05 BTC BTC-VND"); an amount in quote is
 * what the order spends or raises, "Buy BTC-VND for 1 000 000 VND".
 */
export function submitText(form: Pick<TicketForm, 'side' | 'size' | 'sizeMode' | 'productId'>, quoteAsset: string): string {
  const side = form.side === 'BUY' ? 'Buy' : 'Sell';
  const typed = ungrouped(form.size);
  if (typed === '') return `${side} ${form.productId}`;
  const size = isDecimal(typed) ? formatDecimal(typed) : typed;
  if (form.sizeMode === 'base') return `${side} ${size} ${form.productId}`;
  return `${side} ${form.productId} for ${form.sizeMode === 'exact_quote' ? 'exactly ' : ''}${size} ${quoteAsset}`;
}

/** The ticket's line about the last order it sent, as it stands now (`status` as the blotters word it). */
export function lastOrderText(order: Pick<Order, 'side' | 'product_id' | 'base_size' | 'quote_size'>, quoteAsset: string, status: string): string {
  // An order sized in quote says so: its amount alone before the product read as that many of the base asset.
  const size = order.base_size !== '0' ? formatDecimal(order.base_size) : `${formatDecimal(order.quote_size)} ${quoteAsset} of`;
  return `${order.side} ${size} ${order.product_id}: ${status}`;
}
