import { describe, expect, it } from 'vitest';
import { OrderBook } from '../../../src-main/venue/engine';
import type { MatchResult, OrderIn } from '../../../src-main/venue/engine';
import { limitOrder, marketOrder } from './order-builder';

/** submit, with the result copied out of the book's reusable object. */
function submit(book: OrderBook, order: OrderIn): MatchResult {
  return structuredClone(book.submit(order));
}

function fillsOf(result: MatchResult): [number, number, number][] {
  return result.fills.map((f) => [f.makerSeq, f.priceTicks, f.lots]);
}

function bookWithAsks(...asks: [ticks: number, lots: number][]): { book: OrderBook; seqs: number[] } {
  const book = new OrderBook('TEST', 1);
  const seqs = asks.map(([limitTicks, lots]) => {
    const order = limitOrder({ side: 'SELL', limitTicks, lots });
    expect(book.submit(order).outcome).toBe('RESTED');
    return order.seq;
  });
  return { book, seqs };
}

describe('resting and the book view', () => {
  it('rests a limit order that does not cross, and shows it in best prices and depth', () => {
    const book = new OrderBook('TEST', 1);
    const bid = limitOrder({ side: 'BUY', limitTicks: 99, lots: 3 });
    const r = submit(book, bid);
    expect(r).toMatchObject({ outcome: 'RESTED', restingLots: 3, filledLots: 0, fills: [] });
    submit(book, limitOrder({ side: 'SELL', limitTicks: 101, lots: 2 }));
    expect(book.bestBid()).toBe(99);
    expect(book.bestAsk()).toBe(101);
    expect(book.has(bid.seq)).toBe(true);
    expect(book.restingLots(bid.seq)).toBe(3);
  });

  it('aggregates depth per price, best first, bids descending and asks ascending', () => {
    const book = new OrderBook('TEST', 1);
    for (const [side, limitTicks, lots] of [
      ['BUY', 97, 1], ['BUY', 99, 2], ['BUY', 98, 3], ['BUY', 99, 4],
      ['SELL', 103, 5], ['SELL', 101, 6], ['SELL', 102, 7], ['SELL', 101, 8],
    ] as const) {
      book.submit(limitOrder({ side, limitTicks, lots }));
    }
    expect(book.depth('BUY', 10)).toEqual([
      { priceTicks: 99, lots: 6, orders: 2 },
      { priceTicks: 98, lots: 3, orders: 1 },
      { priceTicks: 97, lots: 1, orders: 1 },
    ]);
    expect(book.depth('SELL', 2)).toEqual([
      { priceTicks: 101, lots: 14, orders: 2 },
      { priceTicks: 102, lots: 7, orders: 1 },
    ]);
  });

  it('keeps levels in order when a level in the middle of the book empties', () => {
    const { book, seqs } = bookWithAsks([101, 1], [102, 1], [103, 1], [104, 1]);
    book.cancel(seqs[2] as number);
    book.cancel(seqs[1] as number);
    submit(book, limitOrder({ side: 'SELL', limitTicks: 102, lots: 9 }));
    expect(book.depth('SELL', 10).map((l) => [l.priceTicks, l.lots])).toEqual([[101, 1], [102, 9], [104, 1]]);
  });

  it('lists resting orders bids then asks, best level first, in time priority within a level', () => {
    const book = new OrderBook('TEST', 1);
    const a = limitOrder({ side: 'BUY', limitTicks: 98, lots: 1 });
    const b = limitOrder({ side: 'BUY', limitTicks: 99, lots: 2 });
    const c = limitOrder({ side: 'BUY', limitTicks: 99, lots: 3 });
    const d = limitOrder({ side: 'SELL', limitTicks: 105, lots: 4 });
    const e = limitOrder({ side: 'SELL', limitTicks: 104, lots: 5 });
    for (const o of [a, b, c, d, e]) book.submit(o);
    expect([...book.orders()].map((o) => o.seq)).toEqual([b.seq, c.seq, a.seq, e.seq, d.seq]);
    expect([...book.orders()][0]).toEqual({ seq: b.seq, owner: b.owner, side: 'BUY', limitTicks: 99, lots: 2 });
  });

  it('rests a GTT order like a GTC one', () => {
    const book = new OrderBook('TEST', 1);
    const gtt = limitOrder({ side: 'BUY', limitTicks: 99, lots: 2, tif: 'GTT' });
    expect(submit(book, gtt).outcome).toBe('RESTED');
    expect(book.cancel(gtt.seq)).toEqual({ lots: 2, owner: gtt.owner, side: 'BUY', limitTicks: 99 });
  });
});

