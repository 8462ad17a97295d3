/**
 * The checks a trader expects before an order leaves the desk: a limit far from the market, a notional above
 * the trader's limit, and on environments that ask for it (Production by default) an explicit confirmation.
 * An order that fails one is held, not sent; the window shows why and places it again confirmed or overridden.
 * Exact decimals throughout (ARCHITECTURE rule 6).
 */
import Decimal from 'decimal.js';
import type { EnvironmentId, PlaceOrderRequest, PreTradeIssue, PreTradeSettings } from '../../src-shared/ipc/contract';
import { groupDigits } from '../../src-shared/protocol/decimal';

/** The order and what the trader said to it; where it goes is the context's environment. */
export type PreTradeOrder = Omit<PlaceOrderRequest, 'environment'>;

export interface BookLevel {
  readonly price: string;
  readonly size: string;
}

export interface MarketReference {
  /** Last trade price, else the mid of the best bid and ask; undefined when the market is empty. */
  readonly price: string | undefined;
  /**
   * For an order measured by the book (measuredByBook): the side it would take from (asks for a buy, bids for a
   * sell), best first. The last trade does not say what such an order trades for on a thin book, and without
   * one (no trade yet) a mid says less, or there is none.
   */
  readonly opposite?: OppositeSide;
  /** With no trade and one side of the book empty, the other side's best price: the only market there is. */
  readonly onlySide?: { readonly side: 'bid' | 'ask'; readonly price: string };
}

export interface OppositeSide {
  /** Best first. */
  readonly levels: readonly BookLevel[];
  /**
   * The levels are all the side holds. A read cut at its depth (the streamed top 50, a REST read that returned the
   * most it may) is not: a walk that runs past its last level cannot say what the rest costs, and pricing it at
   * the deepest level seen let a buy of 5 SOL pass as 200,000,000 and fill for 1,800,000,000.
   */
  readonly whole: boolean;
}

export interface PreTradeContext {
  readonly environment: EnvironmentId;
  readonly environmentName: string;
  readonly confirmOrders: boolean;
  readonly settings: PreTradeSettings;
  readonly market: MarketReference;
  readonly quoteAsset: string;
}

function positive(text: string | undefined): Decimal | undefined {
  if (text === undefined || text === '') return undefined;
  const value = new Decimal(text);
  return value.isZero() ? undefined : value;
}

/**
 * Whether the order's notional is what it takes from the book: one by base size with no price of its own (a
 * market order; a stop's is measured at its trigger).
 */
export function measuredByBook(order: PreTradeOrder): boolean {
  return positive(order.base_size) !== undefined && limitPriceOf(order) === undefined && quoteSizeOf(order) === undefined && !(order.type === 'STOP' && positive(order.stop_trigger_price) !== undefined);
}

/** The order's limit price, or undefined for none: a market order's "0" included. */
export function limitPriceOf(order: PreTradeOrder): Decimal | undefined {
  return positive(order.limit_price);
}

