/**
 * The venue's assets and products, and the integer units the engine and ledger work in.
 *
 * Money never touches floating point (ARCHITECTURE rule 6). Every balance is a bigint count of the asset's
 * smallest unit ("atoms", 10^-decimals); every price is a whole number of the product's price increment
 * ("ticks") and every size a whole number of its size increment ("lots"). The increments are chosen so that
 * one tick times one lot is a whole number of quote atoms (`notionalPerTickLot`), which keeps every trade's
 * notional exact.
 */

export interface AssetSpec {
  readonly id: string;
  readonly name: string;
  /** Digits after the decimal point of the asset's smallest unit. */
  readonly decimals: number;
}

export interface ProductSpec {
  readonly id: string;
  readonly baseAssetId: string;
  readonly quoteAssetId: string;
  /** Decimal strings, as the wire shows them. */
  readonly priceIncrement: string;
  readonly sizeIncrement: string;
  readonly minSize: string;
  readonly maxSize: string;
  readonly minNotional: string;
  /** Largest accepted price, as a decimal string: a bound that keeps every notional a safe integer. */
  readonly maxPrice: string;
  /** A plausible starting price for the simulator and for seeding tests. */
  readonly referencePrice: string;
}

export const ASSETS: readonly AssetSpec[] = [
  { id: 'BTC', name: 'Bitcoin', decimals: 8 },
  { id: 'ETH', name: 'Ether', decimals: 8 },
  { id: 'SOL', name: 'Solana', decimals: 8 },
  { id: 'VND', name: 'Vietnamese dong', decimals: 0 },
];

export const PRODUCTS: readonly ProductSpec[] = [
  {
    id: 'BTC-VND',
    baseAssetId: 'BTC',
    quoteAssetId: 'VND',
    priceIncrement: '10000',
    sizeIncrement: '0.0001',
    minSize: '0.0001',
    maxSize: '1000',
    minNotional: '10000',
    maxPrice: '100000000000',
    referencePrice: '2500000000',
  },
  {
    id: 'ETH-VND',
    baseAssetId: 'ETH',
    quoteAssetId: 'VND',
    priceIncrement: '1000',
    sizeIncrement: '0.001',
    minSize: '0.001',
    maxSize: '10000',
    minNotional: '10000',
    maxPrice: '10000000000',
    referencePrice: '90000000',
  },
  {
    id: 'SOL-VND',
    baseAssetId: 'SOL',
    quoteAssetId: 'VND',
    priceIncrement: '100',
    sizeIncrement: '0.01',
    minSize: '0.01',
    maxSize: '100000',
    minNotional: '10000',
    maxPrice: '1000000000',
    referencePrice: '4000000',
  },
];

/** Balances the local user starts with on an empty data folder (venue contract: at least these). */
export const LOCAL_USER_BALANCES: Readonly<Record<string, string>> = {
  BTC: '10',
  ETH: '100',
  SOL: '1000',
  VND: '10000000000',
};

/** Default fee rates of a new account, as decimal strings. Fees are charged in the quote asset. */
export const DEFAULT_MAKER_FEE_RATE = '0.001';
export const DEFAULT_TAKER_FEE_RATE = '0.002';

export function findProduct(id: string): ProductSpec | undefined {
  return PRODUCTS.find((p) => p.id === id);
}

export function findAsset(id: string): AssetSpec | undefined {
  return ASSETS.find((a) => a.id === id);
}
