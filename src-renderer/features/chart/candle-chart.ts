/** What the chart panel draws, behind a small interface so the panel does not depend on the library. */
import type { Candle } from '../../../src-shared/protocol/ws';

export interface PriceLine {
  price: string;
  side: 'BUY' | 'SELL';
}

export interface FillMark {
  /** UNIX nanoseconds. */
  time: string;
  price: string;
  side: 'BUY' | 'SELL';
  /** In the base asset. */
  size: string;
}

export interface CandleChart {
  /** `candleSeconds`: the candles' length, on which each fill's marker is placed. */
  draw(candles: readonly Candle[], orders: readonly PriceLine[], fills: readonly FillMark[], candleSeconds: number): void;
  dispose(): void;
}