export function preTradeIssues(order: PreTradeOrder, context: PreTradeContext): PreTradeIssue[] {
  const issues: PreTradeIssue[] = [];
  if (context.confirmOrders && order.confirmed !== context.environment) {
    issues.push({ check: 'confirmation', message: `${context.environmentName}: confirm this order before it is sent` });
  }
  if (order.override_checks === true) return issues;

  const market = positive(context.market.price);
  // A stop's limit takes effect once the last trade reaches its trigger: that is what it is far from or near,
  // and a stop-loss some way off the market is routine.
  const trigger = order.type === 'STOP' ? positive(order.stop_trigger_price) : undefined;
  const reference = trigger ?? market;
  const limit = positive(order.limit_price);
  const maxDeviation = positive(context.settings.maxDeviationPercent);
  // With no trade yet and one side of the book, that side's best price is what a limit is far from: a buy far
  // above the only asks sweeps them, and one far above the only bids is there for the next seller to take. With
  // no market at all a limit is not held: resting one is how a market starts.
  const onlySide = context.market.onlySide;
  const measuredFrom = reference ?? positive(onlySide?.price);
  if (measuredFrom !== undefined && limit !== undefined && maxDeviation !== undefined) {
    const deviation = limit.minus(measuredFrom).abs().div(measuredFrom).times(100);
    if (deviation.greaterThan(maxDeviation)) {
      const at = groupDigits(measuredFrom.toFixed());
      const from =
        trigger !== undefined ? `its stop trigger (${at})` : market !== undefined || onlySide === undefined ? `the market (${at})` : `the book's best ${onlySide.side} (${at}), with no trade yet and no ${onlySide.side === 'bid' ? 'asks' : 'bids'}`;
      issues.push({
        check: 'price_deviation',
        message: `limit ${groupDigits(limit.toFixed())} is ${deviation.toDecimalPlaces(2).toString()}% from ${from}; the limit is ${maxDeviation.toString()}%`,
      });
    }
  }

  const maxNotional = positive(context.settings.maxNotional);
  if (maxNotional !== undefined) {
    const limitText = `the limit of ${groupDigits(maxNotional.toFixed())} ${context.quoteAsset}`;
    const size = positive(order.base_size);
    const opposite = context.market.opposite;
    const side = order.side === 'BUY' ? 'asks' : 'bids';
    const fromBook = size !== undefined && opposite !== undefined && measuredByBook(order) ? bookPrice(order.side, size, opposite) : undefined;
    const atMarket = size === undefined || reference === undefined ? undefined : size.times(reference);
    // The larger of the two: a book far from the last trade, or a last trade far from a thin book, each says the
    // order may be larger than the other shows.
    if (fromBook === 'beyond') {
      // Never passed for want of the levels it reaches: the trader may override.
      issues.push({
        check: 'max_notional',
        message: `notional cannot be measured: ${size?.toFixed() ?? ''} reaches past the deepest of the ${opposite?.levels.length ?? 0} ${side} the venue gives, and the book holds more beyond them; ${limitText}`,
      });
    } else if (fromBook !== undefined && (atMarket === undefined || fromBook.notional.greaterThanOrEqualTo(atMarket))) {
      if (fromBook.notional.greaterThan(maxNotional)) {
        issues.push({
          check: 'max_notional',
          message: `notional about ${groupDigits(fromBook.notional.toFixed())} ${context.quoteAsset} (${fromBook.reach}) is above ${limitText}`,
        });
      }
    } else if (opposite !== undefined && measuredByBook(order) && atMarket === undefined) {
      // Never passed for want of a price: an order that cannot be measured is held, and the trader may override.
      issues.push({
        check: 'max_notional',
        message: `notional cannot be measured: there is no market price to measure it against (no trade yet, and no ${side} on the book); ${limitText}`,
      });
    } else {
      const notional = notionalOf(order, reference);
      if (notional !== undefined && notional.greaterThan(maxNotional)) {
        issues.push({
          check: 'max_notional',
          message: `notional ${groupDigits(notional.toFixed())} ${context.quoteAsset} is above ${limitText}`,
        });
      }
    }
  }
  return issues;
}

/**
 * The most `size` could trade for against one side of the book, best first: a buy at up to the worst ask it
 * reaches (the deepest when the whole side holds less; 'beyond' when the levels read are not the whole side), a
 * sell at the best bid. Undefined for an empty side.
 */
function bookPrice(side: PreTradeOrder['side'], size: Decimal, { levels, whole }: OppositeSide): { notional: Decimal; reach: string } | 'beyond' | undefined {
  const [best] = levels;
  if (best === undefined) return undefined;
  if (side === 'SELL') {
    const price = new Decimal(best.price);
    return { notional: size.times(price), reach: `${size.toFixed()} at the book's best bid, ${groupDigits(price.toFixed())}` };
  }
  let taken = new Decimal(0);
  let worst = new Decimal(best.price);
  for (const level of levels) {
    worst = new Decimal(level.price);
    taken = taken.plus(level.size);
    if (taken.greaterThanOrEqualTo(size)) return { notional: size.times(worst), reach: `${size.toFixed()} at up to ${groupDigits(worst.toFixed())}, walking the book's asks` };
  }
  if (!whole) return 'beyond';
  return { notional: size.times(worst), reach: `the book's asks hold less than ${size.toFixed()}; priced at their deepest, ${groupDigits(worst.toFixed())}` };
}

function quoteSizeOf(order: PreTradeOrder): Decimal | undefined {
  return positive(order.exact_quote_size) ?? positive(order.quote_size);
}

/** In the quote asset: the quote size when the order names one, else size times its limit (or a stop's trigger, or the market). */
function notionalOf(order: PreTradeOrder, reference: Decimal | undefined): Decimal | undefined {
  const quote = quoteSizeOf(order);
  if (quote !== undefined) return quote;
  const size = positive(order.base_size);
  const price = positive(order.limit_price) ?? reference;
  return size === undefined || price === undefined ? undefined : size.times(price);
}
