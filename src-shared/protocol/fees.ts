/**
 * Fee arithmetic. Rates are integers in parts per million (RATE_SCALE). A fee is rounded down to the atom:
 * floor(a) + floor(b) <= floor(a + b), so the fees of an order's partial fills never exceed the fee its hold
 * reserved for the whole order, and a hold always covers what remains.
 */
const SCALE = 1_000_000n;

export function feeOf(notional: bigint, ratePpm: number): bigint {
  return (notional * BigInt(ratePpm)) / SCALE;
}

/** What a buyer pays for a notional: the notional plus its fee. */
export function costWithFee(notional: bigint, ratePpm: number): bigint {
  return notional + feeOf(notional, ratePpm);
}

/** The largest notional whose cost with fee fits in `budget` (a market buy by quote size, fees included). */
export function notionalWithin(budget: bigint, ratePpm: number): bigint {
  if (budget <= 0n) return 0n;
  // cost(n) is increasing in n; start from the real-number answer and correct by a step or two.
  let n = (budget * SCALE) / (SCALE + BigInt(ratePpm));
  while (costWithFee(n + 1n, ratePpm) <= budget) n += 1n;
  while (n > 0n && costWithFee(n, ratePpm) > budget) n -= 1n;
  return n;
}

/** The smallest notional whose proceeds after fee reach `target` (a market sell by quote size). */
export function notionalReaching(target: bigint, ratePpm: number): bigint {
  if (target <= 0n) return 0n;
  const proceeds = (n: bigint): bigint => n - feeOf(n, ratePpm);
  let n = (target * SCALE) / (SCALE - BigInt(ratePpm));
  while (n > 0n && proceeds(n - 1n) >= target) n -= 1n;
  while (proceeds(n) < target) n += 1n;
  return n;
}
