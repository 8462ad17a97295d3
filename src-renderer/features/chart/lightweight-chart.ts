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
import type { CandleChart, FillMark } from './candle-chart';
import { chartSeconds } from './candles';
import { formatToIncrement, incrementDecimals } from '../ladder/increments';
import { addDecimal, formatDecimal } from '../../ui/decimal-text';

/**
 * One marker per candle and side, saying how many fills and their size: one arrow per fill stacked 30 arrows of a
 * single order's fills above its candle, off the plot. A marker sits on its fills' candle: the one they happened in.
 * `seconds`: a fill's time as the chart's seconds. Sorted by time, as the library takes them.
 */
export function fillMarkers(fills: readonly FillMark[], candleSeconds: number, seconds: (nanos: string) => number): { time: number; side: 'BUY' | 'SELL'; text: string }[] {
  const byPlace = new Map<string, { time: number; side: 'BUY' | 'SELL'; count: number; size: string }>();
  for (const f of fills) {
    const at = seconds(f.time);
    const time = at - (at % candleSeconds);
    const key = `${time} ${f.side}`;
    const held = byPlace.get(key);
    if (held === undefined) byPlace.set(key, { time, side: f.side, count: 1, size: f.size });
    else byPlace.set(key, { ...held, count: held.count + 1, size: addDecimal(held.size, f.size) });
  }
  return [...byPlace.values()]
    .sort((a, b) => a.time - b.time || (a.side < b.side ? -1 : 1))
    .map(({ time, side, count, size }) => ({ time, side, text: count === 1 ? formatDecimal(size) : `${count} fills, ${formatDecimal(size)}` }));
}

/** Empty places drawn for one gap at most: a day of minutes, so a chart whose last candle is weeks old stays small. */
const MOST_EMPTY_PLACES = 1440;

/**
 * The bars with an empty place (whitespace, in the library's words) for each interval without a candle: a minute
 * without trades has none (docs/api.md), and the library draws the bars it is given side by side, so a quiet half
 * hour, or an outage the venue's snapshot does not cover, closed up as if no time had passed between two candles.
 */
function withEmptyPlaces<Bar extends { time: UTCTimestamp }>(bars: readonly Bar[], candleSeconds: number): (Bar | { time: UTCTimestamp })[] {
  const out: (Bar | { time: UTCTimestamp })[] = [];
  let last: number | undefined;
  for (const bar of bars) {
    if (last !== undefined) {
      const missing = Math.min(Math.floor((bar.time - last) / candleSeconds) - 1, MOST_EMPTY_PLACES);
      for (let i = 1; i <= missing; i++) out.push({ time: (last + i * candleSeconds) as UTCTimestamp });
    }
    out.push(bar);
    last = bar.time;
  }
  return out;
}

const COLORS = { up: '#2ebd85', down: '#f6465d', grid: '#2a2f3a', text: '#8b93a7', background: '#171a21' } as const;

/**
 * A price the chart draws (an axis label, the last price, an order's line) as the ladder and the tape write it:
 * grouped, at the product's increment. "2504500000" beside the ladder's "2 504 500 000" read as another figure.
 * Its groups are parted by a no-break space as wide as a word space: the narrow one the windows' text uses is
 * 1.7 px in the chart's 12 px canvas font, which left "2 504 500 000" reading as "2504500000" all the same.
 */
export function chartPriceText(price: number, priceIncrement: string): string {
  return formatToIncrement(price.toFixed(incrementDecimals(priceIncrement)), priceIncrement).replaceAll('\u202f', '\u00a0');
}

/** `priceIncrement` as the product lists it ("10000", "0.01"): prices show as many decimals as it has. */
export function createLightweightChart(container: HTMLElement, priceIncrement: string): CandleChart {
  const chart = createChart(container, {
    autoSize: true,
    layout: { background: { color: COLORS.background }, textColor: COLORS.text, attributionLogo: false },
    grid: { vertLines: { color: COLORS.grid }, horzLines: { color: COLORS.grid } },
    // A label at the top edge was drawn half off the chart, under the panel's interval select: shown whole or not at all.
    rightPriceScale: { entireTextOnly: true },
    // The newest candle drawn against the price axis had its time label cut in half ("16:0"): room for all of it.
    timeScale: { timeVisible: true, secondsVisible: false, rightOffsetPixels: 32 },
  });
  const series = chart.addSeries(CandlestickSeries, {
    upColor: COLORS.up,
    downColor: COLORS.down,
    wickUpColor: COLORS.up,
    wickDownColor: COLORS.down,
    borderVisible: false,
    priceFormat: { type: 'custom', formatter: (price: number) => chartPriceText(price, priceIncrement), minMove: Number(priceIncrement) },
  });
  const markers = createSeriesMarkers(series, []);
  let lines: IPriceLine[] = [];

  return {
    draw(candles, orders, fills, candleSeconds) {
      const now = Date.now();
      const seconds = (nanos: string): UTCTimestamp => chartSeconds(nanos, now) as UTCTimestamp;
      series.setData(withEmptyPlaces(candles.map((c) => ({ time: seconds(c.start), open: Number(c.open), high: Number(c.high), low: Number(c.low), close: Number(c.close) })), candleSeconds));
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
      const marks: SeriesMarker<UTCTimestamp>[] = fillMarkers(fills, candleSeconds, seconds).map((m) => ({
        time: m.time as UTCTimestamp,
        position: m.side === 'BUY' ? ('belowBar' as const) : ('aboveBar' as const),
        color: m.side === 'BUY' ? COLORS.up : COLORS.down,
        shape: m.side === 'BUY' ? ('arrowUp' as const) : ('arrowDown' as const),
        text: m.text,
      }));
      markers.setMarkers(marks);
    },
    dispose() {
      chart.remove();
    },
  };
}
