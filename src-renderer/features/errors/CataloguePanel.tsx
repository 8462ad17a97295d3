// The venue's error catalogue, for looking up a reference a trader has seen.
import { useState } from 'react';
import { ERROR_CATALOGUE } from '../../../src-shared/errors/catalogue';
import { Panel } from '../../ui/Panel';

export function CataloguePanel(): React.JSX.Element {
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const rows = ERROR_CATALOGUE.filter((r) => q === '' || `${r.ref} ${r.title} ${r.message}`.toLowerCase().includes(q));
  return (
    <Panel title="Error catalogue" tools={<input aria-label="Search errors" placeholder="E0201 or words" value={query} onChange={(e) => setQuery(e.target.value)} />}>
      <table aria-label="Error catalogue" className="grid">
        <thead><tr><th>Reference</th><th>Title</th><th>Message</th><th>Action</th></tr></thead>
        <tbody>
          {rows.map((r) => <tr key={r.ref}><td><code>{r.ref}</code></td><td>{r.title}</td><td>{r.message}</td><td>{r.action}</td></tr>)}
        </tbody>
      </table>
    </Panel>
  );
}
