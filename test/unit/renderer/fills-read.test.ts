/**
 * A read of the fills that fails is said on the Fills panel until one answers: it was dropped, and the blotter
 * stopped updating with nothing said.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Fill } from '../../../src-shared/ipc/contract';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { loadEverything } from '../../../src-renderer/stores/feed';

let fillsAnswer: () => Promise<Fill[]> = () => Promise.resolve([]);

vi.mock('../../../src-renderer/bridge', () => ({
  BridgeError: class extends Error {},
  call: (method: string) => (method === 'orders.fills' ? fillsAnswer() : method === 'orders.active' || method === 'orders.history' ? Promise.resolve([]) : Promise.resolve(undefined)),
}));

const fill: Fill = {
  tradeId: 't1', orderId: 'o1', clientOrderId: '', productId: 'BTC-VND', side: 'BUY', price: '2500000000', size: '0.001',
  liquidity: 'TAKER', feeAsset: 'VND', feeAmount: '5000', time: '1795766000000000000',
};

beforeEach(() => useDesk.getState().clearAccountData());

describe('reading the fills', () => {
  it('keeps why the last read failed, and forgets it once a read answers', async () => {
    fillsAnswer = () => Promise.reject(new Error('E0503 rate limit exceeded'));
    await loadEverything();
    expect(useDesk.getState().fillsProblem).toBe('E0503 rate limit exceeded');

    fillsAnswer = () => Promise.resolve([fill]);
    await loadEverything();
    expect(useDesk.getState().fillsProblem).toBeUndefined();
    expect(useDesk.getState().fills.map((f) => f.tradeId)).toEqual(['t1']);
  });
});
