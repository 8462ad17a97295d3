/**
 * The chart on lightweight-charts: candles, the trader's open orders as price lines and fills as markers.
 * Prices become floats only here, to be drawn; nothing computed from them goes back anywhere.
 */
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  LineStyle,
  type IPriceLine,
  type SeriesMarker,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { CandleChart } from './candle-chart';
import { chartSeconds } from './candles';

const COLORS = { up: '#2ebd85', down: '#f6465d', grid: '#2a2f3a', text: '#8b93a7', background: '#171a21' } as const;

/** `priceIncrement` as the product lists it ("10000", "0.01"): prices show as many decimals as it has. */
export function createLightweightChart(container: HTMLElement, priceIncrement: string): CandleChart {
  const decimals = priceIncrement.split('.')[1]?.length ?? 0;
  const chart = createChart(container, {
    autoSize: true,
    layout: { background: { color: COLORS.background }, textColor: COLORS.text, attributionLogo: false },
    grid: { vertLines: { color: COLORS.grid }, horzLines: { color: COLORS.grid } },
    timeScale: { timeVisible: true, secondsVisible: false },
  });
  const series = chart.addSeries(CandlestickSeries, {
    upColor: COLORS.up,
    downColor: COLORS.down,
    wickUpColor: COLORS.up,
    wickDownColor: COLORS.down,
    borderVisible: false,
    priceFormat: { type: 'price', precision: decimals, minMove: Number(priceIncrement) },
  });
  const markers = createSeriesMarkers(series, []);
  let lines: IPriceLine[] = [];

  return {
    draw(candles, orders, fills, candleSeconds) {
      const now = Date.now();
      const seconds = (nanos: string): UTCTimestamp => chartSeconds(nanos, now) as UTCTimestamp;
      series.setData(
        candles.map((c) => ({ time: seconds(c.start), open: Number(c.open), high: Number(c.high), low: Number(c.low), close: Number(c.close) })),
      );
      for (const line of lines) series.removePriceLine(line);
      lines = orders.map((o) =>
        series.createPriceLine({
          price: Number(o.price),
          color: o.side === 'BUY' ? COLORS.up : COLORS.down,
          lineWidth: 1,
          lineStyle: LineStyle.Dashed,
          axisLabelVisible: true,
          title: o.side === 'BUY' ? 'Buy' : 'Sell',
        }),
      );
      // A marker sits on its fill's candle: the one it happened in.
      const marks: SeriesMarker<UTCTimestamp>[] = fills
        .map((f) => ({ at: seconds(f.time), side: f.side }))
        .map(({ at, side }) => ({
          time: (at - (at % candleSeconds)) as UTCTimestamp,
          position: side === 'BUY' ? ('belowBar' as const) : ('aboveBar' as const),
          color: side === 'BUY' ? COLORS.up : COLORS.down,
          shape: side === 'BUY' ? ('arrowUp' as const) : ('arrowDown' as const),
        }))
        .sort((a, b) => a.time - b.time);
      markers.setMarkers(marks);
    },
    dispose() {
      chart.remove();
    },
  };
}
