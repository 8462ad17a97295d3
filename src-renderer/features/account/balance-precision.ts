/**
 * The precision an asset's balances are written at, so that one asset's free, locked and total read with the same
 * number of decimals and line up: the finest size increment of a product the venue lists with it as its base (what
 * the trader trades it in, as the ladder and tape write it; the built-in products' while the listing is not read),
 * else the built-in asset's decimals (VND's 0), else nothing to go by. Never rounded: a figure finer than that shows whole, and the row's others pad to it.
 */
import { PRODUCTS, findAsset } from '../../../src-shared/protocol/products';
import type { Product } from '../../../src-shared/protocol/records';
import { incrementDecimals } from '../ladder/increments';
import { formatDecimal } from '../../ui/decimal-text';

export function assetDecimals(asset: string, products: readonly Product[]): number | undefined {
  const listed = products.length > 0 ? products.map((p) => ({ base: p.base_asset_id, size: p.size_increment })) : PRODUCTS.map((p) => ({ base: p.baseAssetId, size: p.sizeIncrement }));
  let finest: number | undefined;
  for (const p of listed) {
    // Another venue's listing is not ours to trust: an increment that is no plain decimal says nothing.
    if (p.base !== asset || !/^\d+(\.\d+)?$/.test(p.size)) continue;
    const decimals = incrementDecimals(p.size);
    if (finest === undefined || decimals > finest) finest = decimals;
  }
  return finest ?? findAsset(asset)?.decimals;
}

/** One asset's figures (free, locked, total) written at the same number of decimals, the asset's or finer. */
export function alignedBalances(values: readonly string[], decimals: number | undefined): string[] {
  const texts = values.map(formatDecimal);
  const widest = Math.max(decimals ?? 0, ...texts.map((t) => t.split('.')[1]?.length ?? 0));
  return texts.map((t) => {
    const [whole = t, fraction = ''] = t.split('.');
    return widest === 0 ? whole : `${whole}.${fraction.padEnd(widest, '0')}`;
  });
}
