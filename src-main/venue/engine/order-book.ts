import { BookSide, type PriceLevel, RestingOrder } from './book-side';
import type {
  DepthLevel,
  Estimate,
  Fill,
  MatchResult,
  OrderIn,
  RestingOrderView,
  SelfTradePrevention,
  Side,
} from './types';

// Why the taker stopped taking liquidity.
const SIZE_DONE = 0;
const BUDGET_SPENT = 1;
const SELF_TRADE = 2;
const NO_LIQUIDITY = 3;

/** floor(a / b) for non-negative safe integers (or a = Infinity), corrected in case the division rounded up. */
function lotsAffordable(budget: number, unit: number): number {
  const q = Math.floor(budget / unit);
  return q * unit > budget ? q - 1 : q;
}

function invalid(order: OrderIn, why: string): never {
  throw new RangeError(`order ${order.seq}: ${why}`);
}

/**
 * The order book of one product and its matching: price-time priority, trades at the maker's price.
 * Pure and synchronous; the caller persists, charges fees and drives GTT expiry and stops.
 */
export class OrderBook {
  readonly productId: string;
  readonly notionalPerTickLot: number;
  private readonly bids = new BookSide('BUY');
  private readonly asks = new BookSide('SELL');
  private readonly bySeq = new Map<number, RestingOrder>();
  /** The greatest seq that ever rested: callers hand out increasing seqs, so one above it needs no lookup. */
  private greatestSeq = 0;
  private readonly spareOrders: RestingOrder[] = [];
  private lastTrade: number | undefined = undefined;
  private readonly result: MatchResult = {
    outcome: 'CANCELLED',
    fills: [],
    restingLots: 0,
    filledLots: 0,
    filledNotional: 0,
    makersCancelled: [],
    makersDecreased: [],
  };
  // What walk() found; fields rather than a returned object so the FOK check allocates nothing.
  private walkLots = 0;
  private walkNotional = 0;
  private walkWorst = 0;

  constructor(productId: string, notionalPerTickLot: number) {
    if (!Number.isSafeInteger(notionalPerTickLot) || notionalPerTickLot < 1) {
      throw new RangeError(`notionalPerTickLot must be a positive integer, got ${notionalPerTickLot}`);
    }
    this.productId = productId;
    this.notionalPerTickLot = notionalPerTickLot;
  }

  get lastTradeTicks(): number | undefined {
    return this.lastTrade;
  }

  /** After a restart: the last trade price as persisted, which stop triggers compare against. */
  restoreLastTrade(ticks: number): void {
    this.lastTrade = ticks;
  }

