/**
 * A product's bounds in the integer units the engine uses (ticks, lots, quote atoms), worked out once from
 * the decimal strings of products.ts so that checking an order is a handful of integer comparisons.
 */

import { isReason, toAtoms, toUnits, type Reason } from './decimal';
import { PRODUCTS, findAsset, type AssetSpec, type ProductSpec } from './products';

export interface ProductRules {
  readonly spec: ProductSpec;
  readonly base: AssetSpec;
  readonly quote: AssetSpec;
  readonly minLots: number;
  readonly maxLots: number;
  readonly maxTicks: number;
  /** Quote atoms of one tick times one lot; the increments are chosen to make this whole. */
  readonly quoteAtomsPerTickLot: number;
  readonly minNotionalAtoms: number;
  /** The notional of max_size at max_price: no order can need more quote than this. */
  readonly maxNotionalAtoms: number;
}

function must<T extends number | bigint>(value: T | Reason, what: string): T {
  if (isReason(value)) throw new Error(`products.ts: ${what}: ${value.reason}`);
  return value;
}

function compile(spec: ProductSpec): ProductRules {
  const base = findAsset(spec.baseAssetId);
  const quote = findAsset(spec.quoteAssetId);
  if (base === undefined || quote === undefined) throw new Error(`products.ts: ${spec.id} names an unknown asset`);
  const minLots = must(toUnits(spec.minSize, spec.sizeIncrement), `${spec.id} min_size`);
  const maxLots = must(toUnits(spec.maxSize, spec.sizeIncrement), `${spec.id} max_size`);
  const maxTicks = must(toUnits(spec.maxPrice, spec.priceIncrement), `${spec.id} max_price`);
  // One tick-lot is price_increment * size_increment quote, i.e. that many times 10^decimals atoms.
  const tickInAtoms = must(toAtoms(spec.priceIncrement, quote.decimals + base.decimals), `${spec.id} tick`);
  const lotInBaseAtoms = must(toAtoms(spec.sizeIncrement, base.decimals), `${spec.id} lot`);
  const perTickLotScaled = tickInAtoms * lotInBaseAtoms;
  const baseScale = 10n ** BigInt(base.decimals);
  if (perTickLotScaled % (baseScale * baseScale) !== 0n) {
    throw new Error(`products.ts: ${spec.id}: one tick times one lot is not a whole number of quote atoms`);
  }
  const perTickLot = perTickLotScaled / (baseScale * baseScale);
  const maxNotional = BigInt(maxTicks) * BigInt(maxLots) * perTickLot;
  if (maxNotional > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(`products.ts: ${spec.id}: max_size at max_price is not a safe integer of quote atoms`);
  }
  const minNotional = must(toAtoms(spec.minNotional, quote.decimals), `${spec.id} min_notional`);
  return {
    spec,
    base,
    quote,
    minLots,
    maxLots,
    maxTicks,
    quoteAtomsPerTickLot: Number(perTickLot),
    minNotionalAtoms: Number(minNotional),
    maxNotionalAtoms: Number(maxNotional),
  };
}

const rules = new Map<string, ProductRules>(PRODUCTS.map((p) => [p.id, compile(p)]));

export function productRules(productId: string): ProductRules | undefined {
  return rules.get(productId);
}

/** Quote atoms of `lots` at `ticks`; always a safe integer within the product's bounds. */
export function notionalAtoms(rules: ProductRules, ticks: number, lots: number): number {
  return ticks * lots * rules.quoteAtomsPerTickLot;
}
