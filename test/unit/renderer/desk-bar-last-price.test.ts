/**
 * The desk bar's last price is the last trade heard: while the connection is not live it stops moving, and says
 * it is stale as the market panels do, rather than reading as the market's price now. Drawn with react-dom/server.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';
import type { Product } from '../../../src-shared/protocol/records';
import { DeskBar } from '../../../src-renderer/features/workspace/DeskBar';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

const product: Product = { id: 'BTC-VND', base_asset_id: 'BTC', quote_asset_id: 'VND', price_increment: '10000', size_increment: '0.0001', min_size: '0.0001', max_size: '1000', min_notional: '1', status: 'online' };
const connection = (state: ConnectionStatus['state']): ConnectionStatus => ({ environment: 'local', production: false, state, apiKey: 'k', detail: '' });
/** The desk bar's last price as drawn, with its mark if any. */
const lastPrice = (): string => /<span class="muted" aria-label="Last price">last 2\u202f500\u202f000\u202f000 VND(?: <span class="stale-mark"[^>]*>([^<]*)<\/span>)?<\/span>/.exec(renderToStaticMarkup(createElement(DeskBar)))?.[1] ?? 'no mark';

describe('the desk bar\'s last price', () => {
  it('is marked stale while the connection is not live, and not once it is live again', () => {
    useDesk.setState({ tickers: { 'BTC-VND': { productId: 'BTC-VND', price: '2500000000', bestBid: '', bestAsk: '', volume24h: '0', time: '1' } } });
    useDesk.setState({ connection: connection('live') });
    expect(lastPrice()).toBe('no mark');
    useDesk.setState({ connection: connection('reconnecting') });
    expect(lastPrice()).toBe('stale: reconnecting');
    useDesk.setState({ connection: connection('no_key') });
    expect(lastPrice()).toBe('no mark');
  });

  it('names the currency the price is quoted in, the venue\'s own for a product it lists', () => {
    const drawn = (): string => /aria-label="Last price">([^<]*)/.exec(renderToStaticMarkup(createElement(DeskBar)))?.[1]?.replaceAll('\u202f', ' ') ?? 'no price';
    useDesk.setState({ connection: connection('live'), layout: { ...useDesk.getState().layout, productId: 'BTC-VND' } });
    useDesk.setState({ tickers: { 'BTC-VND': { productId: 'BTC-VND', price: '2503000000', bestBid: '', bestAsk: '', volume24h: '0', time: '1' } } });
    expect(drawn()).toBe('last 2 503 000 000 VND');
    useDesk.setState({ products: [{ ...product, id: 'BTC-VND', quote_asset_id: 'USDT' }] });
    expect(drawn()).toBe('last 2 503 000 000 USDT');
  });
});

describe('the desk bar\'s connection state', () => {
  const state = (): string => /aria-label="Connection state">([^<]*)/.exec(renderToStaticMarkup(createElement(DeskBar)))?.[1] ?? 'none';

  it('says in words that there is no API key, not the code\'s name no_key', () => {
    useDesk.setState({ connection: connection('no_key') });
    expect(state()).toBe('no API key: market data only');
    useDesk.setState({ connection: connection('live') });
    expect(state()).toBe('live');
  });
});
