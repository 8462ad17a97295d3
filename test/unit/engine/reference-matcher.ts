/**
 * A deliberately naive matcher: one array of resting orders, a full scan and sort to find every next maker,
 * BigInt for the budget division. Slow and obviously correct, it is the oracle the fast OrderBook is compared to.
 */
import type {
  DepthLevel,
  Estimate,
  Fill,
  MatchResult,
  OrderIn,
  RestingOrderView,
  SelfTradePrevention,
  Side,
} from '../../../src-main/venue/engine';

interface Resting {
  seq: number;
  /** When it came to rest: its time priority (the seq is that too, as long as seqs only increase). */
  arrival: number;
  owner: number;
  side: Side;
  ticks: number;
  lots: number;
}

interface Taker {
  seq: number;
  owner: number | undefined;
  side: Side;
  limitTicks: number;
  lots: number;
  quoteBudget: number;
  stp: SelfTradePrevention;
}

function crosses(side: Side, limitTicks: number, makerTicks: number): boolean {
  if (limitTicks === 0) return true;
  return side === 'BUY' ? makerTicks <= limitTicks : makerTicks >= limitTicks;
}

/** Best price first (lowest ask for a buyer, highest bid for a seller), then earliest to rest. */
function bestMaker(book: Resting[], taker: Taker): Resting | undefined {
  const opposite: Side = taker.side === 'BUY' ? 'SELL' : 'BUY';
  const candidates = book.filter((o) => o.side === opposite && crosses(taker.side, taker.limitTicks, o.ticks));
  candidates.sort((a, b) => (a.ticks === b.ticks ? a.arrival - b.arrival : taker.side === 'BUY' ? a.ticks - b.ticks : b.ticks - a.ticks));
  return candidates[0];
}

function emptyResult(): MatchResult {
  return {
    outcome: 'CANCELLED',
    fills: [],
    restingLots: 0,
    filledLots: 0,
    filledNotional: 0,
    makersCancelled: [],
    makersDecreased: [],
  };
}

interface Taken {
  result: MatchResult;
  /** Lots the taker has left when matching stopped, and why it stopped. */
  lotsLeft: number;
  stoppedBy: 'size' | 'budget' | 'self-trade' | 'liquidity';
  lastPrice: number | undefined;
}

/** Matches the taker against `book`, mutating it. */
function take(book: Resting[], taker: Taker, notionalPerTickLot: number): Taken {
  const result = emptyResult();
  let lotsLeft = taker.lots === 0 ? Number.POSITIVE_INFINITY : taker.lots;
  let budget = taker.quoteBudget;
  let lastPrice: number | undefined;
  const drop = (maker: Resting): void => {
    book.splice(book.indexOf(maker), 1);
  };
  for (;;) {
    const maker = bestMaker(book, taker);
    if (maker === undefined) return { result, lotsLeft, stoppedBy: 'liquidity', lastPrice };
    const unit = maker.ticks * notionalPerTickLot;
    let cap = lotsLeft;
    if (budget !== Number.POSITIVE_INFINITY) {
      cap = Math.min(cap, Number(BigInt(budget) / BigInt(unit)));
      if (cap === 0) return { result, lotsLeft, stoppedBy: 'budget', lastPrice };
    }
    if (maker.owner === taker.owner) {
      switch (taker.stp) {
        case 'CANCEL_TAKER':
          return { result, lotsLeft, stoppedBy: 'self-trade', lastPrice };
        case 'CANCEL_BOTH':
          result.makersCancelled.push({ seq: maker.seq, owner: maker.owner, lots: maker.lots, reason: 'SELF_TRADE' });
          drop(maker);
          return { result, lotsLeft, stoppedBy: 'self-trade', lastPrice };
        case 'CANCEL_MAKER':
          result.makersCancelled.push({ seq: maker.seq, owner: maker.owner, lots: maker.lots, reason: 'SELF_TRADE' });
          drop(maker);
          continue;
        case 'DECREASE_AND_CANCEL': {
          const cut = Math.min(cap, maker.lots);
          if (cut === maker.lots) {
            result.makersCancelled.push({ seq: maker.seq, owner: maker.owner, lots: cut, reason: 'SELF_TRADE' });
            drop(maker);
          } else {
            maker.lots -= cut;
            result.makersDecreased.push({ seq: maker.seq, owner: maker.owner, lots: cut });
          }
          lotsLeft -= cut;
          budget -= cut * unit;
          if (cut === cap) return { result, lotsLeft, stoppedBy: 'self-trade', lastPrice };
          continue;
        }
      }
    }
    const lots = Math.min(cap, maker.lots);
    maker.lots -= lots;
    const fill: Fill = {
      makerSeq: maker.seq,
      makerOwner: maker.owner,
      takerSeq: taker.seq,
      priceTicks: maker.ticks,
      lots,
      notional: lots * unit,
      makerDone: maker.lots === 0,
    };
    result.fills.push(fill);
    if (maker.lots === 0) drop(maker);
    result.filledLots += lots;
    result.filledNotional += fill.notional;
    lotsLeft -= lots;
    budget -= fill.notional;
    lastPrice = maker.ticks;
    if (lotsLeft === 0) return { result, lotsLeft, stoppedBy: 'size', lastPrice };
  }
}