describe('price-time priority', () => {
  it('takes the better price first and trades at the maker price', () => {
    const { book, seqs } = bookWithAsks([102, 1], [101, 1]);
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 105, lots: 2 }));
    expect(fillsOf(r)).toEqual([[seqs[1], 101, 1], [seqs[0], 102, 1]]);
    expect(r.filledNotional).toBe(203);
    expect(r.outcome).toBe('FILLED');
  });

  it('takes orders at one price in arrival order', () => {
    const { book, seqs } = bookWithAsks([101, 1], [101, 1], [101, 1]);
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 101, lots: 2 }));
    expect(r.fills.map((f) => f.makerSeq)).toEqual([seqs[0], seqs[1]]);
    expect([...book.orders()].map((o) => o.seq)).toEqual([seqs[2]]);
  });

  it('leaves a partly filled maker at the head of its level', () => {
    const { book, seqs } = bookWithAsks([101, 5], [101, 1]);
    const first = submit(book, limitOrder({ side: 'BUY', limitTicks: 101, lots: 2 }));
    expect(first.fills[0]).toMatchObject({ makerSeq: seqs[0], lots: 2, makerDone: false });
    const second = submit(book, limitOrder({ side: 'BUY', limitTicks: 101, lots: 4 }));
    expect(fillsOf(second)).toEqual([[seqs[0], 101, 3], [seqs[1], 101, 1]]);
    expect(second.fills.map((f) => f.makerDone)).toEqual([true, true]);
    expect(book.has(seqs[0] as number)).toBe(false);
  });

  it('stops at the limit price and rests the remainder of a GTC order there', () => {
    const { book, seqs } = bookWithAsks([101, 2], [103, 2]);
    const taker = limitOrder({ side: 'BUY', limitTicks: 102, lots: 5 });
    const r = submit(book, taker);
    expect(fillsOf(r)).toEqual([[seqs[0], 101, 2]]);
    expect(r).toMatchObject({ outcome: 'RESTED', restingLots: 3, filledLots: 2 });
    expect(book.bestBid()).toBe(102);
    expect(book.restingLots(taker.seq)).toBe(3);
  });

  it('fills a sell against bids from the highest down to its limit', () => {
    const book = new OrderBook('TEST', 1);
    const low = limitOrder({ side: 'BUY', limitTicks: 98, lots: 1 });
    const high = limitOrder({ side: 'BUY', limitTicks: 99, lots: 1 });
    book.submit(low);
    book.submit(high);
    const r = submit(book, limitOrder({ side: 'SELL', limitTicks: 98, lots: 2, tif: 'IOC' }));
    expect(fillsOf(r)).toEqual([[high.seq, 99, 1], [low.seq, 98, 1]]);
    expect(book.lastTradeTicks).toBe(98);
  });

  it('records the last trade price, undefined before any trade', () => {
    const { book } = bookWithAsks([101, 1]);
    expect(book.lastTradeTicks).toBeUndefined();
    book.submit(marketOrder({ side: 'BUY', lots: 1 }));
    expect(book.lastTradeTicks).toBe(101);
  });
});

