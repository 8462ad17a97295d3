import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatAtoms,
  formatRate,
  formatUnits,
  isReason,
  parseRate,
  toAtoms,
  toInt64,
  toUnits,
  type Reason,
} from '../../../src-shared/protocol/decimal';

function reasonOf(value: unknown): string {
  expect(isReason(value), `expected a refusal, got ${String(value)}`).toBe(true);
  return (value as Reason).reason;
}

describe('toUnits', () => {
  it('counts increments exactly', () => {
    expect(toUnits('0.0015', '0.0001')).toBe(15);
    expect(toUnits('2500000000', '10000')).toBe(250000);
    expect(toUnits('0', '0.0001')).toBe(0);
    expect(toUnits('1000', '0.001')).toBe(1_000_000);
  });

  it('accepts zeros beyond the increment precision, as fixed-decimal clients print them', () => {
    expect(toUnits('2500000000.00000000', '10000')).toBe(250000);
    expect(toUnits('0.00150000', '0.0001')).toBe(15);
  });

  it('refuses a value that is not an exact multiple, never rounding', () => {
    expect(reasonOf(toUnits('0.00015', '0.0001'))).toBe('not a multiple of 0.0001');
    expect(reasonOf(toUnits('2500005000', '10000'))).toBe('not a multiple of 10000');
    expect(reasonOf(toUnits('0.00011', '0.0001'))).toBe('not a multiple of 0.0001');
  });

  it('refuses a sign, even on zero', () => {
    expect(reasonOf(toUnits('-1', '1'))).toBe('must not be negative (a decimal is written without a sign)');
    expect(reasonOf(toUnits('-0', '1'))).toBe('must not have a sign');
    expect(reasonOf(toUnits('+1', '1'))).toBe('must not have a sign');
  });

  it('refuses exponents, NaN and Infinity', () => {
    expect(reasonOf(toUnits('1e400', '1'))).toBe('must not use an exponent');
    expect(reasonOf(toUnits('1E3', '1'))).toBe('must not use an exponent');
    expect(reasonOf(toUnits('NaN', '1'))).toBe('must be a finite decimal');
    expect(reasonOf(toUnits('Infinity', '1'))).toBe('must be a finite decimal');
  });

  it('refuses whitespace anywhere', () => {
    for (const text of ['  1', '1 ', '1\n', '\t1', '1 000']) expect(reasonOf(toUnits(text, '1'))).toBe('must not contain whitespace');
  });

  it('refuses leading zeros, bare points and empty text', () => {
    expect(reasonOf(toUnits('01', '1'))).toBe('must not have leading zeros');
    expect(reasonOf(toUnits('.5', '0.1'))).toBe('must have digits on both sides of the decimal point');
    expect(reasonOf(toUnits('5.', '0.1'))).toBe('must have digits on both sides of the decimal point');
    expect(reasonOf(toUnits('', '1'))).toBe('must not be empty');
    expect(reasonOf(toUnits('1,5', '0.1'))).toBe('must be a plain decimal such as 12.5');
    expect(reasonOf(toUnits('0x10', '1'))).toBe('must be a plain decimal such as 12.5');
    expect(reasonOf(toUnits('1\u0000', '1'))).toBe('must be a plain decimal such as 12.5');
    expect(reasonOf(toUnits('١٢', '1'))).toBe('must be a plain decimal such as 12.5');
  });

  it('refuses 40-digit values as out of range and huge texts without scanning them', () => {
    const forty = toUnits('1'.repeat(40), '1');
    expect(reasonOf(forty)).toBe('must have at most 30 integer digits');
    expect((forty as Reason).outOfRange).toBe(true);
    expect((toUnits('9'.repeat(100_000), '1') as Reason).outOfRange).toBe(true);
    expect(reasonOf(toUnits('x'.repeat(100_000), '1'))).toBe('must be at most 61 characters');
    expect(reasonOf(toUnits(`0.${'1'.repeat(31)}`, '0.1'))).toBe('must have at most 30 decimal places');
  });

  it('refuses a count of increments that is not a safe integer', () => {
    const big = toUnits('9007199254740992', '1');
    expect(reasonOf(big)).toBe('is too large');
    expect((big as Reason).outOfRange).toBe(true);
    expect(toUnits('9007199254740991', '1')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('takes the exact path for values longer than a double holds', () => {
    expect(toUnits('123456789012.3456', '0.0001')).toBe(1234567890123456);
    expect(reasonOf(toUnits('123456789012.3457', '0.0002'))).toBe('not a multiple of 0.0002');
  });

  it('throws on a malformed increment, a programming error', () => {
    expect(() => toUnits('1', '0')).toThrow();
    expect(() => toUnits('1', '-1')).toThrow();
  });
});

describe('toAtoms', () => {
  it('scales by the asset decimals', () => {
    expect(toAtoms('1.5', 8)).toBe(150_000_000n);
    expect(toAtoms('10000000000', 0)).toBe(10_000_000_000n);
    expect(toAtoms('0.00000001', 8)).toBe(1n);
    expect(toAtoms('1.50', 0)).toEqual({ reason: 'must have at most 0 decimal places' });
  });

  it('keeps 30-digit amounts exact', () => {
    expect(toAtoms('9'.repeat(30), 8)).toBe(BigInt('9'.repeat(30)) * 100_000_000n);
  });

  it('refuses more decimals than the asset has, unless they are zeros', () => {
    expect(reasonOf(toAtoms('0.000000001', 8))).toBe('must have at most 8 decimal places');
    expect(toAtoms('0.100000000', 8)).toBe(10_000_000n);
  });

  it('refuses the same malformed texts as toUnits', () => {
    for (const text of ['-0', '1e400', 'NaN', '  1', '', '1.']) expect(isReason(toAtoms(text, 8))).toBe(true);
  });
});

describe('formatAtoms', () => {
  it('writes canonical decimals: no trailing zeros, "0" for zero', () => {
    expect(formatAtoms(150_000_000n, 8)).toBe('1.5');
    expect(formatAtoms(1n, 8)).toBe('0.00000001');
    expect(formatAtoms(0n, 8)).toBe('0');
    expect(formatAtoms(100_000_000n, 8)).toBe('1');
    expect(formatAtoms(1234n, 0)).toBe('1234');
    expect(formatAtoms(-150_000_000n, 8)).toBe('-1.5');
  });
});

describe('formatUnits', () => {
  it('writes increments as canonical decimals', () => {
    expect(formatUnits(15, '0.0001')).toBe('0.0015');
    expect(formatUnits(250000, '10000')).toBe('2500000000');
    expect(formatUnits(0, '0.01')).toBe('0');
    expect(formatUnits(10, '0.01')).toBe('0.1');
  });

  it('stays exact past 2^53 of the scaled value', () => {
    expect(formatUnits(Number.MAX_SAFE_INTEGER, '10000')).toBe('90071992547409910000');
  });

  it('throws on units that are not a safe integer', () => {
    expect(() => formatUnits(1.5, '1')).toThrow(RangeError);
    expect(() => formatUnits(2 ** 53, '1')).toThrow(RangeError);
  });
});

const INCREMENTS = ['10000', '1000', '100', '0.0001', '0.001', '0.01', '1', '0.00000001', '0.5', '25', '0.000001'];

describe('round trip (property)', () => {
  it('formatUnits then toUnits gives back every safe count of every increment', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INCREMENTS), fc.maxSafeNat(), (increment, units) => {
        const text = formatUnits(units, increment);
        if (text.split('.')[0]!.length > 30) return; // beyond the accepted width: refused by design
        expect(toUnits(text, increment)).toBe(units);
      }),
    );
  });

  it('toUnits then formatUnits gives the canonical text of every valid multiple, padded or not', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...INCREMENTS),
        fc.nat({ max: 10 ** 12 }),
        fc.nat({ max: 6 }),
        (increment, units, padding) => {
          const canonical = formatUnits(units, increment);
          const padded = canonical.includes('.') ? canonical + '0'.repeat(padding) : padding > 0 ? `${canonical}.${'0'.repeat(padding)}` : canonical;
          const parsed = toUnits(padded, increment);
          expect(parsed).toBe(units);
          expect(formatUnits(parsed as number, increment)).toBe(canonical);
        },
      ),
    );
  });

  it('toAtoms and formatAtoms are inverse on every amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n - 1n }), fc.nat({ max: 8 }), (atoms, decimals) => {
        expect(toAtoms(formatAtoms(atoms, decimals), decimals)).toBe(atoms);
      }),
    );
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.constantFrom(...INCREMENTS), (text, increment) => {
        const units = toUnits(text, increment);
        expect(typeof units === 'number' || isReason(units)).toBe(true);
        const atoms = toAtoms(text, 8);
        expect(typeof atoms === 'bigint' || isReason(atoms)).toBe(true);
      }),
    );
  });
});

