import type { Side } from './types';

/**
 * One resting order, and a node of its price level's FIFO queue. The queue is intrusive (prev/next live on the
 * order) so a cancel unlinks in O(1) once the order is found by seq. Nodes are recycled by the book, so nothing
 * outside the engine may keep a reference to one.
 */
export class RestingOrder {
  seq = 0;
  owner = 0;
  side: Side = 'BUY';
  ticks = 0;
  lots = 0;
  prev: RestingOrder | null = null;
  next: RestingOrder | null = null;
  level: PriceLevel | null = null;
}

/** All resting orders at one price on one side, oldest (highest time priority) at the head. */
export class PriceLevel {
  ticks = 0;
  /** ticks for bids, -ticks for asks: the sort key that puts the best level last on either side. */
  rank = 0;
  lots = 0;
  orders = 0;
  head: RestingOrder | null = null;
  tail: RestingOrder | null = null;
}

/**
 * One side of the book. Levels sit in an array sorted by rank ascending, so the best price is the LAST element:
 * trading away the best level is a pop, and new orders, which mostly arrive near the touch, insert close to the
 * end where few elements have to shift. A Map finds an existing level by price without searching.
 */
export class BookSide {
  readonly levels: PriceLevel[] = [];
  private readonly byTicks = new Map<number, PriceLevel>();
  private readonly spare: PriceLevel[] = [];
  private readonly sign: number;

  constructor(readonly side: Side) {
    this.sign = side === 'BUY' ? 1 : -1;
  }

  best(): PriceLevel | undefined {
    return this.levels[this.levels.length - 1];
  }

  /** Queues the order at the back of its price level, creating the level if needed. */
  append(order: RestingOrder): void {
    let level = this.byTicks.get(order.ticks);
    if (level === undefined) level = this.openLevel(order.ticks);
    order.level = level;
    order.prev = level.tail;
    order.next = null;
    if (level.tail === null) level.head = order;
    else level.tail.next = order;
    level.tail = order;
    level.lots += order.lots;
    level.orders += 1;
  }

  /** Takes the order out of its level (its remaining lots with it) and drops the level once it is empty. */
  unlink(order: RestingOrder): void {
    const level = order.level as PriceLevel;
    if (order.prev === null) level.head = order.next;
    else order.prev.next = order.next;
    if (order.next === null) level.tail = order.prev;
    else order.next.prev = order.prev;
    order.prev = null;
    order.next = null;
    order.level = null;
    level.lots -= order.lots;
    level.orders -= 1;
    if (level.orders === 0) this.closeLevel(level);
  }

  private openLevel(ticks: number): PriceLevel {
    const level = this.spare.pop() ?? new PriceLevel();
    level.ticks = ticks;
    level.rank = ticks * this.sign;
    level.lots = 0;
    level.orders = 0;
    level.head = null;
    level.tail = null;
    this.byTicks.set(ticks, level);
    const levels = this.levels;
    const rank = level.rank;
    // First index whose rank is above the new one; the shift below moves only the levels better than it.
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((levels[mid] as PriceLevel).rank < rank) lo = mid + 1;
      else hi = mid;
    }
    levels.push(level);
    for (let i = levels.length - 1; i > lo; i--) levels[i] = levels[i - 1] as PriceLevel;
    levels[lo] = level;
    return level;
  }

  private closeLevel(level: PriceLevel): void {
    this.byTicks.delete(level.ticks);
    const levels = this.levels;
    const last = levels.length - 1;
    if (levels[last] !== level) {
      let lo = 0;
      let hi = last;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((levels[mid] as PriceLevel).rank < level.rank) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < last; i++) levels[i] = levels[i + 1] as PriceLevel;
    }
    levels.pop();
    level.head = null;
    level.tail = null;
    this.spare.push(level);
  }
}