describe('time in force', () => {
  it('cancels the remainder of an IOC order instead of resting it', () => {
    const { book } = bookWithAsks([101, 2]);
    const taker = limitOrder({ side: 'BUY', limitTicks: 101, lots: 5, tif: 'IOC' });
    const r = submit(book, taker);
    expect(r).toMatchObject({ outcome: 'CANCELLED', filledLots: 2, restingLots: 0 });
    expect(book.has(taker.seq)).toBe(false);
    expect(book.bestBid()).toBeUndefined();
  });

  it('fills an FOK order completely when the book can', () => {
    const { book } = bookWithAsks([101, 2], [102, 3]);
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 102, lots: 5, tif: 'FOK' }));
    expect(r).toMatchObject({ outcome: 'FILLED', filledLots: 5 });
  });

  it('kills an FOK order whole, trading nothing, when its limit leaves too little', () => {
    const { book } = bookWithAsks([101, 2], [102, 3]);
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 101, lots: 3, tif: 'FOK' }));
    expect(r).toMatchObject({ outcome: 'CANCELLED', filledLots: 0, fills: [] });
    expect(book.depth('SELL', 5).map((l) => l.lots)).toEqual([2, 3]);
  });

  it('kills an FOK order when its quote budget cannot pay for every lot', () => {
    const { book } = bookWithAsks([100, 5]);
    expect(submit(book, marketOrder({ side: 'BUY', lots: 3, tif: 'FOK', quoteBudget: 299 })).outcome).toBe('CANCELLED');
    expect(submit(book, marketOrder({ side: 'BUY', lots: 3, tif: 'FOK', quoteBudget: 300 })).outcome).toBe('FILLED');
  });
});

describe('market orders and quote budgets', () => {
  it('walks the book until its lots run out', () => {
    const { book } = bookWithAsks([101, 1], [150, 1], [900, 5]);
    const r = submit(book, marketOrder({ side: 'BUY', lots: 4 }));
    expect(r.fills.map((f) => [f.priceTicks, f.lots])).toEqual([[101, 1], [150, 1], [900, 2]]);
    expect(r.outcome).toBe('FILLED');
  });

  it('cancels what the book cannot fill', () => {
    const { book } = bookWithAsks([101, 1]);
    expect(submit(book, marketOrder({ side: 'BUY', lots: 3 }))).toMatchObject({ outcome: 'CANCELLED', filledLots: 1 });
    expect(submit(book, marketOrder({ side: 'SELL', lots: 3 }))).toMatchObject({ outcome: 'CANCELLED', filledLots: 0 });
  });

  it('takes at each level at most floor(remaining budget / price) lots and stops when one lot is unaffordable', () => {
    const { book } = bookWithAsks([100, 2], [110, 10]);
    // 200 spent at 100; 145 left buys one lot at 110; 35 left cannot pay for another.
    const r = submit(book, marketOrder({ side: 'BUY', quoteBudget: 345 }));
    expect(r.fills.map((f) => [f.priceTicks, f.lots, f.notional])).toEqual([[100, 2, 200], [110, 1, 110]]);
    expect(r).toMatchObject({ outcome: 'FILLED', filledLots: 3, filledNotional: 310 });
  });

  it('is bounded by lots and budget together, whichever runs out first', () => {
    const { book } = bookWithAsks([100, 10]);
    expect(submit(book, marketOrder({ side: 'BUY', lots: 2, quoteBudget: 1_000 }))).toMatchObject({ filledLots: 2, outcome: 'FILLED' });
    // Lots left when the budget ran out: cut short, not filled (a stop-market buy capped by its hold).
    expect(submit(book, marketOrder({ side: 'BUY', lots: 5, quoteBudget: 250 }))).toMatchObject({ filledLots: 2, outcome: 'CANCELLED' });
  });

  it('stops a budget-bounded sell when the best bid is worth more than what is left, instead of walking down', () => {
    const book = new OrderBook('TEST', 1);
    book.submit(limitOrder({ side: 'BUY', limitTicks: 100, lots: 5 }));
    book.submit(limitOrder({ side: 'BUY', limitTicks: 50, lots: 5 }));
    // 50 left after one lot at 100 cannot pay for a second there; it would pay for one at 50, but that is not taken.
    const r = submit(book, marketOrder({ side: 'SELL', quoteBudget: 150 }));
    expect(r.fills.map((f) => [f.priceTicks, f.lots])).toEqual([[100, 1]]);
    expect(r.outcome).toBe('FILLED');
  });

  it('cancels a budget-bounded order whose budget buys nothing at the best price', () => {
    const { book } = bookWithAsks([100, 1]);
    expect(submit(book, marketOrder({ side: 'BUY', quoteBudget: 99 }))).toMatchObject({ outcome: 'CANCELLED', filledLots: 0 });
    expect(book.restingLots([...book.orders()][0]?.seq as number)).toBe(1);
  });

  it('cancels a budget-bounded order that empties the book with budget left', () => {
    const { book } = bookWithAsks([100, 1]);
    expect(submit(book, marketOrder({ side: 'BUY', quoteBudget: 1_000 }))).toMatchObject({ outcome: 'CANCELLED', filledLots: 1 });
  });

  it('prices notional as ticks x lots x notionalPerTickLot', () => {
    const book = new OrderBook('TEST', 7);
    book.submit(limitOrder({ side: 'SELL', limitTicks: 10, lots: 5 }));
    // One lot costs 70 atoms: 150 pays for two.
    const r = submit(book, marketOrder({ side: 'BUY', quoteBudget: 150 }));
    expect(r).toMatchObject({ filledLots: 2, filledNotional: 140 });
    expect(r.fills[0]?.notional).toBe(140);
  });
});

