/**
 * The chart's candles whose stream the desk says is in doubt (its sub not answered) are marked stale as the tape is,
 * though the connection is live, and say why; once the desk says they stream again the mark goes. A window that
 * starts watching a product while its streams are in doubt is told so by its watch, with no event to come: its tape,
 * chart and last price are marked from the first; so is a window whose link to the desk comes back (browser mode), the
 * events that said so lost. The desk's events are told through the feed, the panels drawn with react-dom/server; the
 * bridge is scripted.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, Ticker, WatchAnswer } from '../../../src-shared/ipc/contract';
import type { Candle } from '../../../src-shared/protocol/ws';
import { ChartPanel } from '../../../src-renderer/features/chart/ChartPanel';
import { TapePanel } from '../../../src-renderer/features/tape/TapePanel';
import { DeskBar } from '../../../src-renderer/features/workspace/DeskBar';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { toldEvents } from './fixtures';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

const answers: Record<string, () => unknown> = {};
const linkListeners = new Set<(state: 'lost' | 'back') => void>();
vi.mock('../../../src-renderer/bridge', () => {
  class BridgeError extends Error {}
  const call = (method: string): Promise<unknown> => Promise.resolve(answers[method]?.());
  const callOnSession = async (method: string): Promise<unknown> => ({ value: await call(method), session: { environment: 'local', apiKey: 'k' } });
  const onBridgeLink = (listener: (state: 'lost' | 'back') => void): (() => void) => {
    linkListeners.add(listener);
    return () => void linkListeners.delete(listener);
  };
  return { BridgeError, call, callOnSession, onBridgeLink, refusalOf: (err: unknown) => err };
});

const BTC = 'BTC-VND';
const live: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k', readOnly: false, detail: '' };
const candle = (close: string): Candle => ({ start: '1800000000', open: close, high: close, low: close, close, volume: '0.01' });
const ticker = (price: string): Ticker => ({ productId: BTC, price, bestBid: '', bestAsk: '', volume24h: '0', time: '1' });

/** The mark a view shows, with its title's first words, or 'no mark'. */
function mark(html: string): string {
  const found = /class="stale-mark"(?: role="status")? title="([^"(:]*)[^"]*">([^<]*)</.exec(html);
  return found === null ? 'no mark' : `${found[2]} (${(found[1] ?? '').trim()})`;
}
const chartMark = (): string => mark(renderToStaticMarkup(createElement(ChartPanel, { productId: BTC, height: 300 })));
const tapeMark = (): string => mark(renderToStaticMarkup(createElement(TapePanel, { productId: BTC, height: 300 })));
const lastPriceMark = (): string => mark(renderToStaticMarkup(createElement(DeskBar)));

let watchAnswer: WatchAnswer = { productId: BTC, sequence: 1, time: '1', source: 'stream', bids: [], asks: [] };

describe('streams in doubt', () => {
  it('mark the chart not updated while the desk says its candles are, and not once they stream again', async () => {
    Object.assign(answers, {
      'connection.status': () => live,
      'market.watch': () => watchAnswer,
      'market.candles': () => [candle('2500000000')],
      'market.trades': () => [],
      'orders.active': () => [],
      'orders.history': () => [],
      'orders.fills': () => [],
    });
    const { startFeed } = await import('../../../src-renderer/stores/feed');
    const { subscribe, tell } = toldEvents();
    useDesk.getState().setConnection(live);
    useDesk.getState().setLayout({ ...useDesk.getState().layout, productId: BTC });
    const stop = startFeed(subscribe);
    try {
      await vi.waitFor(() => expect(useDesk.getState().candles[BTC]).toHaveLength(1));
      expect(chartMark()).toBe('no mark');

      // A lost connection; the session is live again, but the candles sub is not answered.
      tell('candles.changed', { productId: BTC, candles: [candle('2500000000')], inDoubt: true });
      expect(chartMark()).toBe('stale: not updated (The candles are not being updated)');

      // The sub answered: the candles stream again.
      tell('candles.changed', { productId: BTC, candles: [candle('2510000000')] });
      expect(chartMark()).toBe('no mark');

      // An outage says so in its own words.
      tell('candles.changed', { productId: BTC, candles: [candle('2510000000')], inDoubt: true });
      useDesk.getState().setConnection({ ...live, state: 'reconnecting' });
      expect(chartMark()).toBe('stale: reconnecting (The connection is not live)');
      useDesk.getState().setConnection(live);

      // The window leaves the product and comes back to it while the desk's subs are still unanswered (another window
      // keeps it watched): what it held is forgotten, and its watch says the tape, ticker and candles are in doubt.
      tell('ticker.changed', ticker('2510000000'));
      watchAnswer = { ...watchAnswer, feedsInDoubt: ['trades', 'ticker', 'candles'] };
      useDesk.getState().setLayout({ ...useDesk.getState().layout, productId: 'ETH-VND' });
      expect(useDesk.getState().candles[BTC]).toBeUndefined();
      useDesk.getState().setLayout({ ...useDesk.getState().layout, productId: BTC });
      await vi.waitFor(() => expect(useDesk.getState().candles[BTC]).toHaveLength(1));
      await vi.waitFor(() => expect(chartMark()).toBe('stale: not updated (The candles are not being updated)'));
      expect(tapeMark()).toBe('stale: not updated (The trades are not being updated)');
      expect(useDesk.getState().books[BTC]).not.toHaveProperty('feedsInDoubt');

      // The streams answered again, and the window told so; then its link to the desk drops and the desk loses its
      // connection meanwhile: the events saying so are lost with the link. Back, its watch says so.
      watchAnswer = { ...watchAnswer, feedsInDoubt: [] };
      tell('trades.received', { productId: BTC, trades: [] });
      tell('candles.changed', { productId: BTC, candles: [candle('2510000000')] });
      tell('ticker.changed', ticker('2510000000'));
      expect([tapeMark(), chartMark(), lastPriceMark()]).toEqual(['no mark', 'no mark', 'no mark']);
      for (const listen of linkListeners) listen('lost');
      watchAnswer = { ...watchAnswer, feedsInDoubt: ['trades', 'ticker', 'candles'] };
      for (const listen of linkListeners) listen('back');
      await vi.waitFor(() => expect(useDesk.getState().connection?.state).toBe('live'));
      await vi.waitFor(() => expect([tapeMark(), chartMark(), lastPriceMark()]).toEqual([
        'stale: not updated (The trades are not being updated)',
        'stale: not updated (The candles are not being updated)',
        'stale: not updated (The last price is not being updated)',
      ]));
    } finally {
      stop();
    }
  });
});
