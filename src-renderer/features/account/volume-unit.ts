/**
 * The unit of the account's "Volume traded": the venue sums the notional of every trade the user was in, in the
 * quote asset (docs/api.md, stats.trading_stats). Every product of a venue quoted in one asset names it; products
 * quoted in several leave it as the quote asset, which is what the venue sums.
 */
import type { Product } from '../../../src-shared/protocol/records';

export function volumeUnit(products: readonly Pick<Product, 'quote_asset_id'>[]): string {
  const quotes = new Set(products.map((p) => p.quote_asset_id));
  return quotes.size === 1 ? [...quotes][0] ?? '' : 'in the quote asset';
}