  /**
   * Matches the order against the book, then rests or drops what is left according to its time in force.
   *
   * The returned object and its arrays belong to the book and are overwritten by the next submit: copy what you
   * keep. The Fill objects inside are fresh each time and safe to keep.
   *
   * Throws RangeError on an order the engine cannot give a meaning to (see validate); the caller checks input
   * before it gets here, so that is a programming error, never a trader's.
   */
  submit(order: OrderIn): MatchResult {
    this.validate(order);
    const r = this.result;
    r.outcome = 'CANCELLED';
    if (r.fills.length !== 0) r.fills.length = 0;
    if (r.makersCancelled.length !== 0) r.makersCancelled.length = 0;
    if (r.makersDecreased.length !== 0) r.makersDecreased.length = 0;
    r.restingLots = 0;
    r.filledLots = 0;
    r.filledNotional = 0;

    const isBuy = order.side === 'BUY';
    const opposite = isBuy ? this.asks : this.bids;
    const limit = order.limitTicks;

    // Post-only: rejected whole if it would cross at arrival, whoever owns the resting order it would meet.
    if (order.postOnly) {
      const best = opposite.best();
      if (best !== undefined && (isBuy ? best.ticks <= limit : best.ticks >= limit)) {
        r.outcome = 'POST_ONLY_WOULD_TAKE';
        return r;
      }
    }

    // Fill-or-kill: first walk the book exactly as matching would (limit, budget and self-trade rules
    // included); if not every lot would trade, nothing happens at all.
    if (order.tif === 'FOK') {
      this.walk(isBuy, limit, order.lots, order.quoteBudget, order.owner, order.stp);
      if (this.walkLots < order.lots) return r;
    }

    const unitPerTick = this.notionalPerTickLot;
    const levels = opposite.levels;
    const owner = order.owner;
    const stp = order.stp;
    let lotsLeft = order.lots === 0 ? Number.POSITIVE_INFINITY : order.lots;
    let budget = order.quoteBudget;
    let filledLots = 0;
    let filledNotional = 0;
    let stop: number = NO_LIQUIDITY;

    levelsLoop: while (levels.length !== 0) {
      const level = levels[levels.length - 1] as PriceLevel;
      const price = level.ticks;
      // Price limit: a buy takes asks up to its limit, a sell takes bids down to it; 0 = market, no limit.
      if (limit !== 0 && (isBuy ? price > limit : price < limit)) break;
      const unit = price * unitPerTick;
      let maker = level.head;
      while (maker !== null) {
        // What the taker can still take here: its lots, and with a budget at most floor(budget / unit) lots.
        // When the budget cannot pay for one lot at the best remaining price the order is spent; a sell is not
        // walked further down the book just to use up a remainder.
        let cap = lotsLeft;
        if (budget !== Number.POSITIVE_INFINITY) {
          const affordable = lotsAffordable(budget, unit);
          if (affordable < cap) cap = affordable;
          if (cap === 0) {
            stop = BUDGET_SPENT;
            break levelsLoop;
          }
        }
        const next = maker.next;

        if (maker.owner === owner) {
          // Self-trade prevention: the taker's mode decides what happens when the next maker is its own.
          if (stp === 'CANCEL_TAKER') {
            // The taker's remainder is cancelled; fills before this point stand, the maker stays.
            stop = SELF_TRADE;
            break levelsLoop;
          }
          if (stp === 'CANCEL_BOTH') {
            // The maker is removed and the taker's remainder cancelled.
            r.makersCancelled.push({ seq: maker.seq, owner: maker.owner, lots: maker.lots, reason: 'SELF_TRADE' });
            this.remove(maker);
            stop = SELF_TRADE;
            break levelsLoop;
          }
          if (stp === 'CANCEL_MAKER') {
            // The maker is removed and the taker goes on to the next maker.
            r.makersCancelled.push({ seq: maker.seq, owner: maker.owner, lots: maker.lots, reason: 'SELF_TRADE' });
            this.remove(maker);
            maker = next;
            continue;
          }
          // DECREASE_AND_CANCEL: both shrink by the smaller remaining size without trading. A maker left at zero
          // is removed; a taker left at zero is done; a taker with size left goes on (this maker is then gone).
          // A budget-bounded taker's size here is what its budget can pay at this price, and the budget shrinks
          // by the notional it gave up, as if it had traded.
          const cut = cap < maker.lots ? cap : maker.lots;
          if (cut === maker.lots) {
            r.makersCancelled.push({ seq: maker.seq, owner: maker.owner, lots: cut, reason: 'SELF_TRADE' });
            this.remove(maker);
          } else {
            maker.lots -= cut;
            level.lots -= cut;
            r.makersDecreased.push({ seq: maker.seq, owner: maker.owner, lots: cut });
          }
          lotsLeft -= cut;
          budget -= cut * unit;
          if (cut === cap) {
            stop = SELF_TRADE;
            break levelsLoop;
          }
          maker = next;
          continue;
        }

        const lots = cap < maker.lots ? cap : maker.lots;
        const notional = lots * unit;
        maker.lots -= lots;
        level.lots -= lots;
        const makerDone = maker.lots === 0;
        const fill: Fill = {
          makerSeq: maker.seq,
          makerOwner: maker.owner,
          takerSeq: order.seq,
          priceTicks: price,
          lots,
          notional,
          makerDone,
        };
        r.fills.push(fill);
        if (makerDone) this.remove(maker);
        filledLots += lots;
        filledNotional += notional;
        lotsLeft -= lots;
        budget -= notional;
        this.lastTrade = price;
        if (lotsLeft === 0) {
          stop = SIZE_DONE;
          break levelsLoop;
        }
        if (!makerDone) {
          // The budget capped this fill, so it cannot pay for another lot at this price, which is still the best.
          stop = BUDGET_SPENT;
          break levelsLoop;
        }
        maker = next;
      }
    }

    r.filledLots = filledLots;
    r.filledNotional = filledNotional;
    if (stop === SIZE_DONE) {
      r.outcome = 'FILLED';
    } else if (stop === BUDGET_SPENT) {
      // Spending its budget fills an order bounded by the budget alone; one that also has a size (a stop-market
      // buy capped by its hold) and has lots left is cut short, like an IOC.
      r.outcome = filledLots > 0 && order.lots === 0 ? 'FILLED' : 'CANCELLED';
    } else if (stop === SELF_TRADE) {
      r.outcome = 'SELF_TRADE_CANCELLED';
    } else if (order.tif === 'GTC' || order.tif === 'GTT') {
      // Out of crossing liquidity with lots left: GTC/GTT rest at their limit (validate guarantees a limit and
      // no budget for those); IOC/FOK drop the remainder.
      this.rest(order, lotsLeft);
      r.outcome = 'RESTED';
      r.restingLots = lotsLeft;
    }
    return r;
  }

