/**
 * Matching engine benchmark: one seeded stream of operations replayed through our OrderBook and through the npm
 * package nodejs-order-book, with the same order of work for both (warm-up, a throughput pass, a latency pass).
 *
 *   npx tsx bench/engine.ts [--ops N] [--seed S]
 */
import { pathToFileURL } from 'node:url';
import { SeededRandom } from '../src-shared/seeded-random';
import { OrderBook as ReferenceBook, Side as ReferenceSide } from 'nodejs-order-book';
import type { TimeInForce as ReferenceTif } from 'nodejs-order-book/dist/types/types';
import { OrderBook } from '../src-main/venue/engine';
import type { OrderIn } from '../src-main/venue/engine';
import { percentile } from './stats';

export interface EngineBenchRow {
  name: string;
  opsPerSec: number;
  p50us: number;
  p99us: number;
}

export interface EngineBenchResult {
  rows: EngineBenchRow[];
  sameFinalBook: boolean;
  /** Our ops/sec over nodejs-order-book's. */
  ratio: number;
  /** How many operations of each kind the stream holds. */
  mix: Record<string, number>;
}


const REST = 0;
const CANCEL = 1;
const IOC = 2;
const MARKET = 3;
const FOK = 4;
const KIND_NAMES = ['resting limit', 'cancel', 'IOC limit', 'market', 'FOK limit'];

interface Stream {
  kinds: Uint8Array;
  /** Our input per operation (cancels: undefined). */
  ours: (OrderIn | undefined)[];
  /** Seq to cancel per operation (others: 0). */
  cancelSeq: Float64Array;
  /** nodejs-order-book's input per operation, built up front so neither engine pays for building input. */
  theirs: (Parameters<ReferenceBook['limit']>[0] | Parameters<ReferenceBook['market']>[0] | string)[];
}

/** The resting book size the stream hovers around: a cancel drawn while the book is smaller rests an order instead. */
const TARGET_LIVE = 5_000;
const START_TICKS = 100_000;

/**
 * Builds the stream, running it through one of our books as it goes so cancels name orders that are live at
 * that point and prices sit near the touch. Every order has its own owner, so self-trade prevention (which
 * nodejs-order-book only applies with account ids) never fires and both engines must end with the same book.
 */
function buildStream(operations: number, seed: number): Stream {
  const rng = new SeededRandom(seed);
  const book = new OrderBook('BENCH', 1);
  const kinds = new Uint8Array(operations);
  const ours: (OrderIn | undefined)[] = new Array<OrderIn | undefined>(operations);
  const cancelSeq = new Float64Array(operations);
  const theirs: Stream['theirs'] = new Array<Stream['theirs'][number]>(operations);
  const live: number[] = [];
  const liveAt = new Map<number, number>();
  const dropLive = (seq: number): void => {
    const at = liveAt.get(seq);
    if (at === undefined) return;
    const moved = live.pop() as number;
    if (moved !== seq) {
      live[at] = moved;
      liveAt.set(moved, at);
    }
    liveAt.delete(seq);
  };
  let seq = 0;
  for (let i = 0; i < operations; i++) {
    const draw = rng.next();
    let kind = draw < 0.42 ? REST : draw < 0.84 ? CANCEL : draw < 0.94 ? IOC : draw < 0.99 ? MARKET : FOK;
    if (kind === CANCEL && live.length < TARGET_LIVE) kind = REST;
    kinds[i] = kind;
    if (kind === CANCEL) {
      const target = live[Math.floor(rng.next() * live.length)] as number;
      cancelSeq[i] = target;
      theirs[i] = String(target);
      book.cancel(target);
      dropLive(target);
      continue;
    }
    const isBuy = rng.next() < 0.5;
    const bid = book.bestBid() ?? book.bestAsk() ?? START_TICKS;
    const ask = book.bestAsk() ?? bid + 1;
    let limitTicks: number;
    let lots: number;
    if (kind === REST) {
      // Dense near the touch, thinning out over ~200 ticks, never crossing.
      const away = Math.floor(rng.next() ** 3 * 200);
      limitTicks = isBuy ? ask - 1 - away : bid + 1 + away;
      lots = 10 + Math.floor(rng.next() * 51);
    } else if (kind === MARKET) {
      limitTicks = 0;
      lots = 1 + Math.floor(rng.next() * 10);
    } else {
      const through = Math.floor(rng.next() * 5);
      limitTicks = isBuy ? ask + through : Math.max(1, bid - through);
      lots = 1 + Math.floor(rng.next() * (kind === FOK ? 40 : 10));
    }
    seq += 1;
    const order: OrderIn = {
      seq,
      owner: seq,
      side: isBuy ? 'BUY' : 'SELL',
      limitTicks,
      lots,
      quoteBudget: Number.POSITIVE_INFINITY,
      tif: kind === REST ? 'GTC' : kind === FOK ? 'FOK' : 'IOC',
      postOnly: false,
      stp: 'CANCEL_TAKER',
    };
    ours[i] = order;
    const side = isBuy ? ReferenceSide.BUY : ReferenceSide.SELL;
    theirs[i] =
      kind === MARKET
        ? { side, size: lots }
        : {
            id: String(seq),
            side,
            size: lots,
            price: limitTicks,
            timeInForce: (kind === REST ? 'GTC' : kind === FOK ? 'FOK' : 'IOC') as ReferenceTif,
          };
    const result = book.submit(order);
    for (const fill of result.fills) if (fill.makerDone) dropLive(fill.makerSeq);
    if (result.outcome === 'RESTED') {
      liveAt.set(seq, live.length);
      live.push(seq);
    }
  }
  return { kinds, ours, cancelSeq, theirs };
}

