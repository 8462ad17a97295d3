/** Sorting blotter rows by a column: decimal columns compare exactly, text and timestamps as text or digits. */
import { compareDecimal } from './decimal-text';

export type SortKind = 'text' | 'decimal';
export type SortDirection = 'asc' | 'desc';

export interface SortSpec<Row> {
  value: (row: Row) => string;
  kind: SortKind;
  direction: SortDirection;
  /** Rows of one group (text) sort together, by value within it: amounts in different assets are not one scale. */
  group?: (row: Row) => string;
}

/** Plain code-unit order: ids and words. Timestamps sort as decimals. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A stable sort that returns a new array. */
export function sortRows<Row>(rows: readonly Row[], spec: SortSpec<Row>): Row[] {
  const sign = spec.direction === 'asc' ? 1 : -1;
  const compare = spec.kind === 'decimal' ? compareDecimal : compareText;
  const group = spec.group;
  const keyed = rows.map((row, index) => ({ row, index, key: spec.value(row), group: group === undefined ? '' : group(row) }));
  keyed.sort((x, y) => sign * (compareText(x.group, y.group) || compare(x.key, y.key)) || x.index - y.index);
  return keyed.map((k) => k.row);
}
