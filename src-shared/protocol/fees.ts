/**
 * Fee arithmetic and the holds it sizes, shared by the venue, which charges and locks them, and the order
 * ticket, which checks before sending that the trader has what the venue will lock. Rates are integers in parts
 * per million. A fee is rounded down to the atom: floor(a) + floor(b) <= floor(a + b), so the fees of an order's
 * partial fills never exceed the fee its hold reserved for the whole order, and a hold always covers what remains.
 */
import type { OrderType } from './vocabulary';
const SCALE = 1_000_000n;

export function feeOf(notional: bigint, ratePpm: number): bigint {
  return (notional * BigInt(ratePpm)) / SCALE;
}

/** What a buyer pays for a notional: the notional plus its fee. */
export function costWithFee(notional: bigint, ratePpm: number): bigint {
  return notional + feeOf(notional, ratePpm);
}

/** The largest notional whose cost with fee fits in `budget` (a market buy by quote size, fees included). */
export function notionalWithin(budget: bigint, ratePpm: number): bigint {
  if (budget <= 0n) return 0n;
  // cost(n) is increasing in n; start from the real-number answer and correct by a step or two.
  let n = (budget * SCALE) / (SCALE + BigInt(ratePpm));
  while (costWithFee(n + 1n, ratePpm) <= budget) n += 1n;
  while (n > 0n && costWithFee(n, ratePpm) > budget) n -= 1n;
  return n;
}

/** The smallest notional whose proceeds after fee reach `target` (a market sell by quote size). */
export function notionalReaching(target: bigint, ratePpm: number): bigint {
  if (target <= 0n) return 0n;
  const proceeds = (n: bigint): bigint => n - feeOf(n, ratePpm);
  let n = (target * SCALE) / (SCALE - BigInt(ratePpm));
  while (n > 0n && proceeds(n - 1n) >= target) n -= 1n;
  while (proceeds(n) < target) n += 1n;
  return n;
}

/**
 * The limit price (ticks) of an exact-quote order: the worst at which its size and taker fee use up exactly
 * `quoteAtoms`. A buy pays at most that much (rounded down to a tick), a sell raises at least it (rounded up).
 * `perTick`: the notional of the order's size at one tick. The venue derives it, and the ticket shows what it will.
 */
export function exactQuoteLimitTicks(side: 'BUY' | 'SELL', quoteAtoms: bigint, ratePpm: number, perTick: bigint): number {
  if (side === 'BUY') return Number(notionalWithin(quoteAtoms, ratePpm) / perTick);
  return Number((notionalReaching(quoteAtoms, ratePpm) + perTick - 1n) / perTick);
}

/** A stop-market buy holds this percent of its notional at the trigger (plus the taker fee): the market may gap past it. */
export const STOP_MARKET_BUY_RESERVE_PERCENT = 110n;

/** What of a buy decides its hold, in the venue's units (price ticks, size lots, quote atoms). */
export interface BuyOrder {
  readonly type: OrderType;
  readonly limitTicks: number;
  readonly lots: number;
  readonly stopTriggerTicks: number;
  /** A market buy's quote amount, or an exact-quote order's exact amount: fees included in either. */
  readonly quoteAtoms: bigint;
  readonly exactQuote: boolean;
  readonly makerRatePpm: number;
  readonly takerRatePpm: number;
}

/** Rate the hold of a buy that may rest is sized with: it may trade as taker or maker, so the larger. */
export function holdRatePpm(rates: { readonly makerRatePpm: number; readonly takerRatePpm: number }): number {
  return Math.max(rates.makerRatePpm, rates.takerRatePpm);
}

/**
 * The quote atoms the venue locks when it accepts a buy; 'book' when that is what walking the book costs at that
 * moment (a market buy of a base size), 'per-slice' for an uncapped TWAP, which holds slice by slice.
 */
export function buyHold(order: BuyOrder, notional: (ticks: number, lots: number) => bigint): bigint | 'book' | 'per-slice' {
  if (order.exactQuote || (order.type === 'MARKET' && order.lots === 0)) return order.quoteAtoms;
  if (order.type === 'TWAP' && order.limitTicks === 0) return 'per-slice';
  if (order.limitTicks > 0) return costWithFee(notional(order.limitTicks, order.lots), holdRatePpm(order));
  if (order.type === 'STOP') return costWithFee((notional(order.stopTriggerTicks, order.lots) * STOP_MARKET_BUY_RESERVE_PERCENT) / 100n, order.takerRatePpm);
  return 'book';
}