  /** Removes a resting order; undefined when there is none with that seq (never rested, filled or cancelled). */
  cancel(seq: number): { lots: number; owner: number; side: Side; limitTicks: number } | undefined {
    const order = this.bySeq.get(seq);
    if (order === undefined) return undefined;
    const removed = { lots: order.lots, owner: order.owner, side: order.side, limitTicks: order.ticks };
    this.remove(order);
    return removed;
  }

  /**
   * Shrinks a resting order BY `lots`, keeping its place in the queue; shrinking it by all it has removes it.
   * False (and nothing changes) when there is no such order or `lots` is not a whole number in 1..resting.
   */
  reduce(seq: number, lots: number): boolean {
    const order = this.bySeq.get(seq);
    if (order === undefined || !Number.isInteger(lots) || lots <= 0 || lots > order.lots) return false;
    if (lots === order.lots) {
      this.remove(order);
    } else {
      order.lots -= lots;
      (order.level as PriceLevel).lots -= lots;
    }
    return true;
  }

  has(seq: number): boolean {
    return this.bySeq.has(seq);
  }

  restingLots(seq: number): number | undefined {
    return this.bySeq.get(seq)?.lots;
  }

  bestBid(): number | undefined {
    return this.bids.best()?.ticks;
  }

  bestAsk(): number | undefined {
    return this.asks.best()?.ticks;
  }

  /** Aggregated levels, best first. */
  depth(side: Side, levels: number): DepthLevel[] {
    const all = (side === 'BUY' ? this.bids : this.asks).levels;
    const out: DepthLevel[] = [];
    for (let i = all.length - 1; i >= 0 && out.length < levels; i--) {
      const level = all[i] as PriceLevel;
      out.push({ priceTicks: level.ticks, lots: level.lots, orders: level.orders });
    }
    return out;
  }

  /**
   * What a submit with these terms would trade right now, changing nothing. With `owner`, the maker orders of
   * that owner are treated as `stp` (default CANCEL_TAKER) would treat them; without it every maker counts.
   * `lots` 0 means no lot bound (then `quoteBudget` bounds it).
   */
  estimate(
    side: Side,
    limitTicks: number,
    lots: number,
    quoteBudget: number,
    owner?: number,
    stp: SelfTradePrevention = 'CANCEL_TAKER',
  ): Estimate {
    this.walk(side === 'BUY', limitTicks, lots, quoteBudget, owner, stp);
    return { lots: this.walkLots, notional: this.walkNotional, worstTicks: this.walkWorst };
  }

  /** Every resting order: bids then asks, each from the best level down, each level in time priority. */
  *orders(): IterableIterator<RestingOrderView> {
    for (const bookSide of [this.bids, this.asks]) {
      const levels = bookSide.levels;
      for (let i = levels.length - 1; i >= 0; i--) {
        for (let o = (levels[i] as PriceLevel).head; o !== null; o = o.next) {
          yield { seq: o.seq, owner: o.owner, side: o.side, limitTicks: o.ticks, lots: o.lots };
        }
      }
    }
  }

