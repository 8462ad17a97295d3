// Order history with the venue's archived filters: products, status, time range, client order id, sort.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Order } from '../../../src-shared/protocol/records';
import { MAX_ARCHIVED_LIMIT } from '../../../src-shared/protocol/queries';
import { ARCHIVED_SORTS, ORDER_STATUSES, type ArchivedSort } from '../../../src-shared/protocol/vocabulary';
import { attemptOnShownSession, currentView } from '../../stores/desk-actions';
import { useDesk } from '../../stores/desk-store';
import { Panel } from '../../ui/Panel';
import { ReadFailed } from '../../ui/ReadFailed';
import { VirtualTable } from '../../ui/VirtualTable';
import { downloadCsv, toCsv } from '../../ui/csv';
import { formatDecimal } from '../../ui/decimal-text';
import { DEFAULT_HISTORY_FILTERS, asTheyStandNow, historyRequest, sortedAs, historySearchOf, lastSearchOnly, nextPageRequest, rememberHistorySearch, type HistoryFilters, type HistoryRequest } from './history-query';
import { ORDER_COLUMNS, ORDER_CSV } from './order-columns';

/**
 * The venue's most orders a read, written as the desk writes every figure: in the browser's locale it was "1.000"
 * in Vietnamese or German, beside prices and sizes whose "." is the decimal point.
 */
const READ_LIMIT = formatDecimal(String(MAX_ARCHIVED_LIMIT));

/** A search's answer so far: its pages in order, and the read that would fetch the next one, if any can. */
interface Searched {
  rows: Order[];
  full: boolean;
  next: HistoryRequest | undefined;
}

