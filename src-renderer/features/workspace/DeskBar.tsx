// The top bar: desk product, environment (Production in red) and connection state with latency.
import { useMemo } from 'react';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';
import { bookNotUpdated, shownLatency, tickerStaleness, useActingEnvironment } from '../../stores/connection-view';
import { useDesk } from '../../stores/desk-store';
import { formatDecimal } from '../../ui/decimal-text';
import { assetsOf } from '../ladder/increments';
import { ProductPicker } from './ProductPicker';

/** Every window shows it, pop-outs too: none of them may leave the trader to guess where an order goes. */
export function EnvironmentBadge(): React.JSX.Element {
  const { production, name } = useActingEnvironment();
  return (
    <span className={production ? 'badge production-badge' : 'badge'} aria-label="Environment">
      {name}
    </span>
  );
}

/**
 * The connection's state as the trader reads it. The states are words already, but for no_key, which the bar showed
 * as it is named in code ("Development | no_key").
 */
export function connectionStateText(state: ConnectionStatus['state'] | undefined): string {
  if (state === undefined) return 'starting';
  return state === 'no_key' ? 'no API key: market data only' : state;
}

export function DeskBar(): React.JSX.Element {
  const productId = useDesk((s) => s.layout.productId);
  const setProduct = useDesk((s) => s.setProduct);
  const connection = useDesk((s) => s.connection);
  const { production } = useActingEnvironment();
  const ticker = useDesk((s) => s.tickers[productId]);
  // Named as every other amount on the desk is: a bare figure could be in any currency the venue quotes in. Looked up
  // when the product or the listing changes, not in a selector, which every store update (each book, each trade) runs.
  const products = useDesk((s) => s.products);
  const { quote } = useMemo(() => assetsOf(productId, products), [productId, products]);
  const latency = shownLatency(connection);
  const stale = useDesk((s) => tickerStaleness(s, productId));
  return (
    <header className={production ? 'desk-bar production' : 'desk-bar'}>
      <strong>Nova Desk</strong>
      <ProductPicker label="Desk product" value={productId} onChange={setProduct} />
      {ticker !== undefined && (
        // The last trade heard, which stops moving with the connection or its stream: marked as the market panels are.
        <span className="muted" aria-label="Last price">
          last {formatDecimal(ticker.price)} {quote}
          {stale !== undefined && <> <span className="stale-mark" title={bookNotUpdated(stale) ? 'The last price is not being updated (its stream was cut off): this is the last price heard, not the market\'s now' : 'The connection is not live: this is the last price heard, not the market\'s now'}>{stale}</span></>}
        </span>
      )}
      <EnvironmentBadge />
      <span aria-label="Connection state">
        {connectionStateText(connection?.state)}
        {latency !== undefined && ` · ${latency}`}
      </span>
    </header>
  );
}
