// One product's live market: its order book, its waiting stops, and the conversions between the engine's
// integers and the wire's decimal strings.
import { formatAtoms, formatUnits, isReason, toAtoms, toUnits } from '../../../src-shared/protocol/decimal';
import type { ProductRules } from '../../../src-shared/protocol/product-rules';
import { OrderBook, StopBook } from '../engine';
import { CandleSeries } from '../market-data/candles';
import type { CandleRow, TradeRow } from '../store';

/** Trades of the tape (GET /products/{id}/trades answers up to this many), also what a restart restores. */
export const RECENT_TRADES = 1000;

/** The meta key under which a book's sequence is persisted, so a restart goes on counting rather than start at 0. */
export function bookSequenceKey(productId: string): string {
  return `book_sequence:${productId}`;
}

export class Market {
  readonly book: OrderBook;
  readonly stops = new StopBook();
  /** Base atoms in one lot. */
  readonly lotAtoms: bigint;
  /** Newest last; what GET /products/{id}/trades serves without a database read. */
  readonly recentTrades: TradeRow[] = [];
  /** One-minute candles, kept as trades happen whether or not anyone watches. */
  readonly candles: CandleSeries;
  /** Set by every change of the book; the venue clears it when it publishes the turn's change. */
  bookChanged = false;
  /**
   * Number of the book's state, for clients that check for gaps (REST and WebSocket). A turn's first change
   * takes the next number at once, so a REST book or snapshot read before the turn's level2 update is published
   * already carries the number that update will have (it once showed the new book under the old number).
   */
  sequence = 0;
  /** The sequence as last handed to the store (see takeSequenceChange). */
  private persistedSequence = 0;

  constructor(readonly rules: ProductRules) {
    this.book = new OrderBook(rules.spec.id, rules.quoteAtomsPerTickLot);
    this.candles = new CandleSeries((t) => this.price(t), (l) => this.size(l));
    const [whole = '0', fraction = ''] = rules.spec.sizeIncrement.split('.');
    this.lotAtoms = BigInt(whole + fraction.padEnd(rules.base.decimals, '0'));
  }

  /** The book has changed (see sequence). */
  touchBook(): void {
    if (this.bookChanged) return;
    this.bookChanged = true;
    this.sequence += 1;
  }

  get id(): string {
    return this.rules.spec.id;
  }

  get baseAsset(): string {
    return this.rules.base.id;
  }

  get quoteAsset(): string {
    return this.rules.quote.id;
  }

  notional(ticks: number, lots: number): bigint {
    return BigInt(ticks * lots * this.rules.quoteAtomsPerTickLot);
  }

  price(ticks: number): string {
    return formatUnits(ticks, this.rules.spec.priceIncrement);
  }

  size(lots: number): string {
    return formatUnits(lots, this.rules.spec.sizeIncrement);
  }

  quote(atoms: bigint): string {
    return formatAtoms(atoms, this.rules.quote.decimals);
  }

  baseAtoms(lots: number): bigint {
    return BigInt(lots) * this.lotAtoms;
  }

  /** A stored price as ticks; a value that is not on the increment is a corrupt record and throws. */
  ticksOf(price: string): number {
    return unitsOrThrow(price, this.rules.spec.priceIncrement);
  }

  lotsOf(size: string): number {
    return unitsOrThrow(size, this.rules.spec.sizeIncrement);
  }

  quoteAtomsOf(amount: string): bigint {
    const atoms = toAtoms(amount, this.rules.quote.decimals);
    if (isReason(atoms)) throw new Error(`stored amount ${amount}: ${atoms.reason}`);
    return atoms;
  }

  /**
   * After a restart: the last trade price (stops trigger against it), the trades the tape shows (oldest first)
   * and the day's candles as persisted. A folder from before candles were stored has none: they are rebuilt
   * from the tape, and persisted with the next commit.
   */
  restore(lastTradePrice: string, trades: TradeRow[], candles: CandleRow[]): void {
    this.book.restoreLastTrade(this.ticksOf(lastTradePrice));
    if (candles.length === 0) {
      for (const trade of trades) this.remember(trade, this.ticksOf(trade.price), this.lotsOf(trade.size));
      return;
    }
    this.recentTrades.push(...trades);
    this.candles.restore(
      candles.map((c) => ({ start: c.start, open: this.ticksOf(c.open), high: this.ticksOf(c.high), low: this.ticksOf(c.low), close: this.ticksOf(c.close), volumeLots: this.lotsOf(c.volume) })),
    );
  }

  /** The sequence if it moved since the last call, for the commit that makes its changes durable. */
  takeSequenceChange(): number | undefined {
    if (this.sequence === this.persistedSequence) return undefined;
    this.persistedSequence = this.sequence;
    return this.sequence;
  }

  /** After a restart: the sequence as persisted ('' or absent for a folder from before it was). */
  restoreSequence(stored: string | undefined): void {
    if (stored === undefined || !/^\d+$/.test(stored)) return;
    this.sequence = this.persistedSequence = Number(stored);
  }

  /** The candles this market's trades changed since the last call, as rows to persist. */
  takeCandleChanges(): CandleRow[] {
    return this.candles.takeChanged().map((c) => ({ productId: this.id, start: BigInt(c.start), open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume }));
  }

  remember(trade: TradeRow, ticks: number, lots: number): void {
    this.candles.add(ticks, lots, trade.time);
    this.recentTrades.push(trade);
    if (this.recentTrades.length > RECENT_TRADES * 2) this.recentTrades.splice(0, this.recentTrades.length - RECENT_TRADES);
  }
}

function unitsOrThrow(text: string, increment: string): number {
  const value = toUnits(text, increment);
  if (isReason(value)) throw new Error(`stored price ${text}: ${value.reason}`);
  return value;
}