/** Applies operations [from, to) to our book; with `latency`, times each one into it (nanoseconds). */
function replayOurs(book: OrderBook, s: Stream, from: number, to: number, latency?: Float64Array): void {
  const { kinds, ours, cancelSeq } = s;
  for (let i = from; i < to; i++) {
    const t0 = latency === undefined ? 0n : process.hrtime.bigint();
    if (kinds[i] === CANCEL) book.cancel(cancelSeq[i] as number);
    else book.submit(ours[i] as OrderIn);
    if (latency !== undefined) latency[i - from] = Number(process.hrtime.bigint() - t0);
  }
}

/** The same loop for nodejs-order-book, so both pay the same loop and timing overhead. */
function replayTheirs(book: ReferenceBook, s: Stream, from: number, to: number, latency?: Float64Array): void {
  const { kinds, theirs } = s;
  for (let i = from; i < to; i++) {
    const t0 = latency === undefined ? 0n : process.hrtime.bigint();
    const kind = kinds[i];
    if (kind === CANCEL) book.cancel(theirs[i] as string);
    else if (kind === MARKET) book.market(theirs[i] as Parameters<ReferenceBook['market']>[0]);
    else book.limit(theirs[i] as Parameters<ReferenceBook['limit']>[0]);
    if (latency !== undefined) latency[i - from] = Number(process.hrtime.bigint() - t0);
  }
}

type DepthPair = [number, number][];

function ourDepth(book: OrderBook): { bids: DepthPair; asks: DepthPair } {
  const side = (s: 'BUY' | 'SELL'): DepthPair =>
    book.depth(s, Number.POSITIVE_INFINITY).map((l): [number, number] => [l.priceTicks, l.lots]);
  return { bids: side('BUY'), asks: side('SELL') };
}

function theirDepth(book: ReferenceBook): { bids: DepthPair; asks: DepthPair } {
  const [asks, bids] = book.depth();
  return { bids, asks };
}

interface Measured {
  opsPerSec: number;
  p50us: number;
  p99us: number;
  depth: { bids: DepthPair; asks: DepthPair };
}

/** Warm-up on a throwaway book, then a clean throughput pass, then a pass timing every operation. */
function measure<B>(
  fresh: () => B,
  replay: (book: B, s: Stream, from: number, to: number, latency?: Float64Array) => void,
  depth: (book: B) => { bids: DepthPair; asks: DepthPair },
  s: Stream,
): Measured {
  const n = s.kinds.length;
  replay(fresh(), s, 0, Math.min(n, 200_000));

  const throughputBook = fresh();
  const t0 = process.hrtime.bigint();
  replay(throughputBook, s, 0, n);
  const elapsedNs = Number(process.hrtime.bigint() - t0);

  const latency = new Float64Array(n);
  const latencyBook = fresh();
  replay(latencyBook, s, 0, n, latency);
  latency.sort();

  const finalDepth = depth(throughputBook);
  if (JSON.stringify(depth(latencyBook)) !== JSON.stringify(finalDepth)) {
    throw new Error('the same stream left two different books in one engine');
  }
  return {
    opsPerSec: (n * 1e9) / elapsedNs,
    p50us: percentile(latency, 50) / 1000,
    p99us: percentile(latency, 99) / 1000,
    depth: finalDepth,
  };
}

export async function benchEngine(opts: { operations: number; seed: number }): Promise<EngineBenchResult> {
  const stream = buildStream(opts.operations, opts.seed);
  const mix: Record<string, number> = {};
  for (const kind of stream.kinds) {
    const name = KIND_NAMES[kind] as string;
    mix[name] = (mix[name] ?? 0) + 1;
  }
  // Theirs first, so ours does not run on a heap that is still quiet; each engine does the same work in the same order.
  const theirs = measure(() => new ReferenceBook(), replayTheirs, theirDepth, stream);
  await new Promise((resolve) => setImmediate(resolve));
  const ours = measure(() => new OrderBook('BENCH', 1), replayOurs, ourDepth, stream);
  const round = (x: number, digits: number): number => Number(x.toFixed(digits));
  return {
    rows: [
      { name: 'nova OrderBook', opsPerSec: Math.round(ours.opsPerSec), p50us: round(ours.p50us, 3), p99us: round(ours.p99us, 3) },
      { name: 'nodejs-order-book', opsPerSec: Math.round(theirs.opsPerSec), p50us: round(theirs.p50us, 3), p99us: round(theirs.p99us, 3) },
    ],
    sameFinalBook: JSON.stringify(ours.depth) === JSON.stringify(theirs.depth),
    ratio: round(ours.opsPerSec / theirs.opsPerSec, 2),
    mix,
  };
}

function flag(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} needs a positive whole number`);
  return value;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const operations = flag(args, '--ops', 1_000_000);
  const seed = flag(args, '--seed', 42);
  const result = await benchEngine({ operations, seed });
  console.log(`engine benchmark: ${operations} operations, seed ${seed}`);
  console.log(`stream: ${Object.entries(result.mix).map(([k, v]) => `${k} ${((100 * v) / operations).toFixed(1)}%`).join(', ')}`);
  console.table(result.rows);
  console.log(`ratio (ours / nodejs-order-book): ${result.ratio}x; same final book: ${result.sameFinalBook}`);
  if (!result.sameFinalBook) process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}

