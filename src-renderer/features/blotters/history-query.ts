// What the Order history panel asks the venue's archived orders for.
import type { Request } from '../../../src-shared/ipc/contract';
import { MAX_ARCHIVED_LIMIT } from '../../../src-shared/protocol/queries';
import type { Order } from '../../../src-shared/protocol/records';
import { ARCHIVED_SORTS, ORDER_STATUSES, type ArchivedSort, type OrderStatus } from '../../../src-shared/protocol/vocabulary';
import { compareDecimal } from '../../ui/decimal-text';
import { localTimeToNanos } from '../ticket/ticket-check';

export interface HistoryFilters {
  productId: string;
  status: '' | OrderStatus;
  /** <input type="datetime-local"> values, the trader's local time. */
  from: string;
  to: string;
  clientOrderId: string;
  sort: ArchivedSort;
}

export type HistoryRequest = Request<'orders.history'>;

/** Newest placed first, as the venue answers by default and as the Time column reads. */
export const DEFAULT_HISTORY_FILTERS: HistoryFilters = { productId: '', status: '', from: '', to: '', clientOrderId: '', sort: '-created_at' };

/** What an Order history panel was showing: its filters, and whether a search by them (not the live history) was shown. */
export interface HistorySearch {
  filters: HistoryFilters;
  searched: boolean;
}

// Kept outside the panel, by its id, so that the panel popped out into its own window (or docked back) starts with
// the filters the trader had typed, rather than empty ones.
const searches = new Map<string, HistorySearch>();

const watchers = new Set<(panelId: string, search: HistorySearch) => void>();

export function rememberHistorySearch(panelId: string, search: HistorySearch): void {
  searches.set(panelId, search);
  for (const watch of watchers) watch(panelId, search);
}

/** Told each search a panel remembers (a popped-out window keeps it in its address); returns the way to stop. */
export function watchHistorySearches(watch: (panelId: string, search: HistorySearch) => void): () => void {
  watchers.add(watch);
  return () => void watchers.delete(watch);
}

export function historySearchOf(panelId: string): HistorySearch | undefined {
  return searches.get(panelId);
}

/** A search carried in a pop-out's address or message, read back: anything malformed gives none, never a bad request. */
export function readHistorySearch(value: unknown): HistorySearch | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { filters, searched } = value as { filters?: unknown; searched?: unknown };
  if (typeof filters !== 'object' || filters === null || typeof searched !== 'boolean') return undefined;
  const f = filters as Record<string, unknown>;
  const text = (key: string): string | undefined => (typeof f[key] === 'string' ? f[key] : undefined);
  const [productId, status, from, to, clientOrderId, sort] = ['productId', 'status', 'from', 'to', 'clientOrderId', 'sort'].map(text);
  if (productId === undefined || from === undefined || to === undefined || clientOrderId === undefined) return undefined;
  if (status === undefined || (status !== '' && !(ORDER_STATUSES as readonly string[]).includes(status))) return undefined;
  if (sort === undefined || !(ARCHIVED_SORTS as readonly string[]).includes(sort)) return undefined;
  return { filters: { productId, status: status as HistoryFilters['status'], from, to, clientOrderId, sort: sort as ArchivedSort }, searched };
}

/**
 * The last nanosecond of the time the trader picked: the venue's end_time is inclusive, and the box shows minutes
 * (seconds, milliseconds if typed), so "to 10:00" means up to 10:00:59.999999999, not 10:00 sharp, which left out
 * every order of the minute picked, and all of them in a search from and to the same minute.
 */
function endOfLocalTime(text: string): string | undefined {
  const start = localTimeToNanos(text);
  if (start === undefined) return undefined;
  const span = /T\d{2}:\d{2}$/.test(text) ? 60_000_000_000n : /T\d{2}:\d{2}:\d{2}$/.test(text) ? 1_000_000_000n : 1_000_000n;
  return (BigInt(start) + span - 1n).toString();
}

