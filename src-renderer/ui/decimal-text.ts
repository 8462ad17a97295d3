/**
 * Arithmetic on the wire's decimal strings without floating point (ARCHITECTURE rule 6): a value is a bigint
 * of digits and a scale.
 */
import { groupDigits } from '../../src-shared/protocol/decimal';

interface Scaled {
  readonly digits: bigint;
  readonly scale: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Reads "12.50" or "-3"; anything else is zero, since the venue's records always carry a plain decimal. */
function scaled(text: string): Scaled {
  const match = DECIMAL.exec(text.trim());
  if (match === null) return { digits: 0n, scale: 0 };
  const fraction = match[3] ?? '';
  const digits = BigInt((match[2] ?? '0') + fraction);
  return { digits: match[1] === '-' ? -digits : digits, scale: fraction.length };
}

export function isDecimal(text: string): boolean {
  return DECIMAL.test(text.trim());
}

function atScale(value: Scaled, scale: number): bigint {
  return value.digits * 10n ** BigInt(scale - value.scale);
}

/** Canonical text: no trailing zeros, no trailing point, "0" for zero. */
function textOf(value: Scaled): string {
  const negative = value.digits < 0n;
  const digits = (negative ? -value.digits : value.digits).toString();
  if (value.scale === 0) return negative && digits !== '0' ? `-${digits}` : digits;
  const padded = digits.padStart(value.scale + 1, '0');
  const whole = padded.slice(0, padded.length - value.scale);
  const fraction = padded.slice(padded.length - value.scale).replace(/0+$/, '');
  const body = fraction === '' ? whole : `${whole}.${fraction}`;
  return negative && body !== '0' ? `-${body}` : body;
}

export function compareDecimal(a: string, b: string): number {
  const x = scaled(a);
  const y = scaled(b);
  const scale = Math.max(x.scale, y.scale);
  const d = atScale(x, scale) - atScale(y, scale);
  return d === 0n ? 0 : d < 0n ? -1 : 1;
}

export function addDecimal(a: string, b: string): string {
  const x = scaled(a);
  const y = scaled(b);
  const scale = Math.max(x.scale, y.scale);
  return textOf({ digits: atScale(x, scale) + atScale(y, scale), scale });
}

export function multiplyDecimal(a: string, b: string): string {
  const x = scaled(a);
  const y = scaled(b);
  return textOf({ digits: x.digits * y.digits, scale: x.scale + y.scale });
}

/** For display: thousands grouped with a narrow space; never rounded, so a value is always shown whole. */
export function formatDecimal(text: string): string {
  return groupDigits(textOf(scaled(text)));
}

/** UNIX nanoseconds (digit string) to a local time like 14:03:07.125. */
export function formatNanosTime(nanos: string): string {
  if (!/^\d+$/.test(nanos) || nanos === '0') return '';
  const millis = Number(BigInt(nanos) / 1_000_000n);
  const date = new Date(millis);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/**
 * For blotters, whose rows span days: the time alone for today (local), else the local date before it, so an
 * order from last week never reads as one from this morning.
 */
export function formatNanosStamp(nanos: string, nowMs = Date.now()): string {
  const time = formatNanosTime(nanos);
  if (time === '') return '';
  const date = new Date(Number(BigInt(nanos) / 1_000_000n));
  const today = new Date(nowMs);
  if (date.getFullYear() === today.getFullYear() && date.getMonth() === today.getMonth() && date.getDate() === today.getDate()) return time;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

/** UNIX nanoseconds to the trader's local date and time, always with the date: for times that are not today's news. */
export function formatNanosLocal(nanos: string): string {
  // NaN is no day at all, so the stamp always carries the date.
  return formatNanosStamp(nanos, Number.NaN);
}

/** UNIX nanoseconds to an ISO date-time, for exports and history. */
export function formatNanosIso(nanos: string): string {
  if (!/^\d+$/.test(nanos) || nanos === '0') return '';
  return new Date(Number(BigInt(nanos) / 1_000_000n)).toISOString();
}
