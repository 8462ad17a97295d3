// The frame every panel sits in: a titled region, production marked in red, and the panel's own controls.
// A market panel (`market`) is marked stale, its content dimmed, while the connection is not live.
import type { ReactNode } from 'react';
import { marketStaleness } from '../stores/connection-view';
import { useDesk } from '../stores/desk-store';

export function Panel(props: { title: string; tools?: ReactNode; children: ReactNode; market?: boolean }): React.JSX.Element {
  const production = useDesk((s) => s.connection?.production ?? s.environments?.active === 'production');
  const stale = useDesk((s) => (props.market === true ? marketStaleness(s.connection) : undefined));
  const className = `panel${production ? ' production' : ''}${stale === undefined ? '' : ' stale'}`;
  return (
    <section className={className} aria-label={props.title}>
      <header className="panel-head">
        <h2>{props.title}</h2>
        {stale !== undefined && <span className="stale-mark" role="status" title="The connection is not live: this market data is not being updated">{stale}</span>}
        <div className="panel-tools">{props.tools}</div>
      </header>
      <div className="panel-body">{props.children}</div>
    </section>
  );
}
