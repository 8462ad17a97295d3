import { describe, expect, it } from 'vitest';
import { toCsv } from '../../../src-renderer/ui/csv';
import { sortRows } from '../../../src-renderer/ui/sort';
import { chartSeconds, mergeTrades, rollUp, upsertCandles } from '../../../src-renderer/features/chart/candles';

describe('CSV export', () => {
  it('quotes fields that need it and defuses spreadsheet formulas', () => {
    const csv = toCsv(
      [
        { header: 'id', value: (r: { id: string; note: string }) => r.id },
        { header: 'note', value: (r) => r.note },
      ],
      [
        { id: 'a', note: 'plain' },
        { id: 'b', note: 'has "quotes", and commas' },
        { id: 'c', note: '=SUM(A1)' },
        { id: 'd', note: '-0.5' },
      ],
    );
    expect(csv).toBe('id,note\r\na,plain\r\nb,"has ""quotes"", and commas"\r\nc,\'=SUM(A1)\r\nd,-0.5\r\n');
  });
});

describe('blotter sorting', () => {
  it('sorts decimal columns by value, not by text, and is stable', () => {
    const rows = [{ p: '10', n: 1 }, { p: '9.5', n: 2 }, { p: '10.0', n: 3 }, { p: '100', n: 4 }];
    expect(sortRows(rows, { value: (r) => r.p, kind: 'decimal', direction: 'asc' }).map((r) => r.n)).toEqual([2, 1, 3, 4]);
    expect(sortRows(rows, { value: (r) => r.p, kind: 'decimal', direction: 'desc' }).map((r) => r.n)).toEqual([4, 1, 3, 2]);
    expect(sortRows(rows, { value: (r) => r.p, kind: 'text', direction: 'asc' }).map((r) => r.n)).toEqual([1, 3, 4, 2]);
  });

  it('sorts 100 000 rows', () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ price: String((i * 7919) % 100_003) }));
    const sorted = sortRows(rows, { value: (r) => r.price, kind: 'decimal', direction: 'asc' });
    expect(sorted[0]?.price).toBe('0');
    expect(sorted.every((r, i) => i === 0 || BigInt(sorted[i - 1]!.price) <= BigInt(r.price))).toBe(true);
  });
});

describe('candles from trades', () => {
  const minute = 60_000_000_000n;
  const t = (m: bigint, s: bigint) => (1_800_000_000n * 1_000_000_000n + m * minute + s * 1_000_000_000n).toString();
  it('builds open, high, low, close and volume per minute', () => {
    const trades = [
      { id: '2', product_id: 'BTC-VND', price: '105', size: '1', side: 'BUY', time: t(0n, 30n) },
      { id: '1', product_id: 'BTC-VND', price: '100', size: '0.5', side: 'SELL', time: t(0n, 10n) },
      { id: '3', product_id: 'BTC-VND', price: '95', size: '2', side: 'SELL', time: t(0n, 50n) },
      { id: '4', product_id: 'BTC-VND', price: '96', size: '1', side: 'BUY', time: t(1n, 5n) },
    ];
    const candles = mergeTrades([], trades);
    expect(candles).toHaveLength(2);
    expect(candles[0]).toMatchObject({ open: '100', high: '105', low: '95', close: '95', volume: '3.5' });
    expect(candles[1]).toMatchObject({ open: '96', close: '96', volume: '1' });
  });

  it('replaces a venue candle of the same minute', () => {
    const a = { start: '60', open: '1', high: '2', low: '1', close: '2', volume: '1' };
    const b = { ...a, close: '3', high: '3' };
    expect(upsertCandles([a], [b])).toEqual([b]);
  });
});

describe('chart time', () => {
  it('draws an instant at the trader’s local time, as the tape shows it, minutes staying minutes', () => {
    const zone = process.env['TZ'];
    try {
      const at = '1800000000123456789';
      process.env['TZ'] = 'Asia/Ho_Chi_Minh';
      expect(chartSeconds(at, 1_800_000_000_000)).toBe(1_800_000_000 + 7 * 3600);
      process.env['TZ'] = 'America/St_Johns';
      expect(chartSeconds(at, 1_800_000_000_000) - 1_800_000_000).toBe(-new Date(1_800_000_000_000).getTimezoneOffset() * 60);
      expect((1_800_000_000 - chartSeconds(at, 1_800_000_000_000)) % 1800).toBe(0);
      process.env['TZ'] = 'UTC';
      expect(chartSeconds(at)).toBe(1_800_000_000);
      // New York falls back at 06:00 UTC on 2026-11-01: drawn with one offset, times keep ascending across it.
      process.env['TZ'] = 'America/New_York';
      const minutes = [5 * 60 + 59, 6 * 60, 6 * 60 + 1].map((m) => String(Date.UTC(2026, 10, 1, 0, m)) + '000000');
      const drawn = minutes.map((m) => chartSeconds(m, Date.UTC(2026, 10, 1, 7)));
      expect(drawn).toEqual([...drawn].sort((a, b) => a - b));
      expect(drawn[1]).toBe(Date.UTC(2026, 10, 1, 6) / 1000 - 5 * 3600);
    } finally {
      if (zone === undefined) delete process.env['TZ'];
      else process.env['TZ'] = zone;
    }
  });
});

describe('candle lengths', () => {
  const minute = (m: number, open: string, high: string, low: string, close: string, volume: string) => ({
    start: String(BigInt(Date.UTC(2027, 0, 15, 0, 0)) * 1_000_000n + BigInt(m) * 60_000_000_000n), open, high, low, close, volume,
  });
  const candles = [minute(0, '10', '12', '9', '11', '1'), minute(4, '11', '15', '10', '14', '2'), minute(5, '14', '14', '8', '9', '0.5'), minute(31, '9', '9', '9', '9', '1')];

  it('rolls one-minute candles up: first open, highest high, lowest low, last close, summed volume', () => {
    expect(rollUp(candles, 1, 0)).toEqual(candles);
    const five = rollUp(candles, 5, 0);
    expect(five.map((c) => [c.open, c.high, c.low, c.close, c.volume])).toEqual([['10', '15', '9', '14', '3'], ['14', '14', '8', '9', '0.5'], ['9', '9', '9', '9', '1']]);
    expect(five[2]?.start).toBe(minute(30, '', '', '', '', '').start);
  });

  it('starts an hour candle on the hour of the trader’s clock, in a half-hour zone too', () => {
    // 00:00-00:31 UTC is 05:30-06:01 in India (+5:30): the 06:00 candle starts at 00:30 UTC.
    const hours = rollUp(candles, 60, 330);
    expect(hours.map((c) => c.start)).toEqual([String(BigInt(Date.UTC(2027, 0, 14, 23, 30)) * 1_000_000n), minute(30, '', '', '', '', '').start]);
    expect(hours[0]).toMatchObject({ open: '10', high: '15', low: '8', close: '9', volume: '3.5' });
  });
});
