/**
 * The desk's copy of one product's order book: a level2 snapshot, then each in-sequence update applied on
 * top (or, when the venue serves no stream, the REST book replacing it on every poll). Prices and sizes stay
 * the venue's decimal strings; levels are ordered by exact decimal comparison, never through a float.
 */
import type { BookLevel, OrderBook } from '../../src-shared/protocol/records';
import type { Level2Change, Level2SnapshotEvent, Level2UpdateEvent } from '../../src-shared/protocol/ws';

export type BookSource = 'stream' | 'poll';

export interface BookView {
  readonly productId: string;
  readonly sequence: number;
  readonly time: string;
  readonly source: BookSource;
  /**
   * The levels are the last ones known, not the venue's book, and must not be shown (or clicked) as live: a gap was
   * seen in the stream and the fresh snapshot asked for has not come, or the polls of a polled book fail.
   */
  readonly inDoubt: boolean;
  /** Best (highest) first. */
  readonly bids: readonly BookLevel[];
  /** Best (lowest) first. */
  readonly asks: readonly BookLevel[];
}

/** Orders two plain non-negative decimal strings ("2500000000", "0.0001") exactly. */
export function compareDecimals(a: string, b: string): number {
  const [aWhole = '', aFraction = ''] = a.split('.');
  const [bWhole = '', bFraction = ''] = b.split('.');
  const wholeA = aWhole.replace(/^0+(?=\d)/, '');
  const wholeB = bWhole.replace(/^0+(?=\d)/, '');
  if (wholeA.length !== wholeB.length) return wholeA.length < wholeB.length ? -1 : 1;
  if (wholeA !== wholeB) return wholeA < wholeB ? -1 : 1;
  const width = Math.max(aFraction.length, bFraction.length);
  const fa = aFraction.padEnd(width, '0');
  const fb = bFraction.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

export class LocalBook {
  private readonly bids = new Map<string, BookLevel>();
  private readonly asks = new Map<string, BookLevel>();
  private sequence = 0;
  private time = '0';
  private source: BookSource = 'stream';
  private inDoubt = false;

  constructor(readonly productId: string) {}

  applySnapshot(snapshot: Level2SnapshotEvent | OrderBook, source: BookSource): void {
    this.bids.clear();
    this.asks.clear();
    for (const level of snapshot.bids) this.bids.set(canonical(level.price), level);
    for (const level of snapshot.asks) this.asks.set(canonical(level.price), level);
    this.sequence = snapshot.sequence;
    this.time = snapshot.time;
    this.source = source;
    this.inDoubt = false;
  }

  /** Held in doubt until the next snapshot or poll answered (see BookView.inDoubt). */
  markInDoubt(): void {
    this.inDoubt = true;
  }

  get isInDoubt(): boolean {
    return this.inDoubt;
  }

  /** The caller passes updates in sequence (VenueSocket does). */
  applyUpdate(update: Level2UpdateEvent): void {
    for (const change of update.changes) this.applyChange(change);
    this.sequence = update.sequence;
    this.time = update.time;
  }

  private applyChange(change: Level2Change): void {
    const side = change.side === 'bid' ? this.bids : this.asks;
    const price = canonical(change.price);
    if (compareDecimals(change.size, '0') === 0) side.delete(price);
    else side.set(price, { price: change.price, size: change.size, order_count: change.order_count });
  }

  view(depth = Number.POSITIVE_INFINITY): BookView {
    const bids = [...this.bids.values()].sort((x, y) => compareDecimals(y.price, x.price)).slice(0, depth);
    const asks = [...this.asks.values()].sort((x, y) => compareDecimals(x.price, y.price)).slice(0, depth);
    return { productId: this.productId, sequence: this.sequence, time: this.time, source: this.source, inDoubt: this.inDoubt, bids, asks };
  }
}

/** "2500000000.00" and "2500000000" are one level. */
function canonical(price: string): string {
  if (!price.includes('.')) return price;
  return price.replace(/0+$/, '').replace(/\.$/, '');
}
