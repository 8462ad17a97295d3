// The top bar: desk product, environment (Production in red) and connection state with latency.
import { shownLatency } from '../../stores/connection-view';
import { useDesk } from '../../stores/desk-store';
import { formatDecimal } from '../../ui/decimal-text';
import { ProductPicker } from './ProductPicker';

export function DeskBar(): React.JSX.Element {
  const productId = useDesk((s) => s.layout.productId);
  const setProduct = useDesk((s) => s.setProduct);
  const connection = useDesk((s) => s.connection);
  const environment = useDesk((s) => s.environments?.active ?? connection?.environment ?? 'local');
  const production = connection?.production ?? environment === 'production';
  const ticker = useDesk((s) => s.tickers[productId]);
  const latency = shownLatency(connection);
  return (
    <header className={production ? 'desk-bar production' : 'desk-bar'}>
      <strong>Nova Desk</strong>
      <ProductPicker label="Desk product" value={productId} onChange={setProduct} />
      {ticker !== undefined && <span className="muted">last {formatDecimal(ticker.price)}</span>}
      <span className={production ? 'badge production-badge' : 'badge'} aria-label="Environment">
        {production ? 'PRODUCTION' : environment}
      </span>
      <span aria-label="Connection state">
        {connection?.state ?? 'starting'}
        {latency !== undefined && ` · ${latency}`}
      </span>
    </header>
  );
}
