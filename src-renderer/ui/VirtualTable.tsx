/**
 * A sortable table that draws only the rows in view, so a blotter of 100 000 rows scrolls like one of 100.
 * It stays a real <table> (named by `label`) so a screen reader and the tests find it by role.
 */
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { sortRows, type SortDirection, type SortKind, type SortSpec } from './sort';

export interface Column<Row> {
  key: string;
  header: string;
  /** The sortable and exportable text of the cell. */
  value: (row: Row) => string;
  /** How the cell is drawn; the value's text when absent. */
  render?: (row: Row) => ReactNode;
  kind?: SortKind;
  /** Sorts rows by this text first, then by value: e.g. fees by asset, then amount. */
  group?: (row: Row) => string;
  align?: 'left' | 'right';
  /** False for columns of controls (select, cancel), whose header is plain text. */
  sortable?: boolean;
  /**
   * Kept at the right edge of the table's view, over the columns scrolled under it: a control each row needs (an
   * order's Cancel), which a row wider than its panel put out of sight, behind a scroll bar at the table's foot.
   */
  pinned?: boolean;
}

/** A cell's classes: a figure's alignment, a pinned column's place. */
function cellClass(column: Pick<Column<unknown>, 'align' | 'pinned'>): string | undefined {
  const classes = [column.align === 'right' ? 'num' : '', column.pinned === true ? 'pinned' : ''].filter((c) => c !== '');
  return classes.length === 0 ? undefined : classes.join(' ');
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

/** How the table sorts by a column when its header is clicked. */
export function columnSort<Row>(column: Column<Row>, direction: SortDirection): SortSpec<Row> {
  return { value: column.value, kind: column.kind ?? 'text', direction, ...(column.group !== undefined && { group: column.group }) };
}

/**
 * Whether the trader's last input was a key rather than a pointer. Only then does a table put the focus on the next
 * row's control when the one it was on goes: after a click on Cancel it would sit unseen on another order's Cancel,
 * where a Space or Enter meant for something else cancels that order.
 */
let keyboardLast = false;
if (typeof window !== 'undefined') {
  window.addEventListener('keydown', () => void (keyboardLast = true), true);
  window.addEventListener('pointerdown', () => void (keyboardLast = false), true);
}

/**
 * For a capture keydown handler: a key held down repeats on whatever has the focus, and a control that took it once
 * the first press had done its work (the next row's Cancel, a confirmation's Confirm) would act on the repeats. A
 * control there acts on a press, never on the same one held.
 */
export function ignoreHeldKeys(e: { repeat: boolean; key: string; preventDefault: () => void }): void {
  if (e.repeat && (e.key === 'Enter' || e.key === ' ')) e.preventDefault();
}

export const ROW_HEIGHT = 24;
/** Rows drawn beyond the view in the direction of scrolling, where the compositor may scroll before React draws; and behind. */
const AHEAD = 8;
const BEHIND = 2;

interface RowViewProps<Row> {
  row: Row;
  /** The row's key, by which the table finds it again in the DOM. */
  rowId: string;
  columns: readonly Column<Row>[];
  /** 1-based among all rows, header included. */
  index: number;
  className: string | undefined;
}

// Memoised so a scroll draws only the rows that came into view; the rows still in view keep their cells.
const RowView = memo(function RowView<Row>(props: RowViewProps<Row>): React.JSX.Element {
  const { row, columns } = props;
  return (
    <tr aria-rowindex={props.index} data-row={props.rowId} className={props.className} style={{ height: ROW_HEIGHT }}>
      {columns.map((c) => (
        <td key={c.key} className={cellClass(c)}>
          {c.render === undefined ? c.value(row) : c.render(row)}
        </td>
      ))}
    </tr>
  );
}) as <Row>(props: RowViewProps<Row>) => React.JSX.Element;

export function VirtualTable<Row>(props: VirtualTableProps<Row>): React.JSX.Element {
  const { label, columns, rows, rowKey, height, rowClass } = props;
  const [sort, setSort] = useState<{ key: string; direction: SortDirection } | undefined>();
  // The row at the top, not the pixel offset: a scroll within one row renders nothing.
  const [view, setView] = useState({ top: 0, down: true });

  const sorted = useMemo(() => {
    const column = sort === undefined ? undefined : columns.find((c) => c.key === sort.key);
    if (column === undefined || sort === undefined) return rows;
    return sortRows(rows, columnSort(column, sort.direction));
  }, [rows, columns, sort]);
  const { onSorted } = props;
  useEffect(() => onSorted?.(sorted), [onSorted, sorted]);

  const first = Math.max(0, view.top - (view.down ? BEHIND : AHEAD));
  const count = Math.ceil(height / ROW_HEIGHT) + AHEAD + BEHIND;
  const visible = sorted.slice(first, first + count);
  const after = Math.max(0, sorted.length - first - visible.length);

  // Where in the rows the keyboard's focus last was: a control whose row goes (an order cancelled with Enter on its
  // Cancel) or that is disabled under it takes the focus with it to the page's body, and the next Tab started again
  // from the top of the window. It goes to the same column of the row now in that place instead (the next order's
  // Cancel), or to the table while none can take it.
  const scroller = useRef<HTMLDivElement>(null);
  const focusAt = useRef<{ key: string; index: number; column: number; control: Element } | undefined>(undefined);
  useLayoutEffect(() => {
    const at = focusAt.current;
    const box = scroller.current;
    const active = document.activeElement;
    if (at === undefined || box === null || (active !== null && active !== document.body && active !== box)) return;
    // Still there and enabled, the control was left by the trader (a click on the page around it): not taken back.
    // Nor is it moved on for a trader using the mouse.
    if (!keyboardLast || (at.control.isConnected && !at.control.matches(':disabled'))) {
      if (active !== box) focusAt.current = undefined;
      return;
    }
    const index = sorted.findIndex((row) => rowKey(row) === at.key);
    const row = sorted[index === -1 ? Math.min(at.index, sorted.length - 1) : index];
    const tr = row === undefined ? null : box.querySelector(`tr[data-row="${CSS.escape(rowKey(row))}"]`);
    const control = tr instanceof HTMLTableRowElement ? tr.cells[at.column]?.querySelector<HTMLElement>('button:not(:disabled), input:not(:disabled), select:not(:disabled), a[href]') : undefined;
    if (control !== null && control !== undefined) control.focus();
    else if (active !== box) box.focus();
  });
  const noteFocus = (target: EventTarget): void => {
    const tr = target instanceof Element ? target.closest('tr[data-row]') : null;
    const td = target instanceof Element ? target.closest('td') : null;
    const key = tr?.getAttribute('data-row');
    if (key === null || key === undefined || td === null) return;
    // The row's place is on it (aria-rowindex counts from 1, after the header row): no scan of the rows per focus.
    focusAt.current = { key, index: Number(tr?.getAttribute('aria-rowindex')) - 2, column: td.cellIndex, control: target as Element };
  };

  const toggle = (key: string): void =>
    setSort((s) => (s?.key === key ? { key, direction: s.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: 'asc' }));

  return (
    <div
      className="vtable"
      ref={scroller}
      tabIndex={-1}
      // Strict containment makes the scroller a layout boundary: rows coming into view relayout this table only.
      style={{ height, contain: 'strict' }}
      onFocus={(e) => noteFocus(e.target)}
      // Once a row's Cancel has done its work and the focus moved on to the next row's, a held key's repeats
      // cancelled that order too, and the next.
      onKeyDownCapture={ignoreHeldKeys}
      // Gone elsewhere by the trader's choice (the focus is somewhere else now), not with a row: nothing to keep.
      onBlur={(e) => {
        if (e.relatedTarget !== null && !e.currentTarget.contains(e.relatedTarget)) focusAt.current = undefined;
      }}
      onScroll={(e) => {
        const top = Math.floor(e.currentTarget.scrollTop / ROW_HEIGHT);
        setView((v) => (v.top === top ? v : { top, down: top > v.top }));
      }}
    >
      <table aria-label={label} aria-rowcount={sorted.length + 1}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={cellClass(c)}
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
          {visible.map((row, i) => {
            const id = rowKey(row);
            return <RowView key={id} rowId={id} row={row} columns={columns} index={first + i + 2} className={rowClass?.(row)} />;
          })}
          {after > 0 && <tr aria-hidden="true" style={{ height: after * ROW_HEIGHT }} />}
        </tbody>
      </table>
      {sorted.length === 0 && <p className="muted empty">Nothing yet.</p>}
    </div>
  );
}