  /**
   * The engine's contract on input. lots, limitTicks and a finite quoteBudget are non-negative whole numbers;
   * lots 0 (no lot bound) needs a finite budget and IOC; FOK needs lots; a market order (limit 0) cannot rest,
   * so it is IOC or FOK and not post-only; a resting order (GTC/GTT) has no budget, because once on the book it
   * would trade without anything watching one; a seq that is resting cannot arrive again.
   */
  private validate(order: OrderIn): void {
    const { lots, limitTicks, quoteBudget, tif } = order;
    const rests = tif === 'GTC' || tif === 'GTT';
    if (!Number.isSafeInteger(lots) || lots < 0) invalid(order, 'lots must be a whole number >= 0');
    if (!Number.isSafeInteger(limitTicks) || limitTicks < 0) invalid(order, 'limitTicks must be a whole number >= 0');
    if (quoteBudget !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(quoteBudget) || quoteBudget < 0)) {
      invalid(order, 'quoteBudget must be a whole number >= 0 or POSITIVE_INFINITY');
    }
    if (lots === 0 && (tif !== 'IOC' || quoteBudget === Number.POSITIVE_INFINITY)) {
      invalid(order, 'lots 0 is only for a budget-bounded IOC order');
    }
    if (limitTicks === 0 && (rests || order.postOnly)) invalid(order, 'a market order is IOC or FOK and not post-only');
    if (rests && quoteBudget !== Number.POSITIVE_INFINITY) invalid(order, 'a resting order cannot carry a quote budget');
    if (order.seq <= this.greatestSeq && this.bySeq.has(order.seq)) invalid(order, 'seq is already resting');
  }

  /** Walks the opposite side as submit would match, without changing anything; results in walk* fields. */
  private walk(
    isBuy: boolean,
    limit: number,
    lots: number,
    quoteBudget: number,
    owner: number | undefined,
    stp: SelfTradePrevention,
  ): void {
    const levels = (isBuy ? this.asks : this.bids).levels;
    let lotsLeft = lots === 0 ? Number.POSITIVE_INFINITY : lots;
    let budget = quoteBudget;
    let taken = 0;
    let notional = 0;
    let worst = 0;
    levelsLoop: for (let i = levels.length - 1; i >= 0; i--) {
      const level = levels[i] as PriceLevel;
      const price = level.ticks;
      if (limit !== 0 && (isBuy ? price > limit : price < limit)) break;
      const unit = price * this.notionalPerTickLot;
      for (let maker = level.head; maker !== null; maker = maker.next) {
        let cap = lotsLeft;
        if (budget !== Number.POSITIVE_INFINITY) {
          const affordable = lotsAffordable(budget, unit);
          if (affordable < cap) cap = affordable;
          if (cap === 0) break levelsLoop;
        }
        if (owner !== undefined && maker.owner === owner) {
          if (stp === 'CANCEL_MAKER') continue;
          if (stp !== 'DECREASE_AND_CANCEL') break levelsLoop;
          const cut = cap < maker.lots ? cap : maker.lots;
          lotsLeft -= cut;
          budget -= cut * unit;
          if (cut === cap) break levelsLoop;
          continue;
        }
        const take = cap < maker.lots ? cap : maker.lots;
        taken += take;
        notional += take * unit;
        worst = price;
        lotsLeft -= take;
        budget -= take * unit;
        if (lotsLeft === 0 || take < maker.lots) break levelsLoop;
      }
    }
    this.walkLots = taken;
    this.walkNotional = notional;
    this.walkWorst = worst;
  }

  private rest(order: OrderIn, lots: number): void {
    const node = this.spareOrders.pop() ?? new RestingOrder();
    node.seq = order.seq;
    node.owner = order.owner;
    node.side = order.side;
    node.ticks = order.limitTicks;
    node.lots = lots;
    this.bySeq.set(order.seq, node);
    if (order.seq > this.greatestSeq) this.greatestSeq = order.seq;
    (order.side === 'BUY' ? this.bids : this.asks).append(node);
  }

  private remove(order: RestingOrder): void {
    this.bySeq.delete(order.seq);
    (order.side === 'BUY' ? this.bids : this.asks).unlink(order);
    this.spareOrders.push(order);
  }
}
