import { describe, expect, it } from 'vitest';
import { notionalAtoms, productRules } from '../../../src-shared/protocol/product-rules';
import { PRODUCTS } from '../../../src-shared/protocol/products';

describe('productRules', () => {
  it('works out every product of products.ts in ticks, lots and quote atoms', () => {
    expect(productRules('BTC-VND')).toMatchObject({
      minLots: 1,
      maxLots: 10_000_000,
      maxTicks: 10_000_000,
      quoteAtomsPerTickLot: 1,
      minNotionalAtoms: 10_000,
      maxNotionalAtoms: 100_000_000_000_000,
    });
    for (const product of PRODUCTS) {
      const rules = productRules(product.id);
      expect(rules?.spec).toBe(product);
      expect(Number.isSafeInteger(rules?.maxNotionalAtoms)).toBe(true);
    }
  });

  it('knows no other product', () => {
    expect(productRules('BTC-USD')).toBeUndefined();
    expect(productRules('__proto__')).toBeUndefined();
  });

  it('prices a tick-lot product exactly: 0.01 BTC at 2,500,000,000 VND is 25,000,000 VND', () => {
    const rules = productRules('BTC-VND')!;
    expect(notionalAtoms(rules, 250_000, 100)).toBe(25_000_000);
    const sol = productRules('SOL-VND')!;
    expect(notionalAtoms(sol, 40_000, 150)).toBe(6_000_000); // 1.5 SOL at 4,000,000
  });
});