describe('post-only', () => {
  it('rejects an order that would cross on arrival, changing nothing', () => {
    const { book } = bookWithAsks([101, 1]);
    const maker = limitOrder({ side: 'BUY', limitTicks: 101, lots: 1, postOnly: true });
    expect(submit(book, maker)).toMatchObject({ outcome: 'POST_ONLY_WOULD_TAKE', fills: [], filledLots: 0 });
    expect(book.has(maker.seq)).toBe(false);
    expect(book.depth('SELL', 1)).toEqual([{ priceTicks: 101, lots: 1, orders: 1 }]);
  });

  it('rests an order that does not cross', () => {
    const { book } = bookWithAsks([101, 1]);
    expect(submit(book, limitOrder({ side: 'BUY', limitTicks: 100, lots: 1, postOnly: true })).outcome).toBe('RESTED');
  });

  it('rejects even when the resting order it meets is its owner own', () => {
    const book = new OrderBook('TEST', 1);
    book.submit(limitOrder({ side: 'SELL', limitTicks: 101, lots: 1, owner: 7 }));
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 101, lots: 1, owner: 7, postOnly: true, stp: 'CANCEL_MAKER' }));
    expect(r.outcome).toBe('POST_ONLY_WOULD_TAKE');
    expect(book.bestAsk()).toBe(101);
  });
});

