// Candles for a product with the trader's open orders as lines and fills as arrows; redrawn once a frame.
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useDesk } from '../../stores/desk-store';
import { unreadOf } from '../../stores/market-slice';
import { paintOnChange } from '../../ui/paint-on-change';
import { Panel } from '../../ui/Panel';
import type { FillMark, PriceLine } from './candle-chart';
import { createLightweightChart } from './lightweight-chart';
import { productIncrements } from '../ladder/increments';
import { restsOnBook } from '../ladder/ladder-levels';
import { CHART_INTERVALS, mergeTrades, rollUp, type ChartInterval } from './candles';

const side = (s: string): 'BUY' | 'SELL' => (s.toUpperCase() === 'BUY' ? 'BUY' : 'SELL');

export function ChartPanel(props: { productId: string; height: number }): React.JSX.Element {
  const { productId } = props;
  const unread = useDesk((s) => unreadOf(s, productId, 'candles'));
  const host = useRef<HTMLDivElement>(null);
  const [minutes, setMinutes] = useState<ChartInterval>(1);
  // The venue's increment: prices show at its precision, also on a venue whose products differ from the built-in ones.
  // Worked out when the products change, not in a selector that every book frame runs.
  const products = useDesk((s) => s.products);
  const priceIncrement = useMemo(() => productIncrements(productId, products)?.price ?? '1', [productId, products]);

  // Laid out, not after the paint: the previous product's chart is gone before the browser shows the new title.
  useLayoutEffect(() => {
    if (host.current === null) return;
    const chart = createLightweightChart(host.current, priceIncrement);
    const draw = (): void => {
      const s = useDesk.getState();
      const venue = s.candles[productId] ?? [];
      // The venue's candles are the record; the tape fills in when the venue has sent none yet.
      const candles = rollUp(venue.length > 0 ? venue : mergeTrades([], s.trades[productId] ?? []), minutes, -new Date().getTimezoneOffset());
      const orders: PriceLine[] = Object.values(s.openOrders)
        .filter((o) => o.product_id === productId && restsOnBook(o))
        .map((o) => ({ price: o.limit_price, side: side(o.side) }));
      const fills: FillMark[] = s.fills.filter((f) => f.productId === productId).slice(0, 200).map((f) => ({ time: f.time, price: f.price, side: side(f.side), size: f.size }));
      chart.draw(candles, orders, fills, minutes * 60);
    };
    const painter = paintOnChange(draw, (s, prev) =>
      s.candles[productId] !== prev.candles[productId] || s.trades[productId] !== prev.trades[productId] || s.openOrders !== prev.openOrders || s.fills !== prev.fills);
    painter.schedule();
    return () => {
      painter.stop();
      chart.dispose();
    };
  }, [productId, minutes, priceIncrement]);

  const tools = (
    <select aria-label={`Candle length ${productId}`} value={minutes} onChange={(e) => setMinutes(Number(e.target.value) as ChartInterval)}>
      {CHART_INTERVALS.map((m) => <option key={m} value={m}>{m < 60 ? `${m}m` : `${m / 60}h`}</option>)}
    </select>
  );
  return (
    <Panel title={`Chart ${productId}`} tools={tools} candles={productId} unread={unread}>
      <div ref={host} className="chart" style={{ height: props.height }} role="img" aria-label={`Candles for ${productId} with your orders and fills`} />
    </Panel>
  );
}
