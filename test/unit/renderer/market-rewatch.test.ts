// A product's market in the window's store is never older than what the desk has told it: neither the book left from
// when the product was last watched, nor a watch answer that arrives after a newer streamed book. The bridge is
// scripted so that each answer comes exactly when the test releases it: the race is in the renderer.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BookSnapshot, ConnectionStatus } from '../../../src-shared/ipc/contract';
import type { Candle } from '../../../src-shared/protocol/ws';

const connection: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k', readOnly: false, detail: '' };

const book = (productId: string, sequence: number, bid: string, ask: string): BookSnapshot => ({
  productId, sequence, time: String(1_800_000_000_000_000_000n + BigInt(sequence)), source: 'stream',
  bids: [{ price: bid, size: '0.1', order_count: 1 }], asks: [{ price: ask, size: '0.1', order_count: 1 }],
});
const candle = (volume: string): Candle => ({ start: '1800000000000000000', open: '2500000000', high: '2500000000', low: '2500000000', close: '2500000000', volume });

/** Answers by method; a gated method waits for its release. */
let answers: Record<string, (request: { product_id?: string }) => unknown> = {};
let gates: Record<string, Promise<void>> = {};
const gate = (method: string): (() => void) => {
  let release = (): void => undefined;
  gates[method] = new Promise((resolve) => (release = resolve));
  return release;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(() => {
  const nova = new Proxy({}, {
    get: (_target, method: string) => async (request: { product_id?: string }) => {
      await (gates[method] ?? Promise.resolve());
      const answer = answers[method];
      return answer === undefined ? { ok: false, error: { ref: 'E0902_ServiceUnavailable', message: 'E0902_ServiceUnavailable: not scripted' } } : { ok: true, value: answer(request) };
    },
  });
  (globalThis as Record<string, unknown>).window = { nova, location: { protocol: 'http:', host: 'test' } };
});

afterAll(() => {
  delete (globalThis as Record<string, unknown>).window;
});

beforeEach(() => {
  gates = {};
  answers = {
    'orders.active': () => [],
    'orders.history': () => [],
    'orders.fills': () => [],
    'account.get': () => undefined,
    'connection.status': () => connection,
    'market.unwatch': () => ({ watching: [] }),
    'market.trades': () => [],
    'market.candles': () => [],
  };
});

async function feed() {
  const { useDesk } = await import('../../../src-renderer/stores/desk-store');
  const { startFeed } = await import('../../../src-renderer/stores/feed');
  const handlers: Record<string, (payload: unknown) => void> = {};
  useDesk.getState().setConnection(connection);
  useDesk.getState().clearMarketData();
  const stop = startFeed(((name: string, handler: (payload: unknown) => void) => {
    handlers[name] = handler;
    return () => undefined;
  }) as never);
  const show = (productId: string) => useDesk.getState().setLayout({ ...useDesk.getState().layout, productId });
  return { useDesk, handlers, stop, show };
}

describe('a product\'s market in the window', () => {
  it('is not the book left from when it was last watched while it is being watched again', async () => {
    answers['market.watch'] = ({ product_id }) => (product_id === 'BTC-VND' ? book('BTC-VND', 5, '2400000000', '2410000000') : book(product_id ?? '', 1, '90000000', '90001000'));
    const { useDesk, handlers, stop, show } = await feed();
    try {
      show('BTC-VND');
      await sleep(20);
      expect(useDesk.getState().books['BTC-VND']?.sequence).toBe(5);
      // The trader looks at ETH-VND for a while: the desk stops watching BTC-VND and its book moves on unseen.
      show('ETH-VND');
      // One last change the desk sent before it took the unwatch arrives after it.
      handlers['book.changed']?.(book('BTC-VND', 6, '2400000000', '2410000000'));
      await sleep(20);
      const release = gate('market.watch');
      show('BTC-VND');
      // Until the desk answers, the window has no BTC-VND book: the one it kept is minutes old, not live.
      expect(useDesk.getState().books['BTC-VND']).toBeUndefined();
      answers['market.watch'] = () => book('BTC-VND', 90, '2600000000', '2610000000');
      release();
      await sleep(20);
      expect(useDesk.getState().books['BTC-VND']?.sequence).toBe(90);
    } finally {
      stop();
    }
  });

  it('keeps no answer that comes after the product stopped being watched', async () => {
    answers['market.watch'] = ({ product_id }) => book(product_id ?? '', 3, '2400000000', '2410000000');
    const { useDesk, stop, show } = await feed();
    try {
      show('ETH-VND');
      await sleep(20);
      const release = gate('market.watch');
      show('BTC-VND');
      show('ETH-VND');
      release();
      await sleep(20);
      expect(useDesk.getState().books['BTC-VND']).toBeUndefined();
      expect(useDesk.getState().books['ETH-VND']).toBeDefined();
    } finally {
      stop();
    }
  });

  it('keeps a book and candles streamed while it was loading over the older ones the load brings', async () => {
    answers['market.watch'] = () => book('SOL-VND', 10, '4000000', '4000100');
    answers['market.candles'] = () => [candle('1')];
    const { useDesk, handlers, stop, show } = await feed();
    try {
      const releaseCandles = gate('market.candles');
      show('SOL-VND');
      await sleep(20);
      // The stream moves on while the candles are still being read: the watch's book and candle are older now.
      handlers['book.changed']?.(book('SOL-VND', 11, '4000000', '4000200'));
      handlers['candles.changed']?.({ productId: 'SOL-VND', candles: [candle('3')] });
      releaseCandles();
      await sleep(20);
      expect(useDesk.getState().books['SOL-VND']?.sequence).toBe(11);
      expect(useDesk.getState().candles['SOL-VND']?.map((c) => c.volume)).toEqual(['3']);
    } finally {
      stop();
    }
  });
});
