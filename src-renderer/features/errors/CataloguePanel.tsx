// The error catalogue, for looking up a reference a trader has seen: the venue's and the desk's own.
import { useState } from 'react';
import { Panel } from '../../ui/Panel';
import { catalogueRows } from './catalogue-rows';

const FROM_WORDS = { venue: 'Venue', desk: 'This desk' } as const;

export function CataloguePanel(): React.JSX.Element {
  const [query, setQuery] = useState('');
  const rows = catalogueRows(query);
  return (
    <Panel title="Error catalogue" tools={<input aria-label="Search errors" placeholder="E0201 or words" value={query} onChange={(e) => setQuery(e.target.value)} />}>
      <table aria-label="Error catalogue" className="grid">
        <thead><tr><th>Reference</th><th>From</th><th>Title</th><th>Message</th><th>Action</th></tr></thead>
        <tbody>
          {rows.map((r) => <tr key={r.ref}><td><code>{r.ref}</code></td><td>{FROM_WORDS[r.from]}</td><td>{r.title}</td><td>{r.message}</td><td>{r.action}</td></tr>)}
        </tbody>
      </table>
    </Panel>
  );
}
