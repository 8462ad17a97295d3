// The desk's decimal text as exact integers of 10^-18, so the tests compare money without floating point.

export const SCALE = 10n ** 18n;

/** "1 234.5" is not accepted: callers strip the grouping first; anything but a plain decimal throws. */
export function fixed(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,18}))?$/.exec(text.trim());
  if (match === null) throw new Error(`not a decimal the desk shows: "${text}"`);
  const value = BigInt(`${match[2] ?? '0'}${(match[3] ?? '').padEnd(18, '0')}`);
  return match[1] === '-' ? -value : value;
}

export function sumFixed(texts: readonly string[]): bigint {
  return texts.reduce((sum, text) => sum + fixed(text), 0n);
}

/** Price times size, both as shown, exactly (the venue's decimals never pass 18 together). */
export function notionalOf(price: string, size: string): bigint {
  return (fixed(price) * fixed(size)) / SCALE;
}
