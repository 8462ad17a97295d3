/**
 * A read of the fills that fails is said on the Fills panel until one answers: it was dropped, and the blotter
 * stopped updating with nothing said. A read answered on another environment than the window shows is not kept.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, Fill, Session } from '../../../src-shared/ipc/contract';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { loadEverything } from '../../../src-renderer/stores/feed';

let fillsAnswer: () => Promise<{ value: Fill[]; session?: Session }> = () => Promise.resolve({ value: [], session: { environment: 'local' } });
let statusAnswer: ConnectionStatus | undefined;

vi.mock('../../../src-renderer/bridge', () => ({
  BridgeError: class extends Error {},
  call: (method: string) => Promise.resolve(method === 'connection.status' ? statusAnswer : undefined),
  callOnSession: (method: string) => (method === 'orders.fills' ? fillsAnswer() : Promise.resolve({ value: method === 'orders.active' || method === 'orders.history' ? [] : undefined })),
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

    fillsAnswer = () => Promise.resolve({ value: [fill], session: { environment: 'local' } });
    await loadEverything();
    expect(useDesk.getState().fillsProblem).toBeUndefined();
    expect(useDesk.getState().fills.map((f) => f.tradeId)).toEqual(['t1']);
  });

  it('drops fills read on another environment than the window shows, which a switch it has not heard of yet brought', async () => {
    const status = (environment: 'local' | 'development'): ConnectionStatus => ({ environment, production: false, state: 'live', apiKey: `k-${environment}`, readOnly: false, detail: '' });
    useDesk.getState().setConnection(status('local'));
    // The desk is on Development already; its connection.changed has not reached this window, and its status read
    // was answered before the switch.
    statusAnswer = status('local');
    fillsAnswer = () => Promise.resolve({ value: [fill], session: { environment: 'development' } });
    await loadEverything();
    expect(useDesk.getState().fills).toEqual([]);

    // Heard: the window shows Development, whose fills it then takes.
    useDesk.getState().setConnection(status('development'));
    statusAnswer = status('development');
    await loadEverything();
    expect(useDesk.getState().fills.map((f) => f.tradeId)).toEqual(['t1']);

    // Another key on Development, not heard of yet: its account's fills are not this one's. (The opening window
    // then reads everything again, which clears what it held, and still takes none of them.)
    fillsAnswer = () => Promise.resolve({ value: [{ ...fill, tradeId: 't2' }], session: { environment: 'development', apiKey: 'k-other' } });
    await loadEverything();
    expect(useDesk.getState().fills.map((f) => f.tradeId)).not.toContain('t2');
    fillsAnswer = () => Promise.resolve({ value: [{ ...fill, tradeId: 't2' }], session: { environment: 'development', apiKey: 'k-development' } });
    await loadEverything();
    expect(useDesk.getState().fills.map((f) => f.tradeId)).toContain('t2');
  });
});
