/**
 * The chart's fill markers: one per fill stacked a 30-fill order's arrows above its candle, off the plot (review-2
 * s20/s35). One marker per candle and side now, with the count and size as text. lightweight-charts is replaced by a
 * recorder of the markers it is given (the library draws on a canvas, which the unit tests have none of).
 */
import { describe, expect, it, vi } from 'vitest';

const set: { time: number; position: string; text?: string }[][] = [];
vi.mock('lightweight-charts', () => ({
  CandlestickSeries: {},
  LineStyle: { Dashed: 2 },
  createChart: () => ({
    addSeries: () => ({ setData: () => undefined, removePriceLine: () => undefined, createPriceLine: () => ({}) }),
    remove: () => undefined,
  }),
  createSeriesMarkers: () => ({ setMarkers: (marks: (typeof set)[number]) => set.push(marks) }),
}));

const { createLightweightChart } = await import('../../../src-renderer/features/chart/lightweight-chart');

const MINUTE = 60_000_000_000n;
const start = 1_795_766_400_000_000_000n;
const fill = (at: bigint, side: 'BUY' | 'SELL', size: string) => ({ time: at.toString(), price: '2500000000', side, size });

describe('the chart\'s fill markers', () => {
  it('draws one marker per candle and side, with how many fills and their size', () => {
    const chart = createLightweightChart({} as HTMLElement, '10000');
    const fills = [
      // One order's 30 fills in the first minute.
      ...Array.from({ length: 30 }, (_, i) => fill(start + BigInt(i) * 1_000_000_000n, 'BUY', '0.001')),
      fill(start + 5_000_000_000n, 'SELL', '0.25'),
      fill(start + MINUTE + 1n, 'BUY', '1.5'),
    ];
    chart.draw([], [], fills, 60);
    const marks = set.at(-1) ?? [];
    expect(marks.map((m) => [m.position, m.text])).toEqual([
      ['belowBar', '30 fills, 0.03'],
      ['aboveBar', '0.25'],
      ['belowBar', '1.5'],
    ]);
    expect(marks[0]?.time).toBe(marks[1]?.time);
    expect((marks[2]?.time ?? 0) - (marks[0]?.time ?? 0)).toBe(60);
  });
});