function copyBook(book: Resting[]): Resting[] {
  return book.map((o) => ({ ...o }));
}

export class ReferenceMatcher {
  private book: Resting[] = [];
  private arrivals = 0;
  lastTradeTicks: number | undefined;

  constructor(private readonly notionalPerTickLot: number) {}

  submit(order: OrderIn): MatchResult {
    // The engine's contract: a seq that is resting cannot arrive again (any other may, even a lower one).
    if (this.book.some((o) => o.seq === order.seq)) throw new RangeError(`order ${order.seq}: seq is already resting`);
    const taker: Taker = { ...order };
    if (order.postOnly && bestMaker(this.book, taker) !== undefined) {
      return { ...emptyResult(), outcome: 'POST_ONLY_WOULD_TAKE' };
    }
    if (order.tif === 'FOK') {
      const trial = take(copyBook(this.book), taker, this.notionalPerTickLot);
      if (trial.result.filledLots < order.lots) return emptyResult();
    }
    const { result, lotsLeft, stoppedBy, lastPrice } = take(this.book, taker, this.notionalPerTickLot);
    if (lastPrice !== undefined) this.lastTradeTicks = lastPrice;
    if (stoppedBy === 'size') result.outcome = 'FILLED';
    else if (stoppedBy === 'budget') result.outcome = result.filledLots > 0 && taker.lots === 0 ? 'FILLED' : 'CANCELLED';
    else if (stoppedBy === 'self-trade') result.outcome = 'SELF_TRADE_CANCELLED';
    else if (order.tif === 'GTC' || order.tif === 'GTT') {
      this.book.push({ seq: order.seq, arrival: ++this.arrivals, owner: order.owner, side: order.side, ticks: order.limitTicks, lots: lotsLeft });
      result.outcome = 'RESTED';
      result.restingLots = lotsLeft;
    }
    return result;
  }

  cancel(seq: number): { lots: number; owner: number; side: Side; limitTicks: number } | undefined {
    const order = this.book.find((o) => o.seq === seq);
    if (order === undefined) return undefined;
    this.book = this.book.filter((o) => o !== order);
    return { lots: order.lots, owner: order.owner, side: order.side, limitTicks: order.ticks };
  }

  reduce(seq: number, lots: number): boolean {
    const order = this.book.find((o) => o.seq === seq);
    if (order === undefined || !Number.isInteger(lots) || lots <= 0 || lots > order.lots) return false;
    order.lots -= lots;
    if (order.lots === 0) this.book = this.book.filter((o) => o !== order);
    return true;
  }

  depth(side: Side): DepthLevel[] {
    const prices = [...new Set(this.book.filter((o) => o.side === side).map((o) => o.ticks))];
    prices.sort((a, b) => (side === 'BUY' ? b - a : a - b));
    return prices.map((priceTicks) => {
      const at = this.book.filter((o) => o.side === side && o.ticks === priceTicks);
      return { priceTicks, lots: at.reduce((sum, o) => sum + o.lots, 0), orders: at.length };
    });
  }

  estimate(
    side: Side,
    limitTicks: number,
    lots: number,
    quoteBudget: number,
    owner?: number,
    stp: SelfTradePrevention = 'CANCEL_TAKER',
  ): Estimate {
    const taker: Taker = { seq: 0, owner, side, limitTicks, lots, quoteBudget, stp };
    const { result, lastPrice } = take(copyBook(this.book), taker, this.notionalPerTickLot);
    return { lots: result.filledLots, notional: result.filledNotional, worstTicks: result.filledLots > 0 ? (lastPrice ?? 0) : 0 };
  }

  /** Bids best first, then asks best first, time priority within a price. */
  orders(): RestingOrderView[] {
    const rank = (o: Resting): number => (o.side === 'BUY' ? -o.ticks : o.ticks);
    return [...this.book]
      .sort((a, b) => (a.side !== b.side ? (a.side === 'BUY' ? -1 : 1) : rank(a) !== rank(b) ? rank(a) - rank(b) : a.arrival - b.arrival))
      .map((o) => ({ seq: o.seq, owner: o.owner, side: o.side, limitTicks: o.ticks, lots: o.lots }));
  }
}
