// Balances (free and locked), fee rates, and the venue's order and trading statistics for this account.
import { useMemo } from 'react';
import { useDesk } from '../../stores/desk-store';
import { Panel } from '../../ui/Panel';
import { ReadFailed } from '../../ui/ReadFailed';
import { formatDecimal, multiplyDecimal } from '../../ui/decimal-text';
import { alignedBalances, assetDecimals } from './balance-precision';
import { volumeUnit } from './volume-unit';

const percent = (rate: string): string => `${formatDecimal(multiplyDecimal(rate, '100'))}%`;

export function AccountPanel(): React.JSX.Element {
  const account = useDesk((s) => s.account);
  const problem = useDesk((s) => s.accountProblem);
  // From the products, not inside the selector: that ran at every store update, book frames included.
  const products = useDesk((s) => s.products);
  const unit = useMemo(() => volumeUnit(products), [products]);
  if (account === undefined) {
    return <Panel title="Account" account><p className="muted">{problem ?? 'No account yet: connect with an API key.'}</p><table aria-label="Balances"><tbody /></table></Panel>;
  }
  const { order_stats: orders, trading_stats: trading } = account.stats;
  return (
    <Panel title="Account" account>
      <ReadFailed problem={problem} />
      <table aria-label="Balances" className="grid">
        <thead>
          <tr><th scope="col">Asset</th><th scope="col" className="num">Free</th><th scope="col" className="num">Locked</th><th scope="col" className="num">Total</th></tr>
        </thead>
        <tbody>
          {account.asset_balances.map((b) => {
            const [free, locked, total] = alignedBalances([b.free, b.locked, b.balance], assetDecimals(b.asset, products));
            return (
              <tr key={b.asset}>
                <th scope="row">{b.asset}</th>
                <td className="num">{free}</td>
                <td className="num">{locked}</td>
                <td className="num">{total}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <dl className="facts">
        <dt>Maker fee</dt><dd>{percent(account.maker_fee_rate)}</dd>
        <dt>Taker fee</dt><dd>{percent(account.taker_fee_rate)}</dd>
        {/* Counts are figures too, grouped as the volume below them is. */}
        <dt>Orders</dt><dd>{formatDecimal(orders.total_orders)}</dd>
        <dt>Open</dt><dd>{formatDecimal(orders.total_open_orders)}</dd>
        <dt>Pending</dt><dd>{formatDecimal(orders.total_pending_orders)}</dd>
        <dt>Accepted</dt><dd>{formatDecimal(orders.total_accepted_orders)}</dd>
        <dt>Done</dt><dd>{formatDecimal(orders.total_done_orders)}</dd>
        <dt>Volume traded</dt><dd>{formatDecimal(trading.total_trading_volume)} {unit}</dd>
      </dl>
    </Panel>
  );
}
