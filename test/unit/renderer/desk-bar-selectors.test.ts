/**
 * The desk bar's store selectors run on every store update (each book, each trade, each ticker), drawn or not: none
 * of them may look a product up in the listing. Drawn with react-dom/server, each selector kept to be run again.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { Product } from '../../../src-shared/protocol/records';
import { DeskBar } from '../../../src-renderer/features/workspace/DeskBar';
import { useDesk, type DeskState } from '../../../src-renderer/stores/desk-store';

const selectors = vi.hoisted(() => [] as ((s: unknown) => unknown)[]);
vi.mock('zustand', async (importOriginal) => {
  const zustand = await (await import('./fixtures')).serverDrawnZustand(await importOriginal());
  type Hook = ((selector?: (s: unknown) => unknown) => unknown) & object;
  const recording = (hook: Hook): Hook =>
    Object.assign((selector?: (s: unknown) => unknown) => {
      if (selector !== undefined) selectors.push(selector);
      return hook(selector);
    }, hook);
  // The store is made as create<DeskState>()(init), the curried form.
  const create = ((init?: never) =>
    init === undefined ? (later: never) => recording((zustand.create as (i: never) => Hook)(later)) : recording((zustand.create as (i: never) => Hook)(init))) as typeof zustand.create;
  return { ...zustand, create };
});

const product: Product = { id: 'BTC-VND', base_asset_id: 'BTC', quote_asset_id: 'USDT', price_increment: '10000', size_increment: '0.0001', min_size: '0.0001', max_size: '1000', min_notional: '1', status: 'online' };

describe("the desk bar's selectors", () => {
  it('look no product up in the listing, which they would do again on every store update', () => {
    let lookups = 0;
    const products = [product];
    products.find = ((...args: Parameters<Product[]['find']>) => (lookups++, Array.prototype.find.apply(products, args))) as Product[]['find'];
    useDesk.setState({ products, tickers: { 'BTC-VND': { productId: 'BTC-VND', price: '2500000000', bestBid: '', bestAsk: '', volume24h: '0', time: '1' } } });
    useDesk.setState({ layout: { ...useDesk.getState().layout, productId: 'BTC-VND' } });
    selectors.length = 0;
    // Still named in the venue's quote asset, looked up while drawn.
    expect(renderToStaticMarkup(createElement(DeskBar))).toMatch(/aria-label="Last price">last 2\u202f500\u202f000\u202f000 USDT/);
    expect(selectors.length).toBeGreaterThan(0);
    lookups = 0;
    const state: DeskState = useDesk.getState();
    for (const selector of selectors) selector(state);
    expect(lookups).toBe(0);
  });
});
