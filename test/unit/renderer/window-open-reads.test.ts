// A window opening reads each product's market once: loadEverything read it, and the feed started right after
// (main.tsx) watched and read it all again, the trades as far back as the tape shows. The bridge is scripted.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';
import { scriptedWindow } from './fixtures';

const live: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k', readOnly: false, detail: '' };
const called: string[] = [];

beforeAll(() => {
  const answers: Record<string, (request: { product_id?: string }) => unknown> = {
    'connection.status': () => live,
    'market.watch': ({ product_id }) => ({ productId: product_id, sequence: 1, time: '1', source: 'stream', bids: [], asks: [] }),
    'market.candles': () => [],
    'market.trades': () => [],
    'market.products': () => [],
    'orders.active': () => [],
    'orders.history': () => [],
    'orders.fills': () => [],
  };
  const recorded = Object.fromEntries(Object.entries(answers).map(([method, answer]) => [method, (request: { product_id?: string }) => {
    called.push(request.product_id === undefined ? method : `${method} ${request.product_id}`);
    return answer(request);
  }]));
  scriptedWindow({ ...recorded, 'market.unwatch': ({ product_id }: { product_id: string }) => (called.push(`market.unwatch ${product_id}`), { watching: [] }) });
});

afterAll(() => vi.unstubAllGlobals());

describe('a window opening', () => {
  it('watches and reads each product it shows once, and lets go of one it stopped showing before the feed began', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { loadEverything, startFeed } = await import('../../../src-renderer/stores/feed');
    const layout = useDesk.getState().layout;
    const ladderOn = (productId: string) => [{ id: 'ladder', kind: 'ladder' as const, width: 1, height: 1, productId }];
    useDesk.getState().setLayout({ ...layout, productId: 'BTC-VND', panels: ladderOn('ETH-VND') });
    const loaded = await loadEverything();
    // Between the first load and the feed the ladder moves on to SOL-VND.
    useDesk.getState().setLayout({ ...useDesk.getState().layout, panels: ladderOn('SOL-VND') });
    const stop = startFeed(() => () => undefined, loaded);
    try {
      const count = (call: string): number => called.filter((c) => c === call).length;
      for (const product of ['BTC-VND', 'ETH-VND', 'SOL-VND']) {
        expect(count(`market.watch ${product}`)).toBe(1);
        expect(count(`market.trades ${product}`)).toBe(1);
        expect(count(`market.candles ${product}`)).toBe(1);
      }
      expect(count('market.unwatch ETH-VND')).toBe(1);
      expect(count('market.unwatch BTC-VND')).toBe(0);
    } finally {
      stop();
    }
  });
});
