/**
 * A minute without trades has no candle (docs/api.md), and the chart library draws the bars it is given side by
 * side: a quiet half hour, or an outage the venue's 60-candle snapshot does not cover, closed up as if no time had
 * passed. The chart is handed the empty intervals too. lightweight-charts is replaced by a recorder of what the
 * series is given (the library draws on a canvas, which the unit tests have none of).
 */
import { describe, expect, it, vi } from 'vitest';
import type { Candle } from '../../../src-shared/protocol/ws';

const given: unknown[][] = [];
vi.mock('lightweight-charts', () => {
  const series = { setData: (data: unknown[]) => void given.push(data), createPriceLine: () => ({}), removePriceLine: () => undefined };
  return {
    CandlestickSeries: {},
    LineStyle: { Dashed: 2 },
    createChart: () => ({ addSeries: () => series, remove: () => undefined }),
    createSeriesMarkers: () => ({ setMarkers: () => undefined }),
  };
});

const { createLightweightChart } = await import('../../../src-renderer/features/chart/lightweight-chart');
const { chartSeconds } = await import('../../../src-renderer/features/chart/candles');

const MINUTE = 60_000_000_000n;
const start = 1_764_000_000_000_000_000n - (1_764_000_000_000_000_000n % MINUTE);
const candle = (minute: number, price: string): Candle => ({ start: (start + BigInt(minute) * MINUTE).toString(), open: price, high: price, low: price, close: price, volume: '1' });

describe('the chart', () => {
  it('keeps the minutes without a candle as empty places, not closed up', () => {
    const chart = createLightweightChart({} as HTMLElement, '10000');
    chart.draw([candle(0, '100'), candle(1, '110'), candle(4, '120')], [], [], 60);
    const times = (given.at(-1) ?? []).map((bar) => (bar as { time: number }).time);
    const at = (minute: number): number => chartSeconds(candle(minute, '0').start);
    expect(times).toEqual([at(0), at(1), at(2), at(3), at(4)]);
    // The places of minutes 2 and 3 are empty: no bar drawn as if a price had been there.
    expect((given.at(-1) ?? []).filter((bar) => 'close' in (bar as object))).toHaveLength(3);
  });

  it('in longer candles, an empty interval is one empty place', () => {
    const chart = createLightweightChart({} as HTMLElement, '10000');
    chart.draw([candle(0, '100'), candle(15, '110')], [], [], 5 * 60);
    expect(given.at(-1)).toHaveLength(4);
  });
});
