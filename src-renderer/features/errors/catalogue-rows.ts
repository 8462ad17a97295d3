// The rows of the error catalogue panel: every reference a window can tell the trader, so any one seen in a
// notice can be looked up here.
import { DESK_ERROR_CATALOGUE, ERROR_CATALOGUE, type ErrorCodeRecord } from '../../../src-shared/errors/catalogue';

export interface CatalogueRow extends ErrorCodeRecord {
  /** Who answers with it: a venue, or this desk about the trader's own machine (E08xx), which no venue sends. */
  readonly from: 'venue' | 'desk';
}

const ROWS: readonly CatalogueRow[] = [
  ...ERROR_CATALOGUE.map((r): CatalogueRow => ({ ...r, from: 'venue' })),
  // Notices explain these with the same words (findErrorRecord): a reference the panel left out sent a trader
  // who looked up E0801 to nothing.
  ...DESK_ERROR_CATALOGUE.map((r): CatalogueRow => ({ ...r, from: 'desk' })),
];

/** The rows whose reference, title or message contains `query` (case-insensitive); all of them for ''. */
export function catalogueRows(query: string): readonly CatalogueRow[] {
  const q = query.trim().toLowerCase();
  if (q === '') return ROWS;
  return ROWS.filter((r) => `${r.ref} ${r.title} ${r.message}`.toLowerCase().includes(q));
}
