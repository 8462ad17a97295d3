/**
 * A tape and a last price whose streams the desk says are in doubt (cut off by a lost connection, their subs not
 * answered again) are marked stale as a book in doubt is, though the connection is live, and say why; once the desk
 * says they stream again the marks go. The desk's events are told through the feed, the panels drawn with
 * react-dom/server; the bridge is scripted.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, Ticker } from '../../../src-shared/ipc/contract';
import type { PublicTrade } from '../../../src-shared/protocol/records';
import { TapePanel } from '../../../src-renderer/features/tape/TapePanel';
import { DeskBar } from '../../../src-renderer/features/workspace/DeskBar';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { scriptedWindow, toldEvents } from './fixtures';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

const BTC = 'BTC-VND';
const live: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k', readOnly: false, detail: '' };
const trade = (n: number): PublicTrade => ({ id: `t${n}`, product_id: BTC, price: '2500000000', size: '0.001', side: 'BUY', time: String(1_800_000_000_000_000_000n + BigInt(n)) });
const ticker = (price: string): Ticker => ({ productId: BTC, price, bestBid: '', bestAsk: '', volume24h: '0', time: '1' });

/** The mark each view shows, with its title's first words, or 'no mark'. */
function marks(): { tape: string; lastPrice: string } {
  const mark = (html: string): string => {
    const found = /class="stale-mark"(?: role="status")? title="([^"(:]*)[^"]*">([^<]*)</.exec(html);
    return found === null ? 'no mark' : `${found[2]} (${(found[1] ?? '').trim()})`;
  };
  // The desk bar marks nothing but its last price.
  return { tape: mark(renderToStaticMarkup(createElement(TapePanel, { productId: BTC, height: 300 }))), lastPrice: mark(renderToStaticMarkup(createElement(DeskBar))) };
}

afterAll(() => vi.unstubAllGlobals());

describe('the tape and the last price of streams in doubt', () => {
  it('are marked not updated while the desk says so, and not once their streams are back', async () => {
    scriptedWindow({
      'connection.status': () => live,
      'market.watch': () => ({ productId: BTC, sequence: 1, time: '1', source: 'stream', bids: [], asks: [] }),
      'market.candles': () => [],
      'market.trades': () => [trade(1)],
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
      await vi.waitFor(() => expect(useDesk.getState().trades[BTC]).toHaveLength(1));
      tell('ticker.changed', ticker('2500000000'));
      expect(marks()).toEqual({ tape: 'no mark', lastPrice: 'no mark' });

      // A lost connection; the session is live again, but the trades and ticker subs are not answered.
      tell('trades.received', { productId: BTC, trades: [], inDoubt: true });
      tell('ticker.changed', { ...ticker('2500000000'), inDoubt: true });
      // A read of the tape (another panel's, a retry) is the venue's now but says nothing of the stream.
      tell('trades.received', { productId: BTC, trades: [trade(2)], inDoubt: true });
      expect(marks()).toEqual({ tape: 'stale: not updated (The trades are not being updated)', lastPrice: 'stale: not updated (The last price is not being updated)' });

      // The subs answered: the tape streams (the trades missed come with it), the sub brings a ticker.
      tell('trades.received', { productId: BTC, trades: [trade(3)] });
      tell('ticker.changed', ticker('2510000000'));
      expect(marks()).toEqual({ tape: 'no mark', lastPrice: 'no mark' });
      expect(useDesk.getState().trades[BTC]?.map((t) => t.id)).toEqual(['t3', 't2', 't1']);

      // An outage says so in its own words.
      tell('trades.received', { productId: BTC, trades: [], inDoubt: true });
      useDesk.getState().setConnection({ ...live, state: 'reconnecting' });
      expect(marks().tape).toBe('stale: reconnecting (The connection is not live)');
    } finally {
      stop();
    }
  });
});
