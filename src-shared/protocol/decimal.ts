/**
 * Decimal strings at the wire, integers inside. Nothing here rounds: a value that does not fit the
 * increment or the asset's decimals is refused with a reason, and the caller names the field.
 *
 * Accepted: plain decimals such as "0", "12", "0.5", "1.2500" (digits on both sides of a point, no leading
 * zeros, no sign, no exponent, no whitespace), with at most 30 integer digits and 30 fraction digits.
 * Fraction digits beyond the increment's or asset's precision are accepted only when they are zeros, so a
 * client printing fixed decimals ("2500000000.00000000") is understood while "0.00015" at a 0.0001 step is not.
 *
 * The common case (at most 15 significant digits) runs on plain integer arithmetic in doubles, which is
 * exact below 2^53; longer values take the BigInt path. Neither path ever sees a fractional double.
 */

export const MAX_INTEGER_DIGITS = 30;
export const MAX_FRACTION_DIGITS = 30;

/**
 * Why a text was refused. `outOfRange` marks a well-formed number that is too large to represent, which the
 * API reports as E0110 rather than E0101.
 */
export interface Reason {
  readonly reason: string;
  readonly outOfRange?: true;
}

export function isReason(value: unknown): value is Reason {
  return typeof value === 'object' && value !== null && 'reason' in value;
}

const PLAIN_DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;
const DIGITS_ONLY = /^(0|[1-9][0-9]*)$/;
const INT64_MAX = 9223372036854775807n;
// Longer than any acceptable decimal: refuse before running a regex over megabytes.
const MAX_TEXT_LENGTH = MAX_INTEGER_DIGITS + 1 + MAX_FRACTION_DIGITS;

function refuse(reason: string): Reason {
  return { reason };
}

function tooLarge(reason: string): Reason {
  return { reason, outOfRange: true };
}

