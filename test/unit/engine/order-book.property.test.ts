import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBook } from '../../../src-main/venue/engine';
import type { OrderIn, SelfTradePrevention, Side, TimeInForce } from '../../../src-main/venue/engine';
import { ReferenceMatcher } from './reference-matcher';

/** Raw random terms, turned into an order the engine accepts by toOrder. */
interface SubmitCmd {
  kind: 'submit';
  side: Side;
  market: boolean;
  limitTicks: number;
  lots: number;
  noLotBound: boolean;
  budget: number | null;
  tif: TimeInForce;
  postOnly: boolean;
  stp: SelfTradePrevention;
  owner: number;
}
interface CancelCmd {
  kind: 'cancel';
  pick: number;
}
interface ReduceCmd {
  kind: 'reduce';
  pick: number;
  lots: number;
}
interface EstimateCmd {
  kind: 'estimate';
  side: Side;
  limitTicks: number;
  lots: number;
  budget: number | null;
  owner: number | null;
  stp: SelfTradePrevention;
}
/** An order whose seq is one already handed out: refused while that seq rests, taken (at the back) otherwise. */
interface AgainCmd {
  kind: 'again';
  pick: number;
  terms: SubmitCmd;
}
type Cmd = SubmitCmd | CancelCmd | ReduceCmd | EstimateCmd | AgainCmd;

const side = fc.constantFrom<Side>('BUY', 'SELL');
const stp = fc.constantFrom<SelfTradePrevention>('CANCEL_TAKER', 'CANCEL_MAKER', 'CANCEL_BOTH', 'DECREASE_AND_CANCEL');
// A narrow price band and three owners, so orders cross and self-trade often; a few far-off prices, so a budget
// that cannot pay for a lot at the touch could still pay for one deeper in the book.
const ticks = fc.oneof({ arbitrary: fc.integer({ min: 95, max: 105 }), weight: 6 }, { arbitrary: fc.integer({ min: 40, max: 60 }), weight: 1 });
const budget = fc.option(fc.integer({ min: 0, max: 2_500 }), { nil: null });

const submitCmd: fc.Arbitrary<SubmitCmd> = fc.record({
  kind: fc.constant('submit' as const),
  side,
  market: fc.constantFrom(false, false, false, true),
  limitTicks: ticks,
  lots: fc.integer({ min: 1, max: 12 }),
  noLotBound: fc.boolean(),
  budget,
  tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'GTT', 'IOC', 'FOK'),
  postOnly: fc.boolean(),
  stp,
  owner: fc.integer({ min: 1, max: 3 }),
});
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { arbitrary: submitCmd, weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(1_000) }), weight: 2 },
  {
    arbitrary: fc.record({ kind: fc.constant('reduce' as const), pick: fc.nat(1_000), lots: fc.integer({ min: -1, max: 14 }) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('estimate' as const),
      side,
      limitTicks: fc.oneof(fc.constant(0), ticks),
      lots: fc.integer({ min: 0, max: 30 }),
      budget,
      owner: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
      stp,
    }),
    weight: 1,
  },
);
const commands = fc.array(cmd, { maxLength: 150, size: 'large' });
/** The streams above with seqs that come again: the exchange hands out increasing ones, the book checks any. */
const commandsWithSeqsAgain = fc.array(
  fc.oneof({ arbitrary: cmd, weight: 4 }, { arbitrary: fc.record({ kind: fc.constant('again' as const), pick: fc.nat(1_000), terms: submitCmd }), weight: 1 }),
  { maxLength: 150, size: 'large' },
);

function toOrder(c: SubmitCmd, seq: number): OrderIn {
  const tif: TimeInForce = c.market && (c.tif === 'GTC' || c.tif === 'GTT') ? 'IOC' : c.tif;
  const rests = tif === 'GTC' || tif === 'GTT';
  const quoteBudget = rests || c.budget === null ? Number.POSITIVE_INFINITY : c.budget;
  const lots = c.noLotBound && tif === 'IOC' && quoteBudget !== Number.POSITIVE_INFINITY ? 0 : c.lots;
  return {
    seq,
    owner: c.owner,
    side: c.side,
    limitTicks: c.market ? 0 : c.limitTicks,
    lots,
    quoteBudget,
    tif,
    postOnly: !c.market && c.postOnly,
    stp: c.stp,
  };
}

/** What one command did, as plain data to compare. */
type Output = unknown;

interface Step {
  cmd: Cmd;
  /** The order a submit sent, or the seq a cancel/reduce named. */
  order?: OrderIn;
  target?: number;
  output: Output;
}

