// The frame every panel sits in: a titled region, production marked in red, and the panel's own controls.
import type { ReactNode } from 'react';
import { useDesk } from '../stores/desk-store';

export function Panel(props: { title: string; tools?: ReactNode; children: ReactNode }): React.JSX.Element {
  const production = useDesk((s) => s.connection?.production ?? s.environments?.active === 'production');
  return (
    <section className={production ? 'panel production' : 'panel'} aria-label={props.title}>
      <header className="panel-head">
        <h2>{props.title}</h2>
        <div className="panel-tools">{props.tools}</div>
      </header>
      <div className="panel-body">{props.children}</div>
    </section>
  );
}
