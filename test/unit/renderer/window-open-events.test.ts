// What the desk tells a window while it opens: the window reads each product's market once (loadEverything), then
// the feed starts, and the desk keeps no event for a window that is not listening. A trade printed while the tape
// read was out reached neither the read's answer nor the tape. main.tsx listens from before the first read.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';
import { scriptedWindow, toldEvents } from './fixtures';

const live: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k', readOnly: false, detail: '' };
const trade = (id: string) => ({ id, product_id: 'BTC-VND', price: '2500000000', size: '0.01', side: 'BUY' as const, time: id });
const events = toldEvents();

beforeAll(() => {
  scriptedWindow({
    'connection.status': () => live,
    'market.watch': ({ product_id }: { product_id: string }) => ({ productId: product_id, sequence: 1, time: '1', source: 'stream', bids: [], asks: [] }),
    'market.candles': () => [],
    // Trade 2 prints after the venue answered the read with trade 1, and the desk tells it before the answer arrives.
    'market.trades': () => {
      events.tell('trades.received', { productId: 'BTC-VND', trades: [trade('2')] });
      return [trade('1')];
    },
    'market.products': () => [],
    'orders.active': () => [],
    'orders.history': () => [],
    'orders.fills': () => ({ environment: 'local', fills: [] }),
    'market.unwatch': () => ({ watching: [] }),
  });
});

afterAll(() => vi.unstubAllGlobals());

describe('a window opening', () => {
  it('keeps a trade the desk told while the tape was being read', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { listenWhileOpening, loadEverything, startFeed } = await import('../../../src-renderer/stores/feed');
    useDesk.getState().setLayout({ ...useDesk.getState().layout, productId: 'BTC-VND', panels: [] });
    const stopOpening = listenWhileOpening(events.subscribe);
    await loadEverything();
    stopOpening();
    const stop = startFeed(events.subscribe);
    try {
      expect((useDesk.getState().trades['BTC-VND'] ?? []).map((t) => t.id).sort()).toEqual(['1', '2']);
      // Told after the feed took over, as before.
      events.tell('trades.received', { productId: 'BTC-VND', trades: [trade('3')] });
      expect((useDesk.getState().trades['BTC-VND'] ?? []).map((t) => t.id).sort()).toEqual(['1', '2', '3']);
    } finally {
      stop();
    }
  });
});
