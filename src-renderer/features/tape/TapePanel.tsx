/**
 * The trades tape, newest at the top, large trades highlighted. Like the ladder it is painted from a store
 * subscription into fixed rows once a frame, never through a React render per trade.
 */
import { useEffect, useRef, useState } from 'react';
import { useDesk, type DeskState } from '../../stores/desk-store';
import { Panel } from '../../ui/Panel';
import { formatDecimal, formatNanosTime, isDecimal } from '../../ui/decimal-text';
import { defaultLargeSize, isLargeTrade } from './large-trade';

const ROWS = 60;

export function TapePanel(props: { productId: string; height: number }): React.JSX.Element {
  const { productId } = props;
  const [large, setLarge] = useState(defaultLargeSize(productId));
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);

  useEffect(() => setLarge(defaultLargeSize(productId)), [productId]);

  useEffect(() => {
    let frame = 0;
    const threshold = isDecimal(large) ? large : '';
    const draw = (): void => {
      frame = 0;
      const trades = useDesk.getState().trades[productId] ?? [];
      rows.current.forEach((tr, i) => {
        if (tr === null) return;
        const t = trades[i];
        tr.hidden = t === undefined;
        if (t === undefined) return;
        const buy = t.side.toUpperCase() === 'BUY';
        tr.className = `${buy ? 'buy' : 'sell'}${isLargeTrade(t.size, threshold) ? ' large' : ''}`;
        const [time, price, size] = tr.cells;
        if (time) time.textContent = formatNanosTime(t.time);
        if (price) price.textContent = formatDecimal(t.price);
        if (size) size.textContent = formatDecimal(t.size);
      });
    };
    const schedule = (): void => {
      if (frame === 0) frame = requestAnimationFrame(draw);
    };
    schedule();
    const unsubscribe = useDesk.subscribe((s: DeskState, prev: DeskState) => {
      if (s.trades[productId] !== prev.trades[productId]) schedule();
    });
    return () => {
      unsubscribe();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [productId, large]);

  const tools = (
    <label>Large at
      <input size={6} inputMode="decimal" value={large} onChange={(e) => setLarge(e.target.value)} aria-invalid={large !== '' && !isDecimal(large)} />
    </label>
  );
  return (
    <Panel title={`Trades ${productId}`} tools={tools}>
      <div className="tape" style={{ height: props.height }}>
        <table aria-label={`Trades ${productId}`}>
          <thead><tr><th scope="col">Time</th><th scope="col" className="num">Price</th><th scope="col" className="num">Size</th></tr></thead>
          <tbody>
            {Array.from({ length: ROWS }, (_, i) => (
              <tr key={i} hidden ref={(el) => { rows.current[i] = el; }}><td /><td className="num" /><td className="num" /></tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
