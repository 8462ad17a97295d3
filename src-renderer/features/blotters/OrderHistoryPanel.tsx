// Order history with the venue's archived filters: products, status, time range, client order id, sort.
import { useEffect, useState } from 'react';
import type { Order } from '../../../src-shared/protocol/records';
import { MAX_ARCHIVED_LIMIT } from '../../../src-shared/protocol/queries';
import { ARCHIVED_SORTS, ORDER_STATUSES, type ArchivedSort, type OrderStatus } from '../../../src-shared/protocol/vocabulary';
import { attempt } from '../../stores/desk-actions';
import { useDesk } from '../../stores/desk-store';
import { Panel } from '../../ui/Panel';
import { VirtualTable } from '../../ui/VirtualTable';
import { downloadCsv, toCsv } from '../../ui/csv';
import { localTimeToNanos } from '../ticket/ticket-check';
import { ORDER_COLUMNS, ORDER_CSV } from './order-columns';

interface Filters {
  productId: string;
  status: '' | OrderStatus;
  from: string;
  to: string;
  clientOrderId: string;
  sort: ArchivedSort;
}

export function OrderHistoryPanel(props: { height: number }): React.JSX.Element {
  const live = useDesk((s) => s.history);
  const liveCut = useDesk((s) => s.historyCut);
  const products = useDesk((s) => s.products);
  const [filters, setFilters] = useState<Filters>({ productId: '', status: '', from: '', to: '', clientOrderId: '', sort: '-updated_at' });
  const [searched, setSearched] = useState<Order[] | undefined>();
  // A search answered by the previous venue or account is not this one's history.
  const view = useDesk((s) => `${s.connection?.environment ?? ''} ${s.connection?.apiKey ?? ''}`);
  useEffect(() => setSearched(undefined), [view]);
  const [shown, setShown] = useState<readonly Order[]>([]);
  const set = (patch: Partial<Filters>): void => setFilters((f) => ({ ...f, ...patch }));

  const search = async (): Promise<void> => {
    const start = localTimeToNanos(filters.from);
    const end = localTimeToNanos(filters.to);
    const found = await attempt('orders.history', {
      limit: MAX_ARCHIVED_LIMIT,
      sort: filters.sort,
      ...(filters.productId !== '' && { product_ids: [filters.productId] }),
      ...(filters.status !== '' && { status: filters.status }),
      ...(start !== undefined && { start_time: start }),
      ...(end !== undefined && { end_time: end }),
      ...(filters.clientOrderId.trim() !== '' && { client_order_id: filters.clientOrderId.trim() }),
    });
    if (found !== undefined) setSearched(found);
  };

  const tools = (
    <form className="filters" onSubmit={(e) => (e.preventDefault(), void search())}>
      <select aria-label="History product" value={filters.productId} onChange={(e) => set({ productId: e.target.value })}>
        <option value="">All products</option>
        {products.map((p) => <option key={p.id} value={p.id}>{p.id}</option>)}
      </select>
      <select aria-label="History status" value={filters.status} onChange={(e) => set({ status: e.target.value as Filters['status'] })}>
        <option value="">Any status</option>
        {ORDER_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
      </select>
      <input type="datetime-local" aria-label="From" value={filters.from} onChange={(e) => set({ from: e.target.value })} />
      <input type="datetime-local" aria-label="To" value={filters.to} onChange={(e) => set({ to: e.target.value })} />
      <input aria-label="History client order id" placeholder="client id" size={10} value={filters.clientOrderId} onChange={(e) => set({ clientOrderId: e.target.value })} />
      <select aria-label="History sort" value={filters.sort} onChange={(e) => set({ sort: e.target.value as ArchivedSort })}>
        {ARCHIVED_SORTS.map((s) => <option key={s} value={s}>{s}</option>)}
      </select>
      <button type="submit">Search</button>
      {searched !== undefined && <button type="button" onClick={() => setSearched(undefined)}>Live</button>}
      <button type="button" onClick={() => downloadCsv('order-history.csv', toCsv(ORDER_CSV, shown))}>Export CSV</button>
    </form>
  );
  // The venue answers at most this many a read: a full answer says nothing of what lies beyond it.
  const rows = searched ?? live;
  const cut = searched === undefined ? liveCut : searched.length >= MAX_ARCHIVED_LIMIT;
  return (
    <Panel title="Order history" tools={tools} account>
      {cut && <p className="muted" role="note">The venue answers {MAX_ARCHIVED_LIMIT.toLocaleString()} orders a read and this read was full: older ones may exist; search a time range to see them.</p>}
      <VirtualTable label="Order history" columns={ORDER_COLUMNS} rows={rows} rowKey={(o) => o.order_id} height={cut ? props.height - 24 : props.height} onSorted={setShown} />
    </Panel>
  );
}
