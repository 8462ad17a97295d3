/**
 * The precision an asset's balances are written at, so that one asset's free, locked and total read with the same
 * number of decimals and line up: the finest size increment of a product with it as its base, as the ladder and tape
 * write that product's sizes (the venue's listing, the built-in product's where the listing gives none to count in
 * or is not read yet), else the built-in asset's decimals (VND's 0), else nothing to go by. Never rounded: a figure
 * finer than that shows whole, and the row's others pad to it.
 */
import { PRODUCTS, findAsset } from '../../../src-shared/protocol/products';
import type { Product } from '../../../src-shared/protocol/records';
import { incrementDecimals, padDecimals, productIncrements } from '../ladder/increments';
import { formatDecimal } from '../../ui/decimal-text';

export function assetDecimals(asset: string, products: readonly Product[]): number | undefined {
  const traded = products.length > 0 ? products.filter((p) => p.base_asset_id === asset).map((p) => p.id) : PRODUCTS.filter((p) => p.baseAssetId === asset).map((p) => p.id);
  const sizes = traded.flatMap((id) => productIncrements(id, products)?.size ?? []);
  return sizes.length > 0 ? Math.max(...sizes.map(incrementDecimals)) : findAsset(asset)?.decimals;
}

/** One asset's figures (free, locked, total) written at the same number of decimals, the asset's or finer. */
export function alignedBalances(values: readonly string[], decimals: number | undefined): string[] {
  const texts = values.map(formatDecimal);
  const widest = Math.max(decimals ?? 0, ...texts.map((t) => t.split('.')[1]?.length ?? 0));
  return texts.map((t) => padDecimals(t, widest));
}
