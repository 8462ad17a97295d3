/**
 * The values hostile-input properties are built from: strings and numbers that have broken parsers before, JSON
 * number literals no double holds, prototype-pollution keys, and a check that nothing reached Object.prototype.
 */
import fc from 'fast-check';

/** How many inputs each property tries: the short form in npm test, `npm run test:fuzz -- --runs N` the long one. */
export function fuzzRuns(shortForm: number): number {
  const runs = Number(process.env['FUZZ_RUNS'] ?? shortForm);
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a positive whole number, got ${process.env['FUZZ_RUNS']}`);
  return runs;
}

/** A long run may take minutes per property; the short form keeps vitest's usual timeout. */
export function fuzzTimeout(runs: number, msPerRun: number): number {
  return Math.max(30_000, runs * msPerRun);
}

const RAW = '\u0000raw:';

/**
 * A JSON number literal written into the frame as is (see toHostileJson): `1e400` parses to Infinity, a
 * 40-digit integer loses digits in a double, `-0` is a negative zero.
 */
export function rawLiteral(literal: string): string {
  return `${RAW}${literal}`;
}

/** JSON text of the value, with every rawLiteral() written as the bare literal it holds. */
export function toHostileJson(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0000raw:([^"\\]*)"/g, '$1');
}

/** Literals that are valid JSON numbers but not safe ones, and some that are not JSON at all. */
export const RAW_NUMBERS = [
  '1e400', '-1e400', '1e-400', '-0', '0e0', '9'.repeat(40), `-${'9'.repeat(40)}`, `0.${'1'.repeat(40)}`, '9007199254740993',
  '1.5e-7', 'NaN', 'Infinity', '-Infinity', '0x10', '01', '.5', '+1',
] as const;

/** Own properties named like Object.prototype's, set without triggering the __proto__ setter. */
export function withOwnFields(base: Readonly<Record<string, unknown>>, fields: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  fields.forEach((field, i) => Object.defineProperty(out, field, { value: values[i], enumerable: true, writable: true, configurable: true }));
  return out;
}

/** Objects that would pollute Object.prototype if a parser merged them naively. */
export const pollutingObject: fc.Arbitrary<Record<string, unknown>> = fc
  .constantFrom<[string, unknown]>(
    ['__proto__', { polluted: 'yes', toString: 'x', isAdmin: true }],
    ['constructor', { prototype: { polluted: 'yes' } }],
    ['prototype', { polluted: 'yes' }],
    ['__proto__', null],
    ['__proto__', []],
  )
  .map(([key, value]) => withOwnFields({}, [key], [value]));

/** Strings and numbers that have broken parsers before. */
export const nastyString = fc.oneof(
  fc.constantFrom(
    '1e400', '-0', 'NaN', 'Infinity', '-Infinity', '0x10', ' 1', '1 ', '', ' ', '\u0000', 'a\u0000b', '١٢٣', '１２３', '\u202e1',
    '9'.repeat(40), `0.${'1'.repeat(40)}`, `${'9'.repeat(30)}.${'9'.repeat(30)}`, '-1', '1.5e-7', '1,5', '.5', '5.', '01', '0.00000001',
    '\ud800', '\udfff', '😀', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'null', 'undefined', 'true',
    'BTC-VND\u0000', 'btc-vnd', 'BTC-VND ', 'x'.repeat(65), 'x'.repeat(300),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** Any value a hostile client might put where a field belongs. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.constantFrom(...RAW_NUMBERS).map(rawLiteral),
  fc.integer(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => rawLiteral(String(n))),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, Number.MIN_VALUE, -Number.MAX_VALUE, 0.1 + 0.2),
  fc.boolean(),
  fc.constant(null),
  fc.array(nastyString, { maxLength: 3 }),
  pollutingObject,
  fc.object({ maxDepth: 1, maxKeys: 3 }),
);

/** Broken JSON: cut short, doubled, or not JSON at all. */
export function brokenJson(validFrames: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('', ' ', '{', '}', '{"op":', '{"op":"ping"', '[1,', '{"op":"ping",}', "{'op':'ping'}", '{"op":"ping"}{"op":"ping"}', 'undefined', 'NaN', '\u0000', '\ufeff{"op":"ping"}x'),
    fc.constantFrom(...validFrames).chain((frame) => fc.integer({ min: 0, max: frame.length - 1 }).map((cut) => frame.slice(0, cut))),
    fc.string({ unit: 'binary', maxLength: 80 }).filter((text) => !isJsonObject(text)),
  );
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/** Object.prototype as it stands: compare before and after a hostile input. */
export function prototypeShape(): string[] {
  return Object.getOwnPropertyNames(Object.prototype).sort();
}

/** Fails if any hostile input managed to add to Object.prototype. */
export function expectCleanPrototype(shape: readonly string[]): void {
  const now = prototypeShape();
  const probe = {} as Record<string, unknown>;
  if (now.join() !== shape.join() || probe['polluted'] !== undefined || probe['isAdmin'] !== undefined) {
    throw new Error(`Object.prototype was polluted: ${now.filter((k) => !shape.includes(k)).join(', ')}`);
  }
}