describe('fee rates', () => {
  it('parse as parts per million and format back', () => {
    expect(parseRate('0.001')).toBe(1000);
    expect(parseRate('0.002')).toBe(2000);
    expect(parseRate('0')).toBe(0);
    expect(parseRate('1')).toBe(1_000_000);
    expect(formatRate(1000)).toBe('0.001');
    expect(formatRate(15)).toBe('0.000015');
  });

  it('refuse more than six decimals, more than 1, and malformed text', () => {
    expect(reasonOf(parseRate('0.0000001'))).toBe('must have at most 6 decimal places');
    expect((parseRate('1.5') as Reason).outOfRange).toBe(true);
    expect(reasonOf(parseRate('-0.001'))).toBe('must not be negative (a decimal is written without a sign)');
  });
});

describe('toInt64', () => {
  it('reads plain digits up to int64', () => {
    expect(toInt64('0')).toBe(0n);
    expect(toInt64('1763800000000000000')).toBe(1_763_800_000_000_000_000n);
    expect(toInt64('9223372036854775807')).toBe(9_223_372_036_854_775_807n);
  });

  it('refuses beyond int64 as out of range', () => {
    expect((toInt64('9223372036854775808') as Reason).outOfRange).toBe(true);
    expect((toInt64('1'.repeat(40)) as Reason).outOfRange).toBe(true);
  });

  it('refuses signs, decimals, exponents, whitespace, leading zeros and empty text', () => {
    for (const text of ['-1', '+1', '1.0', '1e18', ' 1', '', '01', 'NaN']) expect(isReason(toInt64(text)), text).toBe(true);
    expect(reasonOf(toInt64('01'))).toBe('must not have leading zeros');
  });
});
