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
   * With no last trade, for an order by base size with no price of its own: the side of the book it would take
   * from (asks for a buy, bids for a sell), best first. A mid says nothing of what such an order pays, and
   * without one (a one-sided book) there is nothing else to measure it by.
   */
  readonly opposite?: readonly BookLevel[];
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
  // A limit with no market to be far from (no trade yet, a one-sided book) is not held: resting one is how a
  // market starts, and its own price bounds what it pays (the notional check measures it at that price).
  if (reference !== undefined && limit !== undefined && maxDeviation !== undefined) {
    const deviation = limit.minus(reference).abs().div(reference).times(100);
    if (deviation.greaterThan(maxDeviation)) {
      const from = trigger === undefined ? `the market (${groupDigits(reference.toFixed())})` : `its stop trigger (${groupDigits(reference.toFixed())})`;
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
    const byBook = opposite !== undefined && size !== undefined && trigger === undefined && quoteSizeOf(order) === undefined && limit === undefined;
    if (byBook) {
      // Never passed for want of a price: an order that cannot be measured is held, and the trader may override.
      const side = order.side === 'BUY' ? 'asks' : 'bids';
      const walk = walkBook(size, opposite);
      if (walk === undefined) {
        issues.push({
          check: 'max_notional',
          message: `notional cannot be measured: there is no market price to measure it against (no trade yet, and no ${side} on the book); ${limitText}`,
        });
      } else if (walk.notional.greaterThan(maxNotional)) {
        const reach = walk.thin ? `the book's ${side} hold less than ${size.toFixed()}; priced at their deepest, ${groupDigits(walk.worst.toFixed())}` : `${size.toFixed()} at up to ${groupDigits(walk.worst.toFixed())}, walking the book's ${side}`;
        issues.push({
          check: 'max_notional',
          message: `notional about ${groupDigits(walk.notional.toFixed())} ${context.quoteAsset} (${reach}) is above ${limitText}`,
        });
      }
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
 * What `size` taken from `levels` (best first) costs at most: size times the worst price it reaches, or the
 * deepest price there when the side holds less. Undefined for an empty side.
 */
function walkBook(size: Decimal, levels: readonly BookLevel[]): { notional: Decimal; worst: Decimal; thin: boolean } | undefined {
  let taken = new Decimal(0);
  let worst: Decimal | undefined;
  for (const level of levels) {
    worst = new Decimal(level.price);
    taken = taken.plus(level.size);
    if (taken.greaterThanOrEqualTo(size)) return { notional: size.times(worst), worst, thin: false };
  }
  return worst === undefined ? undefined : { notional: size.times(worst), worst, thin: true };
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
