import { describe, expect, it } from 'vitest';
import { addDecimal, compareDecimal, formatDecimal, multiplyDecimal } from '../../../src-renderer/ui/decimal-text';

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
