// The tape keeps every trade made while the connection was down, up to what it shows. The desk reads back only the
// last 100 trades when its socket reconnects; a busier outage left a hole in the tape that nothing filled. The bridge
// is scripted: the venue's tape is a list the test grows while the connection is down.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';
import type { PublicTrade } from '../../../src-shared/protocol/records';
import { scriptedWindow, toldEvents } from './fixtures';

const status = (state: ConnectionStatus['state']): ConnectionStatus => ({ environment: 'local', production: false, state, apiKey: 'k', readOnly: false, detail: '' });
const trade = (n: number): PublicTrade => ({ id: `t${n}`, product_id: 'BTC-VND', price: '2500000000', size: '0.001', side: 'BUY', time: String(1_800_000_000_000_000_000n + BigInt(n)) });

/** The venue's tape, newest first, as GET /products/{id}/trades answers. */
let tape: PublicTrade[] = [];

beforeAll(() => {
  scriptedWindow({
    'connection.status': () => status('live'),
    'market.watch': () => ({ productId: 'BTC-VND', sequence: 1, time: '1', source: 'stream', bids: [], asks: [] }),
    'market.candles': () => [],
    'market.trades': ({ limit }) => tape.slice(0, limit ?? 100),
    'orders.active': () => [],
    'orders.history': () => [],
    'orders.fills': () => [],
  });
});

afterAll(() => vi.unstubAllGlobals());

describe('the tape across a reconnection', () => {
  it('has every trade made while the connection was down, as far back as it shows', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { startFeed } = await import('../../../src-renderer/stores/feed');
    const { TAPE_LENGTH } = await import('../../../src-renderer/stores/market-slice');
    const { subscribe, tell } = toldEvents();
    tape = Array.from({ length: 10 }, (_, i) => trade(10 - i));
    useDesk.getState().setConnection(status('live'));
    useDesk.getState().setLayout({ ...useDesk.getState().layout, productId: 'BTC-VND' });
    const stop = startFeed(subscribe);
    try {
      await vi.waitFor(() => expect(useDesk.getState().trades['BTC-VND']).toHaveLength(10));
      tell('connection.changed', status('reconnecting'));
      // 300 trades while the socket is down; the desk, reconnected, tells the last 100 of them.
      tape = Array.from({ length: 310 }, (_, i) => trade(310 - i));
      tell('trades.received', { productId: 'BTC-VND', trades: tape.slice(0, 100).reverse() });
      tell('connection.changed', status('live'));
      await vi.waitFor(() => expect(useDesk.getState().trades['BTC-VND']?.length).toBeGreaterThan(110));
      expect(useDesk.getState().trades['BTC-VND']?.map((t) => t.id)).toEqual(tape.slice(0, Math.min(310, TAPE_LENGTH)).map((t) => t.id));
    } finally {
      stop();
    }
  });
});
