// The frame every panel sits in: a titled region, production marked in red, and the panel's own controls.
// A market panel (`market`) or one of the trader's orders, fills or balances (`account`) is marked stale, its
// content dimmed, while the connection is not live.
import type { ReactNode } from 'react';
import { staleness, useProduction } from '../stores/connection-view';
import { useDesk } from '../stores/desk-store';

const STALE_TITLE = {
  market: 'The connection is not live: this market data is not being updated',
  account: 'The connection is not live: orders may have filled or been canceled since, and balances moved, without showing here',
} as const;

/**
 * `inDoubt`: why the panel's own data cannot be trusted though the connection is live (a book whose stream had a
 * gap, or whose polls fail): marked stale as an outage is, saying why.
 */
export function Panel(props: { title: string; tools?: ReactNode; children: ReactNode; market?: boolean; account?: boolean; inDoubt?: string }): React.JSX.Element {
  const production = useProduction();
  const kind = props.market === true ? 'market' : props.account === true ? 'account' : undefined;
  const outage = useDesk((s) => (kind === undefined ? undefined : staleness(s.connection)));
  const stale = outage ?? (props.inDoubt === undefined ? undefined : 'stale: not updated');
  const className = `panel${production ? ' production' : ''}${stale === undefined ? '' : ' stale'}`;
  return (
    <section className={className} aria-label={props.title}>
      <header className="panel-head">
        <h2>{props.title}</h2>
        {stale !== undefined && kind !== undefined && <span className="stale-mark" role="status" title={outage === undefined ? props.inDoubt : STALE_TITLE[kind]}>{stale}</span>}
        <div className="panel-tools">{props.tools}</div>
      </header>
      <div className="panel-body">{props.children}</div>
    </section>
  );
}
