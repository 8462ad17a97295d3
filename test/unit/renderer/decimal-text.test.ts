import { describe, expect, it } from 'vitest';
import { addDecimal, compareDecimal, formatDecimal, formatNanosStamp, multiplyDecimal } from '../../../src-renderer/ui/decimal-text';

describe('decimal text', () => {
  it('compares across scales without floating point', () => {
    expect(compareDecimal('0.1', '0.10')).toBe(0);
    expect(compareDecimal('2500000000', '2500000000.0001')).toBe(-1);
    expect(compareDecimal('12345678901234567890.5', '12345678901234567890.25')).toBe(1);
  });

  it('adds and multiplies exactly', () => {
    expect(addDecimal('0.1', '0.2')).toBe('0.3');
    expect(addDecimal('1', '-1.0001')).toBe('-0.0001');
    expect(multiplyDecimal('2500000000', '0.0001')).toBe('250000');
  });

  it('formats with grouped thousands and never rounds', () => {
    expect(formatDecimal('2500000000')).toBe('2\u202f500\u202f000\u202f000');
    expect(formatDecimal('0.12345678')).toBe('0.12345678');
    expect(formatDecimal('1234.500')).toBe('1\u202f234.5');
    expect(formatDecimal('-0.5')).toBe('-0.5');
  });
});

describe('blotter time stamps', () => {
  it('show the time alone for today and the local date before it for any other day', () => {
    const zone = process.env['TZ'];
    try {
      process.env['TZ'] = 'Asia/Ho_Chi_Minh';
      // 2027-01-15 09:30:00.250 in Ho Chi Minh (UTC+7).
      const at = String(Date.UTC(2027, 0, 15, 2, 30, 0, 250)) + '000000';
      expect(formatNanosStamp(at, Date.UTC(2027, 0, 15, 16, 0))).toBe('09:30:00.250');
      // 23:00 UTC on the 15th is already the 16th there.
      expect(formatNanosStamp(at, Date.UTC(2027, 0, 15, 23, 0))).toBe('2027-01-15 09:30:00.250');
      expect(formatNanosStamp('0')).toBe('');
    } finally {
      if (zone === undefined) delete process.env['TZ'];
      else process.env['TZ'] = zone;
    }
  });
});
