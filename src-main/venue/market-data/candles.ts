/**
 * One-minute candles of a product, built from its trades. A day of them is kept: the candles channel shows the
 * newest CANDLES_SHOWN, and the ticker's 24-hour open, high, low and volume are summed from them. The candles a
 * commit changed go into its change set (the candles table), which is what a restart restores.
 */
import type { Candle } from '../../../src-shared/protocol/ws';

export const CANDLE_NS = 60_000_000_000n;
export const CANDLES_SHOWN = 60;
const CANDLES_KEPT = 24 * 60;

/** A candle as kept: prices in ticks, volume in lots. */
export interface CandleTicks {
  start: bigint;
  open: number;
  high: number;
  low: number;
  close: number;
  volumeLots: number;
}

export class CandleSeries {
  private readonly candles: CandleTicks[] = [];
  /** Candles changed since the last takeChanged(), to persist. */
  private readonly changed = new Set<CandleTicks>();

  constructor(
    private readonly price: (ticks: number) => string,
    private readonly size: (lots: number) => string,
  ) {}

  /** Add a trade; returns the candle it changed. */
  add(ticks: number, lots: number, time: bigint): Candle {
    const start = time - (time % CANDLE_NS);
    let current = this.candles[this.candles.length - 1];
    if (current === undefined || current.start < start) {
      current = { start, open: ticks, high: ticks, low: ticks, close: ticks, volumeLots: 0 };
      this.candles.push(current);
      if (this.candles.length > CANDLES_KEPT) this.candles.shift();
    } else if (current.start > start) {
      // A trade stamped before the newest candle (restored history out of order) changes nothing shown.
      return this.render(current);
    }
    current.high = Math.max(current.high, ticks);
    current.low = Math.min(current.low, ticks);
    current.close = ticks;
    current.volumeLots += lots;
    this.changed.add(current);
    return this.render(current);
  }

  /** The candles trades changed since the last call, rendered. */
  takeChanged(): Candle[] {
    const out = [...this.changed].map((c) => this.render(c));
    this.changed.clear();
    return out;
  }

  /** After a restart: the candles as persisted, oldest first (prices in ticks, volume in lots); kept, not copied. */
  restore(candles: CandleTicks[]): void {
    this.candles.splice(0, this.candles.length, ...candles.slice(-CANDLES_KEPT));
    this.changed.clear();
  }

  recent(): Candle[] {
    return this.candles.slice(-CANDLES_SHOWN).map((c) => this.render(c));
  }

  /** Open, high, low and volume of the candles that start at or after `since`; undefined without trades. */
  summary(since: bigint): { open: string; high: string; low: string; volume: string } | undefined {
    const day = this.candles.filter((c) => c.start >= since);
    const first = day[0];
    if (first === undefined) return undefined;
    let high = first.high;
    let low = first.low;
    let volume = 0;
    for (const c of day) {
      high = Math.max(high, c.high);
      low = Math.min(low, c.low);
      volume += c.volumeLots;
    }
    return { open: this.price(first.open), high: this.price(high), low: this.price(low), volume: this.size(volume) };
  }

  private render(c: CandleTicks): Candle {
    return {
      start: c.start.toString(),
      open: this.price(c.open),
      high: this.price(c.high),
      low: this.price(c.low),
      close: this.price(c.close),
      volume: this.size(c.volumeLots),
    };
  }
}