export function historyRequest(filters: HistoryFilters): HistoryRequest {
  const start = localTimeToNanos(filters.from);
  const end = endOfLocalTime(filters.to);
  return {
    limit: MAX_ARCHIVED_LIMIT,
    sort: filters.sort,
    ...(filters.productId !== '' && { product_ids: [filters.productId] }),
    ...(filters.status !== '' && { status: filters.status }),
    ...(start !== undefined && { start_time: start }),
    ...(end !== undefined && { end_time: end }),
    ...(filters.clientOrderId.trim() !== '' && { client_order_id: filters.clientOrderId.trim() }),
  };
}

/**
 * The read after a full one, or undefined when none can follow it. The venue bounds created_at, never repeats it
 * (docs/api.md), and answers whole pages in the sort: one past the last created_at of a page sorted by it starts
 * the next page, with no order twice and none skipped. Sorted by updated_at, pages cannot be cut by a created_at
 * bound without skipping or repeating orders, so none is offered.
 */
export function nextPageRequest(request: HistoryRequest, page: readonly Pick<Order, 'created_at'>[]): HistoryRequest | undefined {
  const last = page.at(-1)?.created_at;
  if (last === undefined || !/^\d+$/.test(last)) return undefined;
  if (request.sort === '-created_at' || request.sort === undefined) {
    const end = BigInt(last) - 1n;
    if (end < 0n || (request.start_time !== undefined && end < BigInt(request.start_time))) return undefined;
    return { ...request, end_time: end.toString() };
  }
  if (request.sort === 'created_at') {
    const start = BigInt(last) + 1n;
    if (request.end_time !== undefined && start > BigInt(request.end_time)) return undefined;
    return { ...request, start_time: start.toString() };
  }
  return undefined;
}

/**
 * Rows in the order the sort box names. The live history is kept newest updated first (a done order goes to the
 * front), and a search was answered in the sort it was asked with: shown so under a box saying -created_at, the
 * trader read the list as sorted by when the orders were placed. A stable sort; the same array when already in order.
 */
export function sortedAs(rows: readonly Order[], sort: ArchivedSort): readonly Order[] {
  const field = sort.endsWith('created_at') ? 'created_at' : 'updated_at';
  const sign = sort.startsWith('-') ? -1 : 1;
  const compare = (a: Order, b: Order): number => sign * compareNanos(a[field], b[field]);
  for (let i = 1; i < rows.length; i++) if (compare(rows[i - 1] as Order, rows[i] as Order) > 0) return [...rows].sort(compare);
  return rows;
}

/** UNIX nanoseconds as digit strings, compared without a bigint each: a history can hold 100 000 of them. */
function compareNanos(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * A search's rows as the orders stand now: the desk's events keep the open orders and the done ones current, and an
 * order the search found working that has since filled or been canceled is shown so, not as the search saw it.
 * The same array when nothing is newer, so the table keeps its rows.
 */
export function asTheyStandNow(rows: readonly Order[], open: Readonly<Record<string, Order>>, done: ReadonlyMap<string, Order>): readonly Order[] {
  let changed = false;
  const now = rows.map((order) => {
    let latest = order;
    for (const known of [open[order.order_id], done.get(order.order_id)]) {
      if (known !== undefined && compareDecimal(known.updated_at, latest.updated_at) > 0) latest = known;
    }
    changed ||= latest !== order;
    return latest;
  });
  return changed ? now : rows;
}

/**
 * A panel's searches, of which only the last asked is shown: answers can come back out of order (a wide search
 * slower than the narrower one typed after it), and one answered after the trader went back to Live, or searched
 * again, would replace what the panel shows with results for filters it no longer shows. `begin` as a search (or
 * Live) starts; the check it returns says whether that one is still the last.
 */
export function lastSearchOnly(): { begin: () => () => boolean } {
  let asked = 0;
  return {
    begin: () => {
      const mine = ++asked;
      return () => mine === asked;
    },
  };
}
