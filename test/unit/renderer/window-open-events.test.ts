// What the desk tells a window while it opens: the window reads each product's market once (loadEverything), then
// the feed starts, and the desk keeps no event for a window that is not listening. A trade printed while the tape
// read was out reached neither the read's answer nor the tape. main.tsx listens from before the first read.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';
import { readOn, restingOrder, scriptedWindow, toldEvents } from './fixtures';

const local: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k', readOnly: false, detail: '' };
const development: ConnectionStatus = { ...local, environment: 'development', apiKey: 'k-dev' };
/** Where the desk is: it switches while the window reads its open orders, in the second case. */
let desk = local;
let switchWhileReadingOrders = false;
let statusRead: () => void = () => undefined;
let statusWasRead = Promise.resolve();
const trade = (id: string) => ({ id, product_id: 'BTC-VND', price: '2500000000', size: '0.01', side: 'BUY' as const, time: id });
/** Each case its own: a stopped feed's handlers stay in a told-events table. */
let events = toldEvents();

beforeAll(() => {
  scriptedWindow({
    'connection.status': () => (statusRead(), desk),
    'market.watch': ({ product_id }: { product_id: string }) => ({ productId: product_id, sequence: 1, time: '1', source: 'stream', bids: [], asks: [] }),
    'market.candles': () => [],
    // Trade 2 prints after the venue answered the read with trade 1, and the desk tells it before the answer arrives.
    'market.trades': () => {
      events.tell('trades.received', { productId: 'BTC-VND', trades: [trade('2')] });
      return [trade('1')];
    },
    'market.products': () => [],
    'orders.active': async () => {
      if (!switchWhileReadingOrders || desk === development) return [];
      // Answered on Local, after the window read the status; the desk then switches to Development and says so.
      await statusWasRead;
      desk = development;
      events.tell('connection.changed', development);
      return [restingOrder('LOCAL-1')];
    },
    'orders.history': () => [],
    'orders.fills': () => readOn({ environment: desk.environment }, []),
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
    const loaded = await loadEverything();
    stopOpening();
    const stop = startFeed(events.subscribe, loaded);
    try {
      expect((useDesk.getState().trades['BTC-VND'] ?? []).map((t) => t.id).sort()).toEqual(['1', '2']);
      // Told after the feed took over, as before.
      events.tell('trades.received', { productId: 'BTC-VND', trades: [trade('3')] });
      expect((useDesk.getState().trades['BTC-VND'] ?? []).map((t) => t.id).sort()).toEqual(['1', '2', '3']);
    } finally {
      stop();
    }
  });

  it('acts on a switch the desk told while the window read what it shows: the other environment\'s orders go', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { listenWhileOpening, loadEverything, startFeed } = await import('../../../src-renderer/stores/feed');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    switchWhileReadingOrders = true;
    events = toldEvents();
    statusWasRead = new Promise<void>((resolve) => (statusRead = resolve));
    const stopOpening = listenWhileOpening(events.subscribe);
    const loaded = await loadEverything();
    stopOpening();
    const stop = startFeed(events.subscribe, loaded);
    try {
      // The status poll brings the switch the window did not take while it opened, and the switch is acted on.
      await vi.advanceTimersByTimeAsync(2_500);
      await vi.waitFor(() => expect(useDesk.getState().connection?.environment).toBe('development'));
      await vi.waitFor(() => expect(Object.keys(useDesk.getState().openOrders)).toEqual([]));
    } finally {
      stop();
      vi.useRealTimers();
    }
  });
});
