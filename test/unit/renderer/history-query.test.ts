import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../../src-shared/protocol/records';
import { MAX_ARCHIVED_LIMIT } from '../../../src-shared/protocol/queries';
import * as query from '../../../src-renderer/features/blotters/history-query';
import type { HistoryFilters, HistoryRequest } from '../../../src-renderer/features/blotters/history-query';
import { restingOrder } from './fixtures';

const FILTERS: HistoryFilters = { productId: '', status: '', from: '', to: '', clientOrderId: '', sort: '-created_at' };
const nanos = (local: string): bigint => BigInt(new Date(local).getTime()) * 1_000_000n;

let tz: string | undefined;
beforeAll(() => ((tz = process.env.TZ), (process.env.TZ = 'Asia/Ho_Chi_Minh')));
afterAll(() => void (tz === undefined ? delete process.env.TZ : (process.env.TZ = tz)));

describe('the order history time range', () => {
  it('takes the To minute whole: an order placed at 10:00:30 is in a search to 10:00', () => {
    const request = query.historyRequest({ ...FILTERS, from: '2030-01-02T10:00', to: '2030-01-02T10:00' });
    expect(request.start_time).toBe(nanos('2030-01-02T10:00').toString());
    expect(request.end_time).toBe((nanos('2030-01-02T10:01') - 1n).toString());
    // A To with seconds (typed, or a browser that shows them) takes that second whole.
    expect(query.historyRequest({ ...FILTERS, to: '2030-01-02T10:00:30' }).end_time).toBe((nanos('2030-01-02T10:00:31') - 1n).toString());
  });
});

/** The venue's archived orders (docs/api.md): inclusive bounds on created_at, the sort, at most `limit`. */
function archived(all: readonly Order[], request: HistoryRequest): Order[] {
  const key = request.sort?.replace('-', '') === 'updated_at' ? 'updated_at' : 'created_at';
  const sign = request.sort?.startsWith('-') === false ? 1 : -1;
  return all
    .filter((o) => (request.start_time === undefined || BigInt(o.created_at) >= BigInt(request.start_time)) && (request.end_time === undefined || BigInt(o.created_at) <= BigInt(request.end_time)))
    .sort((a, b) => sign * (BigInt(a[key]) < BigInt(b[key]) ? -1 : BigInt(a[key]) > BigInt(b[key]) ? 1 : 0))
    .slice(0, request.limit ?? 100);
}

const orders = Array.from({ length: 2_345 }, (_, i) => {
  const created = (1_900_000_000_000_000_000n + BigInt(i) * 7_000_000_123n).toString();
  return { order_id: `o${i}`, created_at: created, updated_at: created } as Order;
});

describe('paging the order history past the venue\'s 1000 a read', () => {
  it.each(['-created_at', 'created_at'] as const)('reaches every order once, sorted %s', (sort) => {
    let request: HistoryRequest | undefined = query.historyRequest({ ...FILTERS, sort });
    const seen: string[] = [];
    for (let reads = 0; request !== undefined && reads < 10; reads++) {
      const page = archived(orders, request);
      seen.push(...page.map((o) => o.order_id));
      request = page.length >= MAX_ARCHIVED_LIMIT ? query.nextPageRequest(request, page) : undefined;
    }
    expect(seen).toHaveLength(orders.length);
    expect(new Set(seen).size).toBe(orders.length);
  });

  it('stays inside the range searched', () => {
    const from = orders[100]?.created_at ?? '';
    const to = orders[2_200]?.created_at ?? '';
    const first = { ...query.historyRequest(FILTERS), start_time: from, end_time: to };
    const page = archived(orders, first);
    const next = query.nextPageRequest(first, page);
    expect(next?.start_time).toBe(from);
    expect(archived(orders, next ?? first).every((o) => BigInt(o.created_at) >= BigInt(from))).toBe(true);
  });

  it('offers no next page for an updated-time sort, which a created-time bound cannot page', () => {
    const request = query.historyRequest({ ...FILTERS, sort: '-updated_at' });
    expect(query.nextPageRequest(request, archived(orders, request))).toBeUndefined();
  });
});

describe('a search\'s rows as the orders stand now', () => {
  const working = restingOrder('a', { updated_at: '10' });
  const other = restingOrder('b', { status: 'DONE', done_reason: 'FILLED', updated_at: '10' });

  it('shows an order the search found working as the desk\'s events have it since: partly filled, then canceled', () => {
    const partly = restingOrder('a', { filled_base_size: '0.04', updated_at: '11' });
    expect(query.asTheyStandNow([working, other], { a: partly }, new Map())).toEqual([partly, other]);
    const canceled = restingOrder('a', { status: 'DONE', done_reason: 'CANCELED', filled_base_size: '0.04', updated_at: '12' });
    expect(query.asTheyStandNow([working, other], { a: partly }, new Map([['a', canceled]]))).toEqual([canceled, other]);
  });

  it('keeps a record newer than what the desk holds, and the same rows when nothing is newer', () => {
    const older = restingOrder('a', { updated_at: '9' });
    const rows = [working, other];
    expect(query.asTheyStandNow(rows, { a: older }, new Map([['b', { ...other, updated_at: '10' }]]))).toBe(rows);
  });
});

describe('a panel\'s history searches', () => {
  it('shows only the last one asked: an earlier answer coming later, or one after going back to Live, is dropped', () => {
    const searches = query.lastSearchOnly();
    const wide = searches.begin();
    const narrow = searches.begin();
    // The narrower search, typed after, answers first; the wide one's answer comes after it.
    expect(narrow()).toBe(true);
    expect(wide()).toBe(false);
    const again = searches.begin();
    // Live pressed before that search answered.
    searches.begin();
    expect(again()).toBe(false);
  });
});