/** Anything with the parts of the OrderBook API the commands use; both the engine and the reference fit. */
interface Matcher {
  submit(o: OrderIn): unknown;
  cancel(seq: number): unknown;
  reduce(seq: number, lots: number): boolean;
  estimate(side: Side, limitTicks: number, lots: number, quoteBudget: number, owner?: number, stp?: SelfTradePrevention): unknown;
}

/** Applies the commands in order, seqs counting up from 1, calling `after` with each step. */
function play(matcher: Matcher, cmds: Cmd[], after: (step: Step) => void): void {
  let seq = 0;
  for (const c of cmds) {
    const target = seq === 0 ? 1 : (('pick' in c ? c.pick : 0) % seq) + 1;
    switch (c.kind) {
      case 'submit': {
        seq += 1;
        const order = toOrder(c, seq);
        after({ cmd: c, order, output: structuredClone(matcher.submit(order)) });
        break;
      }
      case 'again': {
        if (seq === 0) break;
        const order = toOrder(c.terms, target);
        let output: unknown;
        try {
          output = structuredClone(matcher.submit(order));
        } catch (err) {
          if (!(err instanceof RangeError)) throw err;
          output = { refused: err.message };
        }
        after({ cmd: c, order, output });
        break;
      }
      case 'cancel':
        after({ cmd: c, target, output: matcher.cancel(target) });
        break;
      case 'reduce':
        after({ cmd: c, target, output: matcher.reduce(target, c.lots) });
        break;
      case 'estimate': {
        const limit = c.limitTicks;
        const lots = c.lots === 0 && c.budget === null ? 1 : c.lots;
        const quoteBudget = c.budget ?? Number.POSITIVE_INFINITY;
        const output =
          c.owner === null
            ? matcher.estimate(c.side, limit, lots, quoteBudget)
            : matcher.estimate(c.side, limit, lots, quoteBudget, c.owner, c.stp);
        after({ cmd: c, output });
        break;
      }
    }
  }
}

function fullDepth(book: OrderBook): unknown {
  return { bids: book.depth('BUY', Number.POSITIVE_INFINITY), asks: book.depth('SELL', Number.POSITIVE_INFINITY) };
}

