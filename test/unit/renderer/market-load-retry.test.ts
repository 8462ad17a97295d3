/**
 * A product's market whose read fails as the window opens (the book's watch, the tape) is said on the panels that
 * show it and read again, instead of a notice gone in a moment and an empty ladder until an outage or the link coming
 * back. The bridge is scripted: a method in `failing` is refused as the desk refuses a call it cannot serve.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BookSnapshot, ConnectionStatus } from '../../../src-shared/ipc/contract';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

const live: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k', readOnly: false, detail: '' };
const book: BookSnapshot = {
  productId: 'BTC-VND', sequence: 7, time: '1800000000000000000', source: 'stream',
  bids: [{ price: '2500000000', size: '0.1', order_count: 1 }], asks: [{ price: '2500010000', size: '0.2', order_count: 1 }],
};
const trade = { id: 't1', price: '2500000000', size: '0.01', side: 'BUY', time: '1800000000000000000' };
const answers: Record<string, (request: { product_id?: string }) => unknown> = {
  'connection.status': () => live,
  'market.watch': () => book,
  'market.candles': () => [],
  'market.trades': () => [trade],
  'market.unwatch': () => ({ watching: [] }),
  'orders.active': () => [],
  'orders.history': () => [],
  'orders.fills': () => [],
  'account.get': () => undefined,
};
const failing = new Set<string>();
const calls: string[] = [];

beforeAll(() => {
  const nova = new Proxy({}, {
    get: (_target, method: string) => (request: { product_id?: string }) => {
      calls.push(method);
      if (failing.has(method)) return Promise.resolve({ ok: false, error: { ref: 'E0902_ServiceUnavailable', message: 'E0902_ServiceUnavailable: the venue did not answer' } });
      const answer = answers[method];
      return Promise.resolve(answer === undefined ? { ok: false, error: { ref: 'E0902_ServiceUnavailable', message: 'not scripted' } } : { ok: true, value: answer(request) });
    },
  });
  vi.stubGlobal('window', { nova, location: { protocol: 'http:', host: 'test' } });
});

afterEach(() => vi.useRealTimers());
afterAll(() => vi.unstubAllGlobals());

describe('a product\'s market that fails to load as the window opens', () => {
  it('is said on its ladder and tape, and read again until it loads', async () => {
    vi.useFakeTimers();
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { startFeed } = await import('../../../src-renderer/stores/feed');
    const { LadderPanel } = await import('../../../src-renderer/features/ladder/LadderPanel');
    const { TapePanel } = await import('../../../src-renderer/features/tape/TapePanel');
    const ladder = (): string => renderToStaticMarkup(createElement(LadderPanel, { productId: 'BTC-VND', height: 300 }));
    const tape = (): string => renderToStaticMarkup(createElement(TapePanel, { productId: 'BTC-VND', height: 300 }));
    useDesk.getState().setConnection(live);
    useDesk.getState().setLayout({ ...useDesk.getState().layout, productId: 'BTC-VND', panels: [] });
    failing.add('market.watch');
    failing.add('market.trades');
    const stop = startFeed(() => () => undefined);
    try {
      await vi.advanceTimersByTimeAsync(0);
      expect(useDesk.getState().books['BTC-VND']).toBeUndefined();
      expect(ladder()).toContain('Not loaded: E0902_ServiceUnavailable: the venue did not answer. Trying again.');
      expect(tape()).toContain('Not loaded: E0902_ServiceUnavailable: the venue did not answer. Trying again.');
      // The candles were read: the chart has nothing to say.
      expect(useDesk.getState().marketUnread['BTC-VND']?.candles).toBeUndefined();

      // Still failing: read again, still said.
      const watches = calls.filter((c) => c === 'market.watch').length;
      await vi.advanceTimersByTimeAsync(10_000);
      expect(calls.filter((c) => c === 'market.watch').length).toBeGreaterThan(watches);
      expect(ladder()).toContain('Not loaded');

      // The venue answers again: without an outage or a reload, the ladder and tape fill and the note goes.
      failing.clear();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(useDesk.getState().books['BTC-VND']?.sequence).toBe(7);
      expect(useDesk.getState().trades['BTC-VND']?.map((t) => t.id)).toEqual(['t1']);
      expect(ladder()).not.toContain('Not loaded');
      expect(tape()).not.toContain('Not loaded');
      // Loaded, it is not read again.
      const loaded = calls.filter((c) => c === 'market.watch').length;
      await vi.advanceTimersByTimeAsync(10_000);
      expect(calls.filter((c) => c === 'market.watch').length).toBe(loaded);
    } finally {
      stop();
    }
  });

  it('reads again only the part that failed: the candles, not the book beside them', async () => {
    vi.useFakeTimers();
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { startFeed } = await import('../../../src-renderer/stores/feed');
    useDesk.getState().setConnection(live);
    useDesk.getState().setLayout({ ...useDesk.getState().layout, productId: 'ETH-VND', panels: [] });
    calls.length = 0;
    failing.add('market.candles');
    const stop = startFeed(() => () => undefined);
    try {
      await vi.advanceTimersByTimeAsync(0);
      expect(useDesk.getState().marketUnread['ETH-VND']?.candles).toBeDefined();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(calls.filter((c) => c === 'market.candles').length).toBeGreaterThan(1);
      expect(calls.filter((c) => c === 'market.watch')).toEqual(['market.watch']);
    } finally {
      stop();
      failing.clear();
    }
  });
});
