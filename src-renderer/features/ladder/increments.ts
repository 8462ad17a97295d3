/**
 * A product's price and size increments as the venue the desk is on lists them (GET /products), and market
 * figures written to them. Development and Production are other venues: their products may have other increments
 * than the local venue's built-in ones, or be products it does not have.
 */
import { toUnits } from '../../../src-shared/protocol/decimal';
import { findProduct } from '../../../src-shared/protocol/products';
import type { Product } from '../../../src-shared/protocol/records';
import { formatDecimal } from '../../ui/decimal-text';

export interface Increments {
  price: string;
  size: string;
}

/** The venue's listing first; the built-in product while the listing is not read yet. */
export function productIncrements(productId: string, products: readonly Product[]): Increments | undefined {
  const listed = products.find((p) => p.id === productId);
  if (listed !== undefined && usable(listed.price_increment) && usable(listed.size_increment)) return { price: listed.price_increment, size: listed.size_increment };
  const builtIn = findProduct(productId);
  return builtIn === undefined ? undefined : { price: builtIn.priceIncrement, size: builtIn.sizeIncrement };
}

/** A product's base and quote assets: the venue's listing, else the two halves of its id (BTC-VND: BTC and VND). */
export function assetsOf(productId: string, products: readonly Product[]): { base: string; quote: string } {
  const listed = products.find((p) => p.id === productId);
  const [base = '', quote = ''] = productId.split('-');
  return { base: listed?.base_asset_id ?? base, quote: listed?.quote_asset_id ?? quote };
}

/** A positive plain decimal the ladder can count in: another venue's listing is not ours to trust. */
function usable(increment: string): boolean {
  try {
    return toUnits(increment, increment) === 1;
  } catch {
    return false;
  }
}

/** Digits after the point of an increment: "0.0100" is 2, "10000" is 0. */
export function incrementDecimals(increment: string): number {
  return increment.split('.')[1]?.replace(/0+$/, '').length ?? 0;
}

/**
 * For a column of prices or sizes: as many decimals as the increment has ("0.1" at "0.0001" is "0.1000"), so the
 * digits line up and each figure reads at the product's precision. Never rounded: a figure finer than the increment
 * shows whole.
 */
export function formatToIncrement(value: string, increment: string | undefined): string {
  const text = formatDecimal(value);
  return increment === undefined ? text : padDecimals(text, incrementDecimals(increment));
}

/** A decimal as formatDecimal writes it, with at least `decimals` digits after the point: padded, never rounded. */
export function padDecimals(text: string, decimals: number): string {
  const [whole = text, fraction = ''] = text.split('.');
  return fraction.length >= decimals ? text : `${whole}.${fraction.padEnd(decimals, '0')}`;
}
