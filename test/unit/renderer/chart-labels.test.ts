/**
 * The chart writes its prices (axis labels, the last price, the trader's order lines) as the ladder and the tape do:
 * grouped, at the product's increment. It drew "2504500000" beside the ladder's "2 504 500 000", its top axis label
 * half off the chart and the newest candle's time cut at the price axis ("16:0"). lightweight-charts is replaced by a
 * recorder of the options it is given (the library draws on a canvas, which the unit tests have none of).
 */
import { describe, expect, it, vi } from 'vitest';

type Formatter = (price: number) => string;
const charts: Record<string, any>[] = [];
const series: { priceFormat?: { type: string; formatter?: Formatter } }[] = [];
vi.mock('lightweight-charts', () => ({
  CandlestickSeries: {},
  LineStyle: { Dashed: 2 },
  createChart: (_host: unknown, options: Record<string, any>) => {
    charts.push(options);
    return {
      addSeries: (_kind: unknown, options: (typeof series)[number]) => (series.push(options), { setData: () => undefined }),
      remove: () => undefined,
    };
  },
  createSeriesMarkers: () => ({ setMarkers: () => undefined }),
}));

const { chartPriceText, createLightweightChart } = await import('../../../src-renderer/features/chart/lightweight-chart');
const { formatToIncrement } = await import('../../../src-renderer/features/ladder/increments');

describe('the chart\'s labels', () => {
  it('write prices grouped at the product\'s increment, as the ladder does', () => {
    createLightweightChart({} as HTMLElement, '10000');
    const format = series.at(-1)?.priceFormat?.formatter;
    expect(series.at(-1)?.priceFormat?.type).toBe('custom');
    // Its groups parted by a space a 12 px canvas font draws wide enough to see (the windows' narrow one is 1.7 px there).
    expect(format?.(2504500000)).toBe('2\u00a0504\u00a0500\u00a0000');
    expect(format?.(2504500000)).toBe(formatToIncrement('2504500000', '10000').replaceAll('\u202f', '\u00a0'));
    createLightweightChart({} as HTMLElement, '0.01');
    expect(series.at(-1)?.priceFormat?.formatter?.(1234.5)).toBe('1\u00a0234.50');
    // An axis tick computed in floating point reads at the increment, not as 0.30000000000000004.
    expect(chartPriceText(0.1 + 0.2, '0.01')).toBe('0.30');
  });

  it('show the top axis label whole or not at all, and leave room for the newest candle\'s time', () => {
    createLightweightChart({} as HTMLElement, '10000');
    const options = charts.at(-1);
    expect(options?.rightPriceScale?.entireTextOnly).toBe(true);
    expect(options?.timeScale?.rightOffsetPixels).toBeGreaterThan(0);
  });
});
