/**
 * One-minute candles built from trades, merged with the venue's candles so the chart moves with the tape
 * between candle updates. Prices stay decimal strings; only the drawing turns them into pixels.
 */
import type { Candle } from '../../../src-shared/protocol/ws';
import type { PublicTrade } from '../../../src-shared/protocol/records';
import { addDecimal, compareDecimal } from '../../ui/decimal-text';

export const MINUTE_NANOS = 60_000_000_000n;

/**
 * The chart's time for a UNIX nanosecond instant: seconds that, drawn as UTC (all the chart library knows),
 * read as the trader's local time, as the tape and blotters show it. One offset for a whole drawing, the one at
 * `nowMs`: each instant's own would repeat an hour when the clocks go back, and the chart needs ascending times.
 */
export function chartSeconds(nanos: string, nowMs = Date.now()): number {
  return Number(BigInt(nanos) / 1_000_000_000n) - new Date(nowMs).getTimezoneOffset() * 60;
}

export function minuteStart(nanos: string): string {
  const t = BigInt(nanos);
  return (t - (t % MINUTE_NANOS)).toString();
}

/** Candles oldest first with the trades folded in; trades may arrive in any order. */
export function mergeTrades(candles: readonly Candle[], trades: readonly PublicTrade[]): Candle[] {
  const byStart = new Map<string, Candle>(candles.map((c) => [c.start, { ...c }]));
  const ordered = [...trades].sort((a, b) => compareDecimal(a.time, b.time));
  for (const trade of ordered) {
    if (!/^\d+$/.test(trade.time)) continue;
    const start = minuteStart(trade.time);
    const alone: Candle = { start, open: trade.price, high: trade.price, low: trade.price, close: trade.price, volume: trade.size };
    const candle = byStart.get(start);
    if (candle === undefined) byStart.set(start, alone);
    else absorb(candle, alone);
  }
  return [...byStart.values()].sort((a, b) => compareDecimal(a.start, b.start));
}

/** `later` (a candle, or one trade as a candle) of the same period as `into` and after it, folded into it. */
function absorb(into: Candle, later: Candle): void {
  if (compareDecimal(later.high, into.high) > 0) into.high = later.high;
  if (compareDecimal(later.low, into.low) < 0) into.low = later.low;
  into.close = later.close;
  into.volume = addDecimal(into.volume, later.volume);
}

/** Candle lengths a trader picks from, in minutes; the venue's candles are one minute long. */
export const CHART_INTERVALS = [1, 5, 15, 60] as const;
export type ChartInterval = (typeof CHART_INTERVALS)[number];

/**
 * One-minute candles (oldest first) rolled up into candles of `minutes`, each starting on a multiple of that
 * length in the trader's time (`offsetMinutes` east of UTC), so an hour candle runs from :00 to :00 there.
 */
export function rollUp(candles: readonly Candle[], minutes: ChartInterval, offsetMinutes: number): Candle[] {
  if (minutes === 1) return [...candles];
  const size = BigInt(minutes) * MINUTE_NANOS;
  const shift = BigInt(offsetMinutes) * MINUTE_NANOS;
  const out: Candle[] = [];
  for (const c of candles) {
    const t = BigInt(c.start) + shift;
    const start = (t - (((t % size) + size) % size) - shift).toString();
    const last = out.at(-1);
    if (last === undefined || last.start !== start) out.push({ ...c, start });
    else absorb(last, c);
  }
  return out;
}

/** The candle list with `incoming` replacing candles of the same minute. */
export function upsertCandles(candles: readonly Candle[], incoming: readonly Candle[]): Candle[] {
  const byStart = new Map<string, Candle>(candles.map((c) => [c.start, c]));
  for (const c of incoming) byStart.set(c.start, c);
  return [...byStart.values()].sort((a, b) => compareDecimal(a.start, b.start));
}