describe('self-trade prevention', () => {
  function selfBook(): { book: OrderBook; other: OrderIn; own: OrderIn; after: OrderIn } {
    const book = new OrderBook('TEST', 1);
    const other = limitOrder({ side: 'SELL', limitTicks: 100, lots: 2, owner: 1 });
    const own = limitOrder({ side: 'SELL', limitTicks: 101, lots: 3, owner: 7 });
    const after = limitOrder({ side: 'SELL', limitTicks: 102, lots: 4, owner: 2 });
    for (const o of [other, own, after]) book.submit(o);
    return { book, other, own, after };
  }

  it('CANCEL_TAKER keeps the fills before the own maker and cancels the rest of the taker, even a GTC one', () => {
    const { book, other, own } = selfBook();
    const taker = limitOrder({ side: 'BUY', limitTicks: 105, lots: 8, owner: 7, stp: 'CANCEL_TAKER' });
    const r = submit(book, taker);
    expect(fillsOf(r)).toEqual([[other.seq, 100, 2]]);
    expect(r).toMatchObject({ outcome: 'SELF_TRADE_CANCELLED', restingLots: 0, makersCancelled: [] });
    expect(book.restingLots(own.seq)).toBe(3);
    expect(book.has(taker.seq)).toBe(false);
  });

  it('CANCEL_MAKER removes the own maker and goes on matching', () => {
    const { book, other, own, after } = selfBook();
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 105, lots: 5, owner: 7, stp: 'CANCEL_MAKER' }));
    expect(fillsOf(r)).toEqual([[other.seq, 100, 2], [after.seq, 102, 3]]);
    expect(r.makersCancelled).toEqual([{ seq: own.seq, owner: 7, lots: 3, reason: 'SELF_TRADE' }]);
    expect(r.outcome).toBe('FILLED');
    expect(book.has(own.seq)).toBe(false);
  });

  it('CANCEL_BOTH removes the own maker and cancels the taker', () => {
    const { book, own, after } = selfBook();
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 105, lots: 5, owner: 7, stp: 'CANCEL_BOTH' }));
    expect(r.fills).toHaveLength(1);
    expect(r.makersCancelled).toEqual([{ seq: own.seq, owner: 7, lots: 3, reason: 'SELF_TRADE' }]);
    expect(r.outcome).toBe('SELF_TRADE_CANCELLED');
    expect(book.has(own.seq)).toBe(false);
    expect(book.restingLots(after.seq)).toBe(4);
  });

  it('DECREASE_AND_CANCEL on an FOK: a lot cut against an own maker is not a lot traded, so one that cannot trade every lot is killed, cutting nothing', () => {
    const { book, own, after } = selfBook();
    // As a GTC it would trade 2 at 100, cut 3 against the own maker and trade 1 at 102 (FILLED at a lowered size):
    // a fill-or-kill asks for every lot traded with others, which the book cannot do, so nothing happens at all.
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 105, lots: 6, owner: 7, stp: 'DECREASE_AND_CANCEL', tif: 'FOK' }));
    expect(r).toMatchObject({ outcome: 'CANCELLED', filledLots: 0, fills: [], makersCancelled: [], makersDecreased: [] });
    expect(book.restingLots(own.seq)).toBe(3);
    expect(book.restingLots(after.seq)).toBe(4);
    // Every lot trades before the own maker: it fills, and the own maker is left as it was.
    const filled = submit(book, limitOrder({ side: 'BUY', limitTicks: 105, lots: 2, owner: 7, stp: 'DECREASE_AND_CANCEL', tif: 'FOK' }));
    expect(filled).toMatchObject({ outcome: 'FILLED', filledLots: 2, makersCancelled: [], makersDecreased: [] });
    expect(book.restingLots(own.seq)).toBe(3);
  });

  it('DECREASE_AND_CANCEL with a larger taker removes the maker and lets the taker go on with the difference', () => {
    const { book, own, after } = selfBook();
    // 2 traded at 100, then 3 cut against the own maker, leaving 1 of 6 to trade at 102.
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 105, lots: 6, owner: 7, stp: 'DECREASE_AND_CANCEL' }));
    expect(r.fills.map((f) => [f.priceTicks, f.lots])).toEqual([[100, 2], [102, 1]]);
    expect(r.makersCancelled).toEqual([{ seq: own.seq, owner: 7, lots: 3, reason: 'SELF_TRADE' }]);
    expect(r.makersDecreased).toEqual([]);
    expect(r.outcome).toBe('FILLED');
    expect(book.restingLots(after.seq)).toBe(3);
  });

  it('DECREASE_AND_CANCEL with a larger maker shrinks it in place and ends the taker', () => {
    const { book, own } = selfBook();
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 105, lots: 3, owner: 7, stp: 'DECREASE_AND_CANCEL' }));
    expect(r.filledLots).toBe(2);
    expect(r.makersDecreased).toEqual([{ seq: own.seq, owner: 7, lots: 1 }]);
    expect(r.outcome).toBe('SELF_TRADE_CANCELLED');
    expect(book.restingLots(own.seq)).toBe(2);
    expect(book.depth('SELL', 1)).toEqual([{ priceTicks: 101, lots: 2, orders: 1 }]);
  });

  it('DECREASE_AND_CANCEL with equal sizes ends both', () => {
    const { book, own } = selfBook();
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 105, lots: 5, owner: 7, stp: 'DECREASE_AND_CANCEL' }));
    expect(r.makersCancelled).toEqual([{ seq: own.seq, owner: 7, lots: 3, reason: 'SELF_TRADE' }]);
    expect(r.outcome).toBe('SELF_TRADE_CANCELLED');
    expect(book.bestAsk()).toBe(102);
  });

  it('DECREASE_AND_CANCEL counts a budget-bounded taker as the lots its budget pays for at that price', () => {
    const book = new OrderBook('TEST', 1);
    const own = limitOrder({ side: 'SELL', limitTicks: 100, lots: 5, owner: 7 });
    book.submit(own);
    book.submit(limitOrder({ side: 'SELL', limitTicks: 100, lots: 5, owner: 1 }));
    // 250 pays for 2 lots at 100: the maker shrinks by 2 and the taker is spent.
    const r = submit(book, marketOrder({ side: 'BUY', quoteBudget: 250, owner: 7, stp: 'DECREASE_AND_CANCEL' }));
    expect(r.makersDecreased).toEqual([{ seq: own.seq, owner: 7, lots: 2 }]);
    expect(r).toMatchObject({ outcome: 'SELF_TRADE_CANCELLED', filledLots: 0 });
  });

  it('treats an FOK order that would self-trade under CANCEL_TAKER as not fillable', () => {
    const { book } = selfBook();
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 105, lots: 5, owner: 7, tif: 'FOK' }));
    expect(r).toMatchObject({ outcome: 'CANCELLED', fills: [], makersCancelled: [] });
    expect(book.depth('SELL', 5).map((l) => l.lots)).toEqual([2, 3, 4]);
  });

  it('fills an FOK order under CANCEL_MAKER from the other makers, removing the own one', () => {
    const { book, own } = selfBook();
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 105, lots: 6, owner: 7, tif: 'FOK', stp: 'CANCEL_MAKER' }));
    expect(r).toMatchObject({ outcome: 'FILLED', filledLots: 6 });
    expect(r.makersCancelled.map((m) => m.seq)).toEqual([own.seq]);
  });

  it('does not fire between different owners', () => {
    const { book } = selfBook();
    const r = submit(book, limitOrder({ side: 'BUY', limitTicks: 105, lots: 9, owner: 8, stp: 'CANCEL_BOTH' }));
    expect(r).toMatchObject({ outcome: 'FILLED', filledLots: 9, makersCancelled: [] });
  });
});

