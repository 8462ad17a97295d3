/**
 * The depth ladder. React draws its rows once; after that the book reaches the DOM through a store
 * subscription and one requestAnimationFrame per change, writing text and bar widths into fixed rows, so a
 * book changing a thousand times a second costs at most one paint a frame and no React render.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { bookNotUpdated, bookStaleness } from '../../stores/connection-view';
import { cancelOrders } from '../../stores/desk-actions';
import { useDesk } from '../../stores/desk-store';
import { unreadOf } from '../../stores/market-slice';
import { paintOnChange } from '../../ui/paint-on-change';
import { Panel } from '../../ui/Panel';
import { formatDecimal } from '../../ui/decimal-text';
import { productIncrements } from './increments';
import { ladderFormats, paint, setText, type RowNodes } from './ladder-paint';
import { buildLadder, groupingSteps, type LadderRow } from './ladder-levels';
import { editTicketElsewhere } from '../workspace/pop-out';

const DEPTH = 20;

export function LadderPanel(props: { productId: string; height: number }): React.JSX.Element {
  const { productId } = props;
  const unread = useDesk((s) => unreadOf(s, productId, 'book'));
  // The venue's own increments: another venue's may differ from the built-in product's, which would drop its levels.
  const products = useDesk((s) => s.products);
  const increments = useMemo(() => productIncrements(productId, products), [productId, products]);
  const steps = groupingSteps(productId, increments);
  // The step chosen is the product's it was chosen on: another product (or increment) starts at its own first step,
  // never drawn for a frame grouped by the previous product's.
  const [chosen, setChosen] = useState<{ productId: string; step: string }>();
  const step = chosen !== undefined && chosen.productId === productId && steps.includes(chosen.step) ? chosen.step : (steps[0] ?? '1');
  const setStep = (value: string): void => setChosen({ productId, step: value });
  const [keepCentred, setKeepCentred] = useState(true);
  const edit = useDesk((s) => s.editTicket);
  // A frozen book's prices (an outage, or a book in doubt) are not offered to the ticket: the market may be anywhere by now.
  const stale = useDesk((s) => bookStaleness(s, productId));
  const asks = useRef<(RowNodes | undefined)[]>([]);
  const bids = useRef<(RowNodes | undefined)[]>([]);
  const shown = useRef<{ asks: LadderRow[]; bids: LadderRow[] }>({ asks: [], bids: [] });
  const spread = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const centredRef = useRef(keepCentred);
  centredRef.current = keepCentred;
  // Rows have fixed heights, so the spread never moves within the ladder: it needs centring again only after
  // the ladder scrolled or changed size. Centring reads layout, which at 60 frames a second is the frame's cost.
  const offCentre = useRef(true);

  const head = useRef<HTMLDivElement>(null);
  // The spread in the middle of the rows below the header, which stays at the top; and the ladder scrolled by
  // whole rows, so the top row starts at the header's foot: centred to the pixel, a row lay half under it.
  const centre = (): void => {
    const box = scroller.current;
    const mid = spread.current;
    const top = asks.current[0]?.row;
    if (box !== null && mid !== null && top !== undefined) {
      const header = head.current?.offsetHeight ?? 0;
      const centred = mid.offsetTop + mid.offsetHeight / 2 - header - (box.clientHeight - header) / 2;
      const first = top.offsetTop - header;
      const rows = Math.max(0, Math.round((centred - first) / top.offsetHeight));
      box.scrollTop = first + rows * top.offsetHeight;
    }
    offCentre.current = false;
  };

  useEffect(() => {
    offCentre.current = true;
  }, [props.height, keepCentred]);

  // Laid out, not after the paint: the rows are written for this product (and step) before the browser shows its
  // title, never a frame of the previous product's book under it.
  // Made again only when the product's increments change (a new listing, another product): drawn again then, at once.
  useLayoutEffect(() => {
    const formats = ladderFormats(increments);
    const draw = (): void => {
      const s = useDesk.getState();
      const book = s.books[productId];
      const ladder = buildLadder({
        increments,
        productId,
        bids: book?.bids ?? [],
        asks: book?.asks ?? [],
        step,
        depth: DEPTH,
        orders: Object.values(s.openOrders),
      });
      shown.current = ladder;
      // Asks are drawn worst at the top, so the best ask sits just above the spread.
      asks.current.forEach((nodes, i) => nodes && paint(nodes, ladder.asks[DEPTH - 1 - i], formats));
      bids.current.forEach((nodes, i) => nodes && paint(nodes, ladder.bids[i], formats));
      if (spread.current !== null) setText(spread.current, ladder.spread === '' ? '—' : `spread ${formats.price(ladder.spread)}`);
      if (centredRef.current && offCentre.current) centre();
    };
    draw();
    return paintOnChange(draw, (s, prev) => s.books[productId] !== prev.books[productId] || s.openOrders !== prev.openOrders).stop;
  }, [productId, step, increments]);

  const row = (side: 'ask' | 'bid', i: number): React.JSX.Element => {
    const refs = side === 'ask' ? asks : bids;
    const at = (): LadderRow | undefined => (side === 'ask' ? shown.current.asks[DEPTH - 1 - i] : shown.current.bids[i]);
    const nodes: Partial<RowNodes> = {};
    const keep = (key: keyof RowNodes) => (el: HTMLElement | null) => {
      if (el === null) return;
      (nodes as Record<string, HTMLElement>)[key] = el;
      if (Object.keys(nodes).length === 6) refs.current[i] = nodes as RowNodes;
    };
    return (
      <div key={`${side}${i}`} className={`level ${side}`} ref={keep('row')}>
        <div className="bar" ref={keep('bar')} aria-hidden="true" />
        <button type="button" className="price" ref={keep('price')} disabled={stale !== undefined} title={stale === undefined ? 'Use this price in the ticket' : bookNotUpdated(stale) ? 'The book is not being updated: this price is stale' : 'The connection is not live: this price is stale'} onClick={() => {
          const level = at();
          if (level === undefined || bookStaleness(useDesk.getState(), productId) !== undefined) return;
          const patch = { price: level.price, pricedFor: productId, priceTyped: false, side: level.side === 'bid' ? 'BUY' : 'SELL', type: 'LIMIT' } as const;
          edit(patch);
          // The ticket the trader means may be in another window: the workspace's, or one popped out.
          editTicketElsewhere(patch);
        }} />
        <span className="size num" ref={keep('size')} />
        <span className="total num muted" ref={keep('total')} />
        <button type="button" className="mine" hidden ref={keep('mine')} onClick={() => {
          const level = at();
          if (level !== undefined) void cancelOrders(level.mine.map((m) => m.orderId));
        }} />
      </div>
    );
  };

  const tools = (
    <>
      <label>Group
        <select value={step} onChange={(e) => setStep(e.target.value)}>
          {steps.map((s) => <option key={s} value={s}>{formatDecimal(s)}</option>)}
        </select>
      </label>
      <label><input type="checkbox" checked={keepCentred} onChange={(e) => setKeepCentred(e.target.checked)} /> Keep centred</label>
      <button type="button" onClick={centre}>Centre</button>
    </>
  );
  return (
    <Panel title={`Depth ladder ${productId}`} tools={tools} book={productId} unread={unread}>
      <div
        className="ladder"
        ref={scroller}
        // Strict containment keeps the relayout of changed levels inside the ladder.
        style={{ height: props.height, contain: 'strict' }}
        onScroll={() => (offCentre.current = true)}
      >
        <div className="level head muted" ref={head}><span>Price</span><span className="num">Size</span><span className="num">Total</span><span /></div>
        {Array.from({ length: DEPTH }, (_, i) => row('ask', i))}
        <div className="spread muted" ref={spread} />
        {Array.from({ length: DEPTH }, (_, i) => row('bid', i))}
      </div>
    </Panel>
  );
}