/** `panelId`: the layout's id of the panel, by which its filters follow it into its own window and back. */
export function OrderHistoryPanel(props: { panelId?: string; height: number }): React.JSX.Element {
  const { panelId = 'history' } = props;
  const live = useDesk((s) => s.history);
  const liveCut = useDesk((s) => s.historyCut);
  const liveProblem = useDesk((s) => s.historyProblem);
  const products = useDesk((s) => s.products);
  // Sorted by created time, a search can be paged past the venue's 1000 a read. A panel popped out (or docked back)
  // starts where the trader left it.
  const [filters, setFilters] = useState<HistoryFilters>(() => historySearchOf(panelId)?.filters ?? DEFAULT_HISTORY_FILTERS);
  const [searched, setSearched] = useState<Searched | undefined>();
  // The last search refused, until one answers or the trader goes back to Live: the rows below are then not
  // filtered by the boxes above, which the trader read as the search's answer.
  const [refused, setRefused] = useState<string | undefined>();
  // A search shows its orders as they stand now: the open ones, and the done ones by id, which only a search needs.
  const open = useDesk((s) => s.openOrders);
  const searching = searched !== undefined;
  const doneById = useMemo(() => (searching ? new Map(live.map((o) => [o.order_id, o])) : undefined), [live, searching]);
  const searchAgain = useRef(historySearchOf(panelId)?.searched === true);
  useEffect(() => rememberHistorySearch(panelId, { filters, searched: searched !== undefined || searchAgain.current }), [panelId, filters, searched]);
  // A search answered by the previous venue or account is not this one's history. A search carried here from
  // another window is asked again once this window knows its venue.
  const view = useDesk((s) => (s.connection === undefined ? '' : `${s.connection.environment} ${s.connection.apiKey}`));
  useEffect(() => {
    setSearched(undefined);
    setRefused(undefined);
    if (view === '' || !searchAgain.current) return;
    searchAgain.current = false;
    void read(historyRequest(filters), []);
    // The filters as the panel opened with them: a later change waits for Search.
  }, [view]);
  const [shown, setShown] = useState<readonly Order[]>([]);
  const set = (patch: Partial<HistoryFilters>): void => setFilters((f) => ({ ...f, ...patch }));

  const searches = useRef(lastSearchOnly());
  async function read(request: HistoryRequest, before: readonly Order[]): Promise<void> {
    const asked = currentView();
    const stillLast = searches.current.begin();
    // Answered on another session (a switch this window has not heard of yet), it is another account's history.
    const answer = await attemptOnShownSession('orders.history', request);
    if (answer === undefined || asked !== currentView() || !stillLast()) return;
    if ('refused' in answer) return setRefused(`${answer.refused.ref}: ${answer.refused.message}`);
    setRefused(undefined);
    const found = answer.value;
    const known = new Set(before.map((o) => o.order_id));
    const full = found.length >= (request.limit ?? MAX_ARCHIVED_LIMIT);
    setSearched({ rows: [...before, ...found.filter((o) => !known.has(o.order_id))], full, next: full ? nextPageRequest(request, found) : undefined });
  }
  const more = searched?.next;

  const tools = (
    <form className="filters" onSubmit={(e) => (e.preventDefault(), void read(historyRequest(filters), []))}>
      <select aria-label="History product" value={filters.productId} onChange={(e) => set({ productId: e.target.value })}>
        <option value="">All products</option>
        {products.map((p) => <option key={p.id} value={p.id}>{p.id}</option>)}
      </select>
      <select aria-label="History status" value={filters.status} onChange={(e) => set({ status: e.target.value as HistoryFilters['status'] })}>
        <option value="">Any status</option>
        {ORDER_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
      </select>
      <input type="datetime-local" aria-label="From" value={filters.from} onChange={(e) => set({ from: e.target.value })} />
      <input type="datetime-local" aria-label="To" value={filters.to} onChange={(e) => set({ to: e.target.value })} />
      <input aria-label="History client order id" placeholder="client id" size={7} value={filters.clientOrderId} onChange={(e) => set({ clientOrderId: e.target.value })} />
      <select aria-label="History sort" value={filters.sort} onChange={(e) => set({ sort: e.target.value as ArchivedSort })}>
        {ARCHIVED_SORTS.map((s) => <option key={s} value={s}>{s}</option>)}
      </select>
      {/* The buttons go to another line together, never Export CSV alone under the rest. */}
      <span className="filter-actions">
        <button type="submit">Search</button>
        {searched !== undefined && more !== undefined && <button type="button" onClick={() => void read(more, searched.rows)}>Next {READ_LIMIT}</button>}
        {searched !== undefined && <button type="button" onClick={() => (searches.current.begin(), setSearched(undefined), setRefused(undefined))}>Live</button>}
        <button type="button" onClick={() => downloadCsv('order-history.csv', toCsv(ORDER_CSV, shown))}>Export CSV</button>
      </span>
    </form>
  );
  // The venue answers at most this many a read: a full answer says nothing of what lies beyond it.
  const rows = useMemo(
    () => sortedAs(searched === undefined || doneById === undefined ? live : asTheyStandNow(searched.rows, open, doneById), filters.sort),
    [searched, live, open, doneById, filters.sort],
  );
  const cut = searched === undefined ? liveCut : searched.full;
  const beyond =
    searched === undefined
      ? 'older ones may exist; search a time range to see them.'
      : more !== undefined
        ? `more may follow: Next ${READ_LIMIT} reads them.`
        : 'more may exist; sort by created_at to page through them, or narrow the search.';
  return (
    <Panel title="Order history" tools={tools} account>
      {searched === undefined && <ReadFailed problem={liveProblem} />}
      {refused !== undefined && (
        <p role="alert" className="note" aria-label="Search refused">
          Search refused, {refused}. Shown: {searched === undefined ? 'the live history' : 'the last search that answered'}, not filtered as the boxes above say.
        </p>
      )}
      {cut && <p className="muted" role="note">The venue answers {READ_LIMIT} orders a read and this read was full: {beyond}</p>}
      <VirtualTable label="Order history" columns={ORDER_COLUMNS} rows={rows} rowKey={(o) => o.order_id} height={props.height} onSorted={setShown} />
    </Panel>
  );
}