describe('cancel and reduce', () => {
  it('cancel removes a resting order and says what it was; a second cancel finds nothing', () => {
    const book = new OrderBook('TEST', 1);
    const o = limitOrder({ side: 'SELL', limitTicks: 101, lots: 4, owner: 5 });
    book.submit(o);
    expect(book.cancel(o.seq)).toEqual({ lots: 4, owner: 5, side: 'SELL', limitTicks: 101 });
    expect(book.cancel(o.seq)).toBeUndefined();
    expect(book.has(o.seq)).toBe(false);
    expect(book.restingLots(o.seq)).toBeUndefined();
    expect(book.bestAsk()).toBeUndefined();
  });

  it('cancel of an order that never rested finds nothing', () => {
    const { book } = bookWithAsks([101, 1]);
    const ioc = limitOrder({ side: 'BUY', limitTicks: 100, lots: 1, tif: 'IOC' });
    book.submit(ioc);
    expect(book.cancel(ioc.seq)).toBeUndefined();
    expect(book.cancel(999_999)).toBeUndefined();
  });

  it('reduce shrinks an order by the given lots and keeps its place in the queue', () => {
    const { book, seqs } = bookWithAsks([101, 5], [101, 5]);
    expect(book.reduce(seqs[0] as number, 3)).toBe(true);
    expect(book.restingLots(seqs[0] as number)).toBe(2);
    expect(book.depth('SELL', 1)).toEqual([{ priceTicks: 101, lots: 7, orders: 2 }]);
    const r = submit(book, marketOrder({ side: 'BUY', lots: 1 }));
    expect(r.fills[0]?.makerSeq).toBe(seqs[0]);
  });

  it('reduce by everything that rests removes the order', () => {
    const { book, seqs } = bookWithAsks([101, 5]);
    expect(book.reduce(seqs[0] as number, 5)).toBe(true);
    expect(book.has(seqs[0] as number)).toBe(false);
    expect(book.depth('SELL', 1)).toEqual([]);
  });

  it('reduce refuses an unknown order, more lots than rest, and non-positive or fractional lots', () => {
    const { book, seqs } = bookWithAsks([101, 5]);
    const seq = seqs[0] as number;
    for (const lots of [6, 0, -1, 1.5]) expect(book.reduce(seq, lots)).toBe(false);
    expect(book.reduce(424_242, 1)).toBe(false);
    expect(book.restingLots(seq)).toBe(5);
  });
});