function describeMalformed(text: string): string {
  if (text.length === 0) return 'must not be empty';
  if (/\s/.test(text)) return 'must not contain whitespace';
  // A trader who typed a negative amount learns what is wrong with it, not that a sign is a syntax error.
  if (/^-(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/.test(text) && /[1-9]/.test(text)) return 'must not be negative (a decimal is written without a sign)';
  if (/^[+-]/.test(text)) return 'must not have a sign';
  if (/^[0-9.]*[eE]/.test(text)) return 'must not use an exponent';
  if (/^[0-9]*\.?[0-9]*$/.test(text)) {
    if (/^0[0-9]/.test(text)) return 'must not have leading zeros';
    return 'must have digits on both sides of the decimal point';
  }
  if (/nan|inf/i.test(text)) return 'must be a finite decimal';
  return 'must be a plain decimal such as 12.5';
}

interface DecimalParts {
  readonly whole: string;
  readonly fraction: string;
}

function splitDecimal(text: string): DecimalParts | Reason {
  if (text.length > MAX_TEXT_LENGTH) {
    const point = text.indexOf('.');
    const wholeLength = point === -1 ? text.length : point;
    if (wholeLength > MAX_INTEGER_DIGITS && /^[1-9][0-9]*(\.[0-9]+)?$/.test(text)) {
      return tooLarge(`must have at most ${MAX_INTEGER_DIGITS} integer digits`);
    }
    return refuse(`must be at most ${MAX_TEXT_LENGTH} characters`);
  }
  const match = PLAIN_DECIMAL.exec(text);
  if (match === null) return refuse(describeMalformed(text));
  const whole = match[1] as string;
  const fraction = match[2] ?? '';
  if (whole.length > MAX_INTEGER_DIGITS) return tooLarge(`must have at most ${MAX_INTEGER_DIGITS} integer digits`);
  if (fraction.length > MAX_FRACTION_DIGITS) return refuse(`must have at most ${MAX_FRACTION_DIGITS} decimal places`);
  return { whole, fraction };
}

/** The fraction cut or padded to `scale` digits, or undefined when a non-zero digit lies beyond it. */
function fractionAtScale(fraction: string, scale: number): string | undefined {
  if (fraction.length <= scale) return fraction.padEnd(scale, '0');
  for (let i = scale; i < fraction.length; i++) if (fraction.charCodeAt(i) !== 48) return undefined;
  return fraction.slice(0, scale);
}

interface Increment {
  readonly text: string;
  /** Decimal places of the increment. */
  readonly scale: number;
  /** The increment times 10^scale: an integer. */
  readonly step: bigint;
  readonly stepNumber: number;
}

const increments = new Map<string, Increment>();

/** Increments are the venue's own constants: a bad one is a programming error, so it throws. */
function increment(text: string): Increment {
  const known = increments.get(text);
  if (known !== undefined) return known;
  const parts = splitDecimal(text);
  if (isReason(parts)) throw new Error(`bad increment "${text}": ${parts.reason}`);
  const fraction = parts.fraction.replace(/0+$/, '');
  const step = BigInt(parts.whole + fraction);
  if (step === 0n || step > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`bad increment "${text}"`);
  const compiled = { text, scale: fraction.length, step, stepNumber: Number(step) };
  increments.set(text, compiled);
  return compiled;
}

/**
 * How many increments `text` is: "0.0015" at "0.0001" is 15. Refuses anything that is not an exact multiple
 * or whose count is not a safe integer.
 */
export function toUnits(text: string, incrementText: string): number | Reason {
  const parts = splitDecimal(text);
  if (isReason(parts)) return parts;
  const inc = increment(incrementText);
  const fraction = fractionAtScale(parts.fraction, inc.scale);
  if (fraction === undefined) return refuse(`not a multiple of ${inc.text}`);
  const digits = parts.whole + fraction;
  if (digits.length <= 15) {
    const scaled = Number(digits);
    if (scaled % inc.stepNumber !== 0) return refuse(`not a multiple of ${inc.text}`);
    return scaled / inc.stepNumber;
  }
  const scaled = BigInt(digits);
  if (scaled % inc.step !== 0n) return refuse(`not a multiple of ${inc.text}`);
  const units = scaled / inc.step;
  if (units > BigInt(Number.MAX_SAFE_INTEGER)) return tooLarge('is too large');
  return Number(units);
}

/** The amount in the asset's smallest unit: "1.5" with 8 decimals is 150000000n. */
export function toAtoms(text: string, decimals: number): bigint | Reason {
  const parts = splitDecimal(text);
  if (isReason(parts)) return parts;
  const fraction = fractionAtScale(parts.fraction, decimals);
  if (fraction === undefined) return refuse(`must have at most ${decimals} decimal places`);
  return BigInt(parts.whole + fraction);
}

/** The canonical text of an amount in atoms: no trailing zeros, no trailing point, "0" for zero. */
export function formatAtoms(atoms: bigint, decimals: number): string {
  if (atoms < 0n) return `-${formatAtoms(-atoms, decimals)}`;
  return formatScaled(atoms.toString(), decimals);
}

function formatScaled(digits: string, scale: number): string {
  if (scale === 0) return digits;
  const padded = digits.padStart(scale + 1, '0');
  const whole = padded.slice(0, padded.length - scale);
  let end = padded.length;
  while (end > whole.length && padded.charCodeAt(end - 1) === 48) end--;
  return end === whole.length ? whole : `${whole}.${padded.slice(whole.length, end)}`;
}

/**
 * A plain decimal ("2504500000.5") as a trader reads it: thousands grouped with a narrow no-break space, the
 * fraction as it is. The desk's messages and the windows' figures group alike.
 */
export function groupDigits(plain: string): string {
  const negative = plain.startsWith('-');
  const [whole = '', fraction] = (negative ? plain.slice(1) : plain).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** The canonical text of `units` increments: 15 at "0.0001" is "0.0015". */
export function formatUnits(units: number, incrementText: string): string {
  if (!Number.isSafeInteger(units)) throw new RangeError(`units must be a safe integer, got ${units}`);
  const inc = increment(incrementText);
  const scaled = units * inc.stepNumber;
  if (Number.isSafeInteger(scaled)) {
    return scaled < 0 ? `-${formatScaled(String(-scaled), inc.scale)}` : formatScaled(String(scaled), inc.scale);
  }
  return formatAtoms(BigInt(units) * inc.step, inc.scale);
}

/** Fee rates travel as decimal fractions ("0.001" is 0.1%) and live as integer parts per million. */
const RATE_INCREMENT = '0.000001';
export const RATE_SCALE = 1_000_000;

/** A fee rate in parts per million, between 0 and 1 (RATE_SCALE) inclusive. */
export function parseRate(text: string): number | Reason {
  const ppm = toAtoms(text, 6);
  if (isReason(ppm)) return ppm;
  if (ppm > BigInt(RATE_SCALE)) return tooLarge('must be at most 1');
  return Number(ppm);
}

export function formatRate(ppm: number): string {
  return formatUnits(ppm, RATE_INCREMENT);
}

/**
 * A non-negative int64 written as plain digits (timestamps in nanoseconds, counts). No sign, no leading zeros.
 */
export function toInt64(text: string): bigint | Reason {
  if (text.length > 19 && DIGITS_ONLY.test(text)) return tooLarge('must fit in a signed 64-bit integer');
  if (!DIGITS_ONLY.test(text)) {
    if (text.length === 0) return refuse('must not be empty');
    if (/^0[0-9]/.test(text)) return refuse('must not have leading zeros');
    return refuse('must be an integer written as digits only');
  }
  const value = BigInt(text);
  if (value > INT64_MAX) return tooLarge('must fit in a signed 64-bit integer');
  return value;
}
