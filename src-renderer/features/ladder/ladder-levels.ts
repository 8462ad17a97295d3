/**
 * The depth ladder's rows: book levels grouped into price buckets of a chosen step, sizes summed exactly in
 * lots, running totals, and the trader's own resting orders marked on the bucket they sit in. Bids round down
 * and asks round up, so a bucket never shows a better price than any order in it.
 */
import { formatUnits, isReason, toUnits } from '../../../src-shared/protocol/decimal';
import type { BookLevel, Order } from '../../../src-shared/protocol/records';
import { productIncrements, type Increments } from './increments';

export type LadderSide = 'bid' | 'ask';

export interface OwnOrderMark {
  orderId: string;
  /** Left to fill, as a decimal string. */
  size: string;
}

export interface LadderRow {
  side: LadderSide;
  price: string;
  size: string;
  /** Summed from the best price to this row. */
  total: string;
  orderCount: number;
  /** size / the largest size shown on either side: for drawing the bar only. */
  barRatio: number;
  mine: OwnOrderMark[];
}

export interface Ladder {
  /** Best (lowest) first. */
  asks: LadderRow[];
  /** Best (highest) first. */
  bids: LadderRow[];
  spread: string;
}

interface Bucket {
  ticks: number;
  lots: number;
  orderCount: number;
  mine: OwnOrderMark[];
}

function bucketTicks(ticks: number, step: number, side: LadderSide): number {
  return side === 'bid' ? Math.floor(ticks / step) * step : Math.ceil(ticks / step) * step;
}

function group(
  levels: readonly BookLevel[],
  side: LadderSide,
  step: number,
  priceIncrement: string,
  sizeIncrement: string,
  depth: number,
): Bucket[] {
  const buckets: Bucket[] = [];
  for (const level of levels) {
    const ticks = toUnits(level.price, priceIncrement);
    const lots = toUnits(level.size, sizeIncrement);
    if (isReason(ticks) || isReason(lots)) continue;
    const key = bucketTicks(ticks, step, side);
    const last = buckets[buckets.length - 1];
    if (last !== undefined && last.ticks === key) {
      last.lots += lots;
      last.orderCount += level.order_count;
    } else {
      if (buckets.length === depth) break;
      buckets.push({ ticks: key, lots, orderCount: level.order_count, mine: [] });
    }
  }
  return buckets;
}

/** The price steps a trader can group by: the product's increment times 1, 10, 100, 1000. */
export function groupingSteps(productId: string, increments = productIncrements(productId, [])): string[] {
  if (increments === undefined) return [];
  return [1, 10, 100, 1000].map((n) => formatUnits(n, increments.price));
}

export interface LadderInput {
  productId: string;
  bids: readonly BookLevel[];
  asks: readonly BookLevel[];
  /** A multiple of the product's price increment. */
  step: string;
  /** Rows per side. */
  depth: number;
  /** The trader's open orders (any product; others are ignored). */
  orders: readonly Order[];
  /** The product's increments on the venue shown (productIncrements); the built-in product's when absent. */
  increments?: Increments;
}

/**
 * Whether the order sits on the book at its limit price. A SCHEDULED stop or timed order is not there yet, a stop
 * market has no price, and a TWAP's limit price is only a cap on its slices, each an IOC that never rests (nor does
 * an IOC or FOK order): marked, a TWAP's whole remaining size would read as resting at its cap.
 */
export function restsOnBook(order: Order): boolean {
  return order.status === 'ACTIVE' && order.limit_price !== '0' && order.type !== 'TWAP' && order.time_in_force !== 'IOC' && order.time_in_force !== 'FOK';
}

export function buildLadder(input: LadderInput): Ladder {
  const increments = input.increments ?? productIncrements(input.productId, []);
  if (increments === undefined) return { asks: [], bids: [], spread: '' };
  const { price: priceIncrement, size: sizeIncrement } = increments;
  const stepUnits = toUnits(input.step, priceIncrement);
  const step = isReason(stepUnits) || stepUnits === 0 ? 1 : stepUnits;
  const bids = group(input.bids, 'bid', step, priceIncrement, sizeIncrement, input.depth);
  const asks = group(input.asks, 'ask', step, priceIncrement, sizeIncrement, input.depth);

  for (const order of input.orders) {
    if (order.product_id !== input.productId || !restsOnBook(order)) continue;
    const ticks = toUnits(order.limit_price, priceIncrement);
    const size = toUnits(order.base_size, sizeIncrement);
    const filled = toUnits(order.filled_base_size, sizeIncrement);
    if (isReason(ticks) || isReason(size) || isReason(filled)) continue;
    const side: LadderSide = order.side === 'BUY' ? 'bid' : 'ask';
    const key = bucketTicks(ticks, step, side);
    const bucket = (side === 'bid' ? bids : asks).find((b) => b.ticks === key);
    bucket?.mine.push({ orderId: order.order_id, size: formatUnits(Math.max(0, size - filled), sizeIncrement) });
  }

  let largest = 1;
  for (const b of bids) largest = Math.max(largest, b.lots);
  for (const b of asks) largest = Math.max(largest, b.lots);
  const rows = (buckets: Bucket[], side: LadderSide): LadderRow[] => {
    let running = 0;
    return buckets.map((b) => {
      running += b.lots;
      return {
        side,
        price: formatUnits(b.ticks, priceIncrement),
        size: formatUnits(b.lots, sizeIncrement),
        total: formatUnits(running, sizeIncrement),
        orderCount: b.orderCount,
        barRatio: b.lots / largest,
        mine: b.mine,
      };
    });
  };
  // From the book's own best prices: grouped buckets round bids down and asks up, which would widen it.
  const bestBid = input.bids[0] === undefined ? undefined : toUnits(input.bids[0].price, priceIncrement);
  const bestAsk = input.asks[0] === undefined ? undefined : toUnits(input.asks[0].price, priceIncrement);
  const spread = bestBid === undefined || bestAsk === undefined || isReason(bestBid) || isReason(bestAsk) ? '' : formatUnits(bestAsk - bestBid, priceIncrement);
  return { asks: rows(asks, 'ask'), bids: rows(bids, 'bid'), spread };
}