describe('OrderBook properties over random command streams', () => {
  it('matches the naive reference matcher: same fills, outcomes, estimates and book after every command', () => {
    fc.assert(
      fc.property(commands, (cmds) => {
        const book = new OrderBook('TEST', 3);
        const reference = new ReferenceMatcher(3);
        const expected: Step[] = [];
        play(reference, cmds, (step) => {
          expected.push({ ...step, output: { out: step.output, depth: { bids: reference.depth('BUY'), asks: reference.depth('SELL') }, orders: reference.orders(), last: reference.lastTradeTicks } });
        });
        let i = 0;
        play(book, cmds, (step) => {
          const actual = { out: step.output, depth: fullDepth(book), orders: [...book.orders()], last: book.lastTradeTicks };
          expect(actual, `command ${i}: ${JSON.stringify(step.cmd)}`).toEqual((expected[i] as Step).output);
          i += 1;
        });
      }),
      { numRuns: 400 },
    );
  });

  it('matches the reference when seqs come again: one resting is refused, changing nothing; any other is taken', () => {
    let refused = 0;
    let lowerRested = 0;
    fc.assert(
      fc.property(commandsWithSeqsAgain, (cmds) => {
        const book = new OrderBook('TEST', 3);
        const reference = new ReferenceMatcher(3);
        const expected: unknown[] = [];
        play(reference, cmds, (step) => expected.push({ out: step.output, depth: { bids: reference.depth('BUY'), asks: reference.depth('SELL') }, orders: reference.orders() }));
        let i = 0;
        let greatest = 0;
        play(book, cmds, (step) => {
          const actual = { out: step.output, depth: fullDepth(book), orders: [...book.orders()] };
          expect(actual, `command ${i}: ${JSON.stringify(step.cmd)}`).toEqual(expected[i]);
          const out = step.output as { refused?: string; outcome?: string };
          if (step.cmd.kind === 'again' && out.refused !== undefined) refused += 1;
          if (step.cmd.kind === 'again' && out.outcome === 'RESTED' && (step.order?.seq ?? 0) < greatest) lowerRested += 1;
          for (const o of book.orders()) greatest = Math.max(greatest, o.seq);
          i += 1;
        });
      }),
      { numRuns: 300 },
    );
    // Both ways must really happen: a resting seq again, and a lower seq resting below the greatest.
    expect(refused).toBeGreaterThan(20);
    expect(lowerRested).toBeGreaterThan(20);
  });

  it('never leaves a crossed book', () => {
    fc.assert(
      fc.property(commands, (cmds) => {
        const book = new OrderBook('TEST', 1);
        play(book, cmds, () => {
          const bid = book.bestBid();
          const ask = book.bestAsk();
          if (bid !== undefined && ask !== undefined) expect(bid).toBeLessThan(ask);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps price-time priority: each next fill is at a worse price for the taker, or at the same price in seq order', () => {
    fc.assert(
      fc.property(commands, (cmds) => {
        const book = new OrderBook('TEST', 1);
        play(book, cmds, ({ order, output }) => {
          if (order === undefined) return;
          const { fills } = output as ReturnType<OrderBook['submit']>;
          for (let k = 1; k < fills.length; k++) {
            const before = fills[k - 1] as (typeof fills)[number];
            const fill = fills[k] as (typeof fills)[number];
            if (fill.priceTicks === before.priceTicks) expect(fill.makerSeq).toBeGreaterThan(before.makerSeq);
            else if (order.side === 'BUY') expect(fill.priceTicks).toBeGreaterThan(before.priceTicks);
            else expect(fill.priceTicks).toBeLessThan(before.priceTicks);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('never fills an order beyond its lots or its quote budget', () => {
    fc.assert(
      fc.property(commands, (cmds) => {
        const book = new OrderBook('TEST', 2);
        const ordered = new Map<number, OrderIn>();
        const filled = new Map<number, number>();
        const add = (seq: number, lots: number): void => {
          filled.set(seq, (filled.get(seq) ?? 0) + lots);
          const o = ordered.get(seq) as OrderIn;
          if (o.lots > 0) expect(filled.get(seq)).toBeLessThanOrEqual(o.lots);
        };
        play(book, cmds, ({ order, output }) => {
          if (order === undefined) return;
          ordered.set(order.seq, order);
          const r = output as ReturnType<OrderBook['submit']>;
          for (const f of r.fills) {
            add(f.takerSeq, f.lots);
            add(f.makerSeq, f.lots);
            expect(f.notional).toBe(f.priceTicks * f.lots * 2);
          }
          if (order.lots > 0) expect(r.filledLots + r.restingLots).toBeLessThanOrEqual(order.lots);
          expect(r.filledNotional).toBeLessThanOrEqual(order.quoteBudget);
          expect(r.filledLots).toBe(r.fills.reduce((s, f) => s + f.lots, 0));
          expect(r.filledNotional).toBe(r.fills.reduce((s, f) => s + f.notional, 0));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('never shows a removed or finished order again', () => {
    fc.assert(
      fc.property(commands, (cmds) => {
        const book = new OrderBook('TEST', 1);
        const gone = new Set<number>();
        play(book, cmds, ({ order, target, output, cmd: c }) => {
          if (order !== undefined) {
            const r = output as ReturnType<OrderBook['submit']>;
            for (const f of r.fills) {
              expect(gone.has(f.makerSeq)).toBe(false);
              expect(book.has(f.makerSeq)).toBe(!f.makerDone);
              if (f.makerDone) gone.add(f.makerSeq);
            }
            for (const m of [...r.makersCancelled, ...r.makersDecreased]) expect(gone.has(m.seq)).toBe(false);
            for (const m of r.makersCancelled) gone.add(m.seq);
            if (r.outcome !== 'RESTED') gone.add(order.seq);
            expect(book.has(order.seq)).toBe(r.outcome === 'RESTED');
          } else if (target !== undefined) {
            if (gone.has(target)) expect(output === undefined || output === false).toBe(true);
            if (c.kind === 'cancel' && output !== undefined) gone.add(target);
            if (c.kind === 'reduce' && output === true && !book.has(target)) gone.add(target);
          }
          expect([...gone].filter((seq) => book.has(seq))).toEqual([]);
          expect([...book.orders()].filter((o) => gone.has(o.seq))).toEqual([]);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('gives identical fills and depth when the same command log is replayed into a fresh book', () => {
    fc.assert(
      fc.property(commands, (cmds) => {
        const trace = (): unknown[] => {
          const book = new OrderBook('TEST', 1);
          const out: unknown[] = [];
          play(book, cmds, (step) => out.push(step.output, fullDepth(book)));
          return out;
        };
        expect(trace()).toEqual(trace());
      }),
      { numRuns: 200 },
    );
  });
});
