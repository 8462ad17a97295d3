/**
 * The trades tape, newest at the top, large trades highlighted. Like the ladder it is painted from a store
 * subscription into fixed rows once a frame, never through a React render per trade.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { PublicTrade } from '../../../src-shared/protocol/records';
import { useDesk } from '../../stores/desk-store';
import { unreadOf } from '../../stores/market-slice';
import { paintOnChange } from '../../ui/paint-on-change';
import { Panel } from '../../ui/Panel';
import { formatNanosTime } from '../../ui/decimal-text';
import { FieldError, invalidMarks } from '../../ui/field-error';
import { formatToIncrement, productIncrements } from '../ladder/increments';
import { defaultLargeSize, isLargeTrade, largeThreshold } from './large-trade';

const ROWS = 60;

// Every write dirties layout even when the value is the same, so only what changed is written.
function setText(cell: HTMLTableCellElement | undefined, text: string): void {
  if (cell !== undefined && cell.textContent !== text) cell.textContent = text;
}

export function TapePanel(props: { productId: string; height: number }): React.JSX.Element {
  const { productId } = props;
  const unread = useDesk((s) => unreadOf(s, productId, 'trades'));
  // A threshold typed is the product's it was typed on: another product starts at its own default.
  const [typed, setTyped] = useState<{ productId: string; large: string }>();
  const large = typed?.productId === productId ? typed.large : defaultLargeSize(productId);
  const setLarge = (value: string): void => setTyped({ productId, large: value });
  const { threshold, problem } = largeThreshold(large);
  // Prices and sizes at the venue's increments for the product, so the columns line up at its precision.
  const products = useDesk((s) => s.products);
  const increments = useMemo(() => productIncrements(productId, products), [productId, products]);
  const body = useRef<HTMLTableSectionElement>(null);

  // Laid out, not after the paint: the rows are written for this product before the browser shows its title, never
  // a frame of the previous product's trades under it.
  useLayoutEffect(() => {
    // The trade each row shows, so a row still showing its trade is not written again.
    const showing = new WeakMap<HTMLTableRowElement, PublicTrade>();
    const draw = (): void => {
      const tbody = body.current;
      if (tbody === null) return;
      const trades = useDesk.getState().trades[productId] ?? [];
      const rows = tbody.rows;
      // New trades come in on top: as many rows move from the bottom to the top, and only they are written,
      // where rewriting every row would relayout the whole tape at each print.
      const first = rows[0];
      const top = first === undefined ? undefined : showing.get(first);
      const fresh = top === undefined ? -1 : trades.indexOf(top);
      for (let n = 0; fresh < rows.length && n < fresh; n++) {
        const last = rows[rows.length - 1];
        const head = rows[0];
        if (last !== undefined && head !== undefined) tbody.insertBefore(last, head);
      }
      for (let i = 0; i < rows.length; i++) {
        const tr = rows[i];
        const t = trades[i];
        if (tr === undefined || (t !== undefined && showing.get(tr) === t)) continue;
        if (tr.hidden !== (t === undefined)) tr.hidden = t === undefined;
        if (t === undefined) {
          showing.delete(tr);
          continue;
        }
        showing.set(tr, t);
        const buy = t.side.toUpperCase() === 'BUY';
        const className = `${buy ? 'buy' : 'sell'}${isLargeTrade(t.size, threshold) ? ' large' : ''}`;
        if (tr.className !== className) tr.className = className;
        const [time, price, size] = tr.cells;
        setText(time, formatNanosTime(t.time));
        setText(price, formatToIncrement(t.price, increments?.price));
        setText(size, formatToIncrement(t.size, increments?.size));
      }
    };
    draw();
    return paintOnChange(draw, (s, prev) => s.trades[productId] !== prev.trades[productId]).stop;
  }, [productId, threshold, increments]);

  const tools = (
    <>
      <label>Large at
        <input size={6} inputMode="decimal" value={large} onChange={(e) => setLarge(e.target.value)} {...invalidMarks(`large-at-${productId}-error`, problem)} />
      </label>
      <FieldError id={`large-at-${productId}-error`} text={problem} />
    </>
  );
  return (
    <Panel title={`Trades ${productId}`} tools={tools} tape={productId} unread={unread}>
      {/* Strict containment and fixed column widths: a new trade relayouts the tape's rows, nothing around them. */}
      <div className="tape" style={{ height: props.height, contain: 'strict' }}>
        <table aria-label={`Trades ${productId}`} style={{ tableLayout: 'fixed' }}>
          <colgroup><col style={{ width: '40%' }} /><col style={{ width: '35%' }} /><col style={{ width: '25%' }} /></colgroup>
          <thead><tr><th scope="col">Time</th><th scope="col" className="num">Price</th><th scope="col" className="num">Size</th></tr></thead>
          <tbody ref={body}>
            {Array.from({ length: ROWS }, (_, i) => (
              <tr key={i} hidden><td /><td className="num" /><td className="num" /></tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