describe('estimate', () => {
  it('tells what a submit would trade without changing the book', () => {
    const { book } = bookWithAsks([100, 2], [110, 10]);
    expect(book.estimate('BUY', 0, 0, 345)).toEqual({ lots: 3, notional: 310, worstTicks: 110 });
    expect(book.estimate('BUY', 105, 5, Number.POSITIVE_INFINITY)).toEqual({ lots: 2, notional: 200, worstTicks: 100 });
    expect(book.estimate('SELL', 0, 5, Number.POSITIVE_INFINITY)).toEqual({ lots: 0, notional: 0, worstTicks: 0 });
    expect(book.depth('SELL', 5).map((l) => l.lots)).toEqual([2, 10]);
    expect(submit(book, marketOrder({ side: 'BUY', quoteBudget: 345 })).filledNotional).toBe(310);
  });

  it('stops where the budget no longer pays for a lot at the best remaining price, like submit', () => {
    const book = new OrderBook('TEST', 1);
    book.submit(limitOrder({ side: 'BUY', limitTicks: 100, lots: 5 }));
    book.submit(limitOrder({ side: 'BUY', limitTicks: 50, lots: 5 }));
    expect(book.estimate('SELL', 0, 0, 150)).toEqual({ lots: 1, notional: 100, worstTicks: 100 });
    expect(submit(book, marketOrder({ side: 'SELL', quoteBudget: 150 })).filledLots).toBe(1);
  });

  it('applies self-trade prevention only when given an owner', () => {
    const book = new OrderBook('TEST', 1);
    book.submit(limitOrder({ side: 'SELL', limitTicks: 100, lots: 2, owner: 7 }));
    book.submit(limitOrder({ side: 'SELL', limitTicks: 101, lots: 2, owner: 1 }));
    expect(book.estimate('BUY', 0, 4, Number.POSITIVE_INFINITY).lots).toBe(4);
    expect(book.estimate('BUY', 0, 4, Number.POSITIVE_INFINITY, 7).lots).toBe(0);
    expect(book.estimate('BUY', 0, 4, Number.POSITIVE_INFINITY, 7, 'CANCEL_MAKER')).toEqual({ lots: 2, notional: 202, worstTicks: 101 });
    expect(book.estimate('BUY', 0, 4, Number.POSITIVE_INFINITY, 7, 'DECREASE_AND_CANCEL').lots).toBe(2);
  });
});

describe('the result object', () => {
  it('is reused by the next submit, while the fills in it stay as they were', () => {
    const { book } = bookWithAsks([101, 1], [102, 1]);
    const first = book.submit(marketOrder({ side: 'BUY', lots: 1 }));
    const fill = first.fills[0];
    const second = book.submit(marketOrder({ side: 'BUY', lots: 1 }));
    expect(second).toBe(first);
    expect(fill).toMatchObject({ priceTicks: 101, lots: 1, makerDone: true });
    expect(second.fills[0]?.priceTicks).toBe(102);
  });
});

describe('input the engine refuses', () => {
  const book = new OrderBook('TEST', 1);
  it.each<[string, Partial<OrderIn>]>([
    ['a market order that would rest', { limitTicks: 0, tif: 'GTC' }],
    ['a post-only market order', { limitTicks: 0, tif: 'IOC', postOnly: true }],
    ['lots 0 without a budget', { lots: 0, tif: 'IOC' }],
    ['lots 0 on an FOK order', { lots: 0, tif: 'FOK', quoteBudget: 100 }],
    ['a budget on a resting order', { quoteBudget: 100 }],
    ['fractional lots', { lots: 1.5 }],
    ['negative price', { limitTicks: -1 }],
    ['a fractional budget', { tif: 'IOC', quoteBudget: 10.5 }],
  ])('throws on %s', (_, fields) => {
    expect(() => book.submit(limitOrder({ side: 'BUY', limitTicks: 100, lots: 1, ...fields }))).toThrow(RangeError);
  });

  it('throws on a seq that is already resting', () => {
    const o = limitOrder({ side: 'BUY', limitTicks: 100, lots: 1 });
    book.submit(o);
    expect(() => book.submit({ ...o })).toThrow(RangeError);
  });

  it('throws on a notionalPerTickLot that is not a positive whole number', () => {
    expect(() => new OrderBook('TEST', 0)).toThrow(RangeError);
    expect(() => new OrderBook('TEST', 0.5)).toThrow(RangeError);
  });
});
