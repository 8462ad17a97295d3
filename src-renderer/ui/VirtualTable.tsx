/**
 * A sortable table that draws only the rows in view, so a blotter of 100 000 rows scrolls like one of 100.
 * It stays a real <table> (named by `label`) so a screen reader and the tests find it by role.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { sortRows, type SortDirection, type SortKind } from './sort';

export interface Column<Row> {
  key: string;
  header: string;
  /** The sortable and exportable text of the cell. */
  value: (row: Row) => string;
  /** How the cell is drawn; the value's text when absent. */
  render?: (row: Row) => ReactNode;
  kind?: SortKind;
  align?: 'left' | 'right';
  /** False for columns of controls (select, cancel), whose header is plain text. */
  sortable?: boolean;
}

export interface VirtualTableProps<Row> {
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Height of the scrolling area in pixels. */
  height: number;
  rowClass?: (row: Row) => string;
  /** Receives the rows in the order shown, e.g. for export. */
  onSorted?: (rows: readonly Row[]) => void;
}

export const ROW_HEIGHT = 24;
const OVERSCAN = 8;

export function VirtualTable<Row>(props: VirtualTableProps<Row>): React.JSX.Element {
  const { label, columns, rows, rowKey, height, rowClass } = props;
  const [sort, setSort] = useState<{ key: string; direction: SortDirection } | undefined>();
  const [scrollTop, setScrollTop] = useState(0);

  const sorted = useMemo(() => {
    const column = sort === undefined ? undefined : columns.find((c) => c.key === sort.key);
    if (column === undefined || sort === undefined) return rows;
    return sortRows(rows, { value: column.value, kind: column.kind ?? 'text', direction: sort.direction });
  }, [rows, columns, sort]);
  const { onSorted } = props;
  useEffect(() => onSorted?.(sorted), [onSorted, sorted]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const count = Math.ceil(height / ROW_HEIGHT) + OVERSCAN * 2;
  const visible = sorted.slice(first, first + count);
  const after = Math.max(0, sorted.length - first - visible.length);

  const toggle = (key: string): void =>
    setSort((s) => (s?.key === key ? { key, direction: s.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: 'asc' }));

  return (
    <div className="vtable" style={{ height }} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
      <table aria-label={label} aria-rowcount={sorted.length + 1}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={c.align === 'right' ? 'num' : undefined}
                aria-sort={sort?.key === c.key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
              >
                {c.sortable === false ? (
                  <span className="muted">{c.header}</span>
                ) : (
                  <button type="button" className="sort" onClick={() => toggle(c.key)}>
                    {c.header}
                    {sort?.key === c.key ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}
                  </button>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {first > 0 && <tr aria-hidden="true" style={{ height: first * ROW_HEIGHT }} />}
          {visible.map((row, i) => (
            <tr key={rowKey(row)} aria-rowindex={first + i + 2} className={rowClass?.(row)} style={{ height: ROW_HEIGHT }}>
              {columns.map((c) => (
                <td key={c.key} className={c.align === 'right' ? 'num' : undefined}>
                  {c.render === undefined ? c.value(row) : c.render(row)}
                </td>
              ))}
            </tr>
          ))}
          {after > 0 && <tr aria-hidden="true" style={{ height: after * ROW_HEIGHT }} />}
        </tbody>
      </table>
      {sorted.length === 0 && <p className="muted empty">Nothing yet.</p>}
    </div>
  );
}
