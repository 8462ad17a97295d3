/**
 * The renderer bench page: the real store, feed, LadderPanel, TapePanel and blotters behind a desk that
 * changes the book as fast as the bench asks. `?scene=` picks what is on screen; bench/renderer.ts drives it.
 */
import { createRoot } from 'react-dom/client';
import { FillsPanel } from '../../src-renderer/features/blotters/FillsPanel';
import { OrderHistoryPanel } from '../../src-renderer/features/blotters/OrderHistoryPanel';
import { LadderPanel } from '../../src-renderer/features/ladder/LadderPanel';
import { TapePanel } from '../../src-renderer/features/tape/TapePanel';
import { on } from '../../src-renderer/bridge';
import { useDesk } from '../../src-renderer/stores/desk-store';
import { startFeed } from '../../src-renderer/stores/feed';
import '../../src-renderer/ui/theme.css';
import { ROW_HEIGHT } from '../../src-renderer/ui/VirtualTable';
import { fakeDesk } from './fake-desk';
import { WHEEL_PX_PER_SEC, type FrameRun, type Scene } from './page-api';
import { bookPool, fill, order, PRODUCT, trade } from './synthetic-market';

const BLOTTER_ROWS = 100_000;
const TABLE_HEIGHT = 600;

const scene = (new URLSearchParams(location.search).get('scene') ?? 'ladder-tape') as Scene;
const books = bookPool(4000);
const desk = fakeDesk(() => JSON.parse(books[0] ?? '{}'));
// Where the preload would have put it; the bridge reads it on first use.
(window as { nova?: unknown }).nova = desk.bridge;

const s = useDesk.getState();
if (scene === 'ladder-tape') {
  // A few resting orders of the trader's, so the ladder marks its own levels as it does on a desk.
  s.applyOrders(Array.from({ length: 12 }, (_, i) => order(i, 'ACTIVE')));
} else if (scene === 'order-history') {
  s.setHistory(Array.from({ length: BLOTTER_ROWS }, (_, i) => order(BLOTTER_ROWS - i, 'DONE')));
} else {
  s.addFills(Array.from({ length: BLOTTER_ROWS }, (_, i) => fill(BLOTTER_ROWS - i)));
}
startFeed(on);

function Scene(): React.JSX.Element {
  switch (scene) {
    case 'ladder-tape':
      return (
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
          <LadderPanel productId={PRODUCT} height={700} />
          <TapePanel productId={PRODUCT} height={700} />
        </div>
      );
    case 'order-history':
      return <OrderHistoryPanel height={TABLE_HEIGHT} />;
    case 'fills':
      return <FillsPanel height={TABLE_HEIGHT} />;
  }
}

const root = document.getElementById('root');
if (root === null) throw new Error('index.html lost its #root element');
createRoot(root).render(<Scene />);

/**
 * Emits `rate` events a second on a timer, each delivered separately, as many as are due at each tick. Events
 * are numbered on from the last run's, so every trade is new to the tape.
 */
function pace(rate: number, counter: { next: number }, each: (i: number) => void): { stop: () => number } {
  let sent = 0;
  const start = performance.now();
  const timer = rate <= 0 ? undefined : setInterval(() => {
    const due = Math.floor(((performance.now() - start) * rate) / 1000);
    for (; sent < due; sent++) each(counter.next++);
  }, 1);
  return { stop: () => (clearInterval(timer), sent) };
}

const bookCount = { next: 0 };
const tradeCount = { next: 0 };
// Trades are made while the feed runs, being numbered on without end; making one costs microseconds.
const tradeJson = (i: number): string => JSON.stringify({ productId: PRODUCT, trades: [trade(i)] });

window.novaBench = {
  record: ({ ms, bookRate, tradeRate, scroll }) =>
    new Promise<FrameRun>((resolve) => {
      const bookFeed = pace(bookRate, bookCount, (i) => desk.emit('book.changed', books[i % books.length] ?? '{}'));
      const tradeFeed = pace(tradeRate, tradeCount, (i) => desk.emit('trades.received', tradeJson(i)));
      const box = document.querySelector<HTMLElement>('.vtable');
      // Measured once: a drag moves the thumb, it does not make the page lay out again to find where to.
      const range = box === null ? 0 : box.scrollHeight - box.clientHeight;
      const stamps: number[] = [];
      const begin = performance.now();
      const frame = (now: number): void => {
        stamps.push(now);
        if (box !== null && scroll !== 'none') {
          const part = (now - begin) / ms;
          box.scrollTop = scroll === 'drag' ? part * range : (part * ms * WHEEL_PX_PER_SEC) / 1000;
        }
        if (now - begin < ms) {
          requestAnimationFrame(frame);
          return;
        }
        const rowsScrolled = box === null ? 0 : Math.round(box.scrollTop / ROW_HEIGHT);
        resolve({ stamps, books: bookFeed.stop(), trades: tradeFeed.stop(), rowsScrolled });
      };
      requestAnimationFrame(frame);
    }),
};
