import { describe, expect, it } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';
import { bookNotUpdated, bookStaleness, staleness, shownLatency } from '../../../src-renderer/stores/connection-view';

const connection = (state: ConnectionStatus['state'], latencyMs?: number): ConnectionStatus => ({
  environment: 'development', production: false, state, apiKey: 'k', userId: 'u', readOnly: false, detail: '',
  ...(latencyMs === undefined ? {} : { latencyMs }),
});

describe('connection view', () => {
  it('marks the market data stale whenever the session is not live', () => {
    expect(staleness(connection('reconnecting', 5))).toBe('stale: reconnecting');
    for (const state of ['connecting', 'reconciling', 'refused', 'closed', 'unavailable'] as const) {
      expect(staleness(connection(state))).toBe(`stale: ${state}`);
    }
  });

  it('calls the market data current while live, polled publicly without a key, or before any status came', () => {
    expect(staleness(connection('live', 5))).toBeUndefined();
    expect(staleness(connection('no_key'))).toBeUndefined();
    expect(staleness(undefined)).toBeUndefined();
  });

  it('shows a latency only while live, never one left from before an outage', () => {
    expect(shownLatency(connection('live', 4.6))).toBe('5 ms');
    expect(shownLatency(connection('reconnecting', 5))).toBeUndefined();
    expect(shownLatency(connection('reconciling', 5))).toBeUndefined();
    expect(shownLatency(connection('live'))).toBeUndefined();
  });

  it('calls a book stale while the connection is (an outage first), or while the book is in doubt over a current one', () => {
    const books = (inDoubt: boolean) => ({ 'BTC-VND': { productId: 'BTC-VND', sequence: 1, time: '1', source: 'stream' as const, bids: [], asks: [], ...(inDoubt && { inDoubt }) } });
    expect(bookStaleness({ connection: connection('live'), books: books(false) }, 'BTC-VND')).toBeUndefined();
    expect(bookStaleness({ connection: connection('live'), books: books(true) }, 'BTC-VND')).toBe('stale: not updated');
    expect(bookStaleness({ connection: connection('no_key'), books: books(true) }, 'BTC-VND')).toBe('stale: not updated');
    expect(bookStaleness({ connection: connection('reconnecting'), books: books(true) }, 'BTC-VND')).toBe('stale: reconnecting');
    expect(bookStaleness({ connection: connection('live'), books: books(true) }, 'ETH-VND')).toBeUndefined();
  });

  it("tells a book's own doubt from an outage, for the panels that say each its own way", () => {
    const books = { 'BTC-VND': { productId: 'BTC-VND', sequence: 1, time: '1', source: 'stream' as const, bids: [], asks: [], inDoubt: true } };
    expect(bookNotUpdated(bookStaleness({ connection: connection('live'), books }, 'BTC-VND'))).toBe(true);
    expect(bookNotUpdated(bookStaleness({ connection: connection('reconnecting'), books }, 'BTC-VND'))).toBe(false);
    expect(bookNotUpdated(staleness(connection('unavailable')))).toBe(false);
    expect(bookNotUpdated(undefined)).toBe(false);
  });
});
