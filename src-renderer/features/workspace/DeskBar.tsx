// The top bar: desk product, environment (Production in red) and connection state with latency.
import type { EnvironmentId } from '../../../src-shared/ipc/contract';
import { ENVIRONMENT_NAMES } from '../../../src-shared/ipc/environment-names';
import { shownLatency } from '../../stores/connection-view';
import { useDesk } from '../../stores/desk-store';
import { formatDecimal } from '../../ui/decimal-text';
import { ProductPicker } from './ProductPicker';


/** The environment the desk's session is on: what its orders go to, which the environments list can lag. */
export function useEnvironment(): { environment: EnvironmentId; production: boolean; name: string } {
  // Plain values, not the connection: a new one comes with every latency measured, and every window (a pop-out's
  // whole panel included) re-rendered with it.
  const environment = useDesk((s) => s.connection?.environment ?? s.environments?.active ?? 'local');
  const production = useDesk((s) => s.connection?.production) ?? environment === 'production';
  return { environment, production, name: production ? 'PRODUCTION' : ENVIRONMENT_NAMES[environment] };
}

/** Every window shows it, pop-outs too: none of them may leave the trader to guess where an order goes. */
export function EnvironmentBadge(): React.JSX.Element {
  const { production, name } = useEnvironment();
  return (
    <span className={production ? 'badge production-badge' : 'badge'} aria-label="Environment">
      {name}
    </span>
  );
}

export function DeskBar(): React.JSX.Element {
  const productId = useDesk((s) => s.layout.productId);
  const setProduct = useDesk((s) => s.setProduct);
  const connection = useDesk((s) => s.connection);
  const { production } = useEnvironment();
  const ticker = useDesk((s) => s.tickers[productId]);
  const latency = shownLatency(connection);
  return (
    <header className={production ? 'desk-bar production' : 'desk-bar'}>
      <strong>Nova Desk</strong>
      <ProductPicker label="Desk product" value={productId} onChange={setProduct} />
      {ticker !== undefined && <span className="muted">last {formatDecimal(ticker.price)}</span>}
      <EnvironmentBadge />
      <span aria-label="Connection state">
        {connection?.state ?? 'starting'}
        {latency !== undefined && ` · ${latency}`}
      </span>
    </header>
  );
}
