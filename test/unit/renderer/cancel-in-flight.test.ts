/**
 * A cancel on its way: the order's Cancel is not offered again until the venue answers, and a second click (on the
 * blotter, the ladder or Cancel selected) sends nothing more. Drawn with react-dom/server, as trading-panels does.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '../../../src-shared/protocol/records';
import { OpenOrdersPanel } from '../../../src-renderer/features/blotters/OpenOrdersPanel';
import { cancelOrders } from '../../../src-renderer/stores/desk-actions';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { restingOrder } from './fixtures';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

const bridge = vi.hoisted(() => ({
  sent: [] as { method: string; request: unknown }[],
  answers: [] as { resolve: (value: unknown) => void; reject: (err: Error) => void }[],
}));

vi.mock('../../../src-renderer/bridge', () => ({
  BridgeError: class extends Error {
    constructor(readonly ref: string, message: string) {
      super(message);
    }
  },
  call: (method: string, request: unknown) => {
    bridge.sent.push({ method, request });
    if (method !== 'orders.cancel' && method !== 'orders.cancelBulk') return Promise.resolve([]);
    return new Promise((resolve, reject) => bridge.answers.push({ resolve, reject }));
  },
  callOnSession: (method: string, request: unknown) => {
    bridge.sent.push({ method, request });
    return Promise.resolve({ value: [] });
  },
  refusalOf: (err: unknown) => err,
}));

const cancelButton = (): string => {
  const html = renderToStaticMarkup(createElement(OpenOrdersPanel, { productId: 'BTC-VND', height: 200 }));
  return /<button[^>]*title="Cancel order a"[^>]*>[^<]*<\/button>/.exec(html)?.[0] ?? '';
};
const sentCancels = (): number => bridge.sent.filter((c) => c.method.startsWith('orders.cancel')).length;

beforeEach(() => {
  bridge.sent.length = 0;
  bridge.answers.length = 0;
  useDesk.setState({ openOrders: {}, history: [], historyLoaded: true, notices: [], cancelling: {} });
  useDesk.getState().setOpenOrders([restingOrder('a'), restingOrder('b')]);
});

describe('a cancel on its way', () => {
  it('disables the order\'s Cancel and says it is cancelling until the venue answers; a second click sends nothing', async () => {
    expect(cancelButton()).not.toContain('disabled');
    const first = cancelOrders(['a']);
    expect(cancelButton()).toContain('disabled');
    expect(cancelButton()).toContain('Cancelling');

    await cancelOrders(['a']);
    await cancelOrders(['a', 'a']);
    expect(sentCancels()).toBe(1);

    const answered: Order = restingOrder('a', { cancel_requested_at: '5', updated_at: '5' });
    bridge.answers[0]?.resolve(answered);
    await first;
    // Answered, the order's own record says a cancel was requested: still not offered again.
    expect(cancelButton()).toContain('disabled');
    expect(useDesk.getState().cancelling).toEqual({});
  });

  it('offers Cancel again when the cancel is refused, and tells why', async () => {
    const first = cancelOrders(['a']);
    expect(cancelButton()).toContain('disabled');
    bridge.answers[0]?.reject(Object.assign(new Error('rate limited'), { ref: 'E0501_RateLimitExceeded' }));
    await first;
    expect(cancelButton()).not.toContain('disabled');
    expect(cancelButton()).toContain('>Cancel<');
    expect(useDesk.getState().notices).toHaveLength(1);
    const again = cancelOrders(['a']);
    expect(sentCancels()).toBe(2);
    bridge.answers[1]?.resolve(restingOrder('a', { cancel_requested_at: '5', updated_at: '5' }));
    await again;
  });

  it('leaves out of a bulk cancel the orders whose cancel is already on its way', async () => {
    const single = cancelOrders(['a']);
    const bulk = cancelOrders(['a', 'b']);
    // Only b was left to send: one order goes by itself.
    expect(bridge.sent.filter((c) => c.method.startsWith('orders.cancel'))).toEqual([
      { method: 'orders.cancel', request: { order_id: 'a', environment: 'local' } },
      { method: 'orders.cancel', request: { order_id: 'b', environment: 'local' } },
    ]);
    for (const answer of bridge.answers) answer.resolve(restingOrder('x', { status: 'DONE', done_reason: 'CANCELED' }));
    await Promise.all([single, bulk]);
  });

  it('names the environment the window shows in single and bulk cancels, so the desk acts on no other after a switch', async () => {
    useDesk.setState({ connection: { environment: 'development', production: false, state: 'live', apiKey: 'k', detail: '' } });
    useDesk.getState().setOpenOrders([restingOrder('a'), restingOrder('b'), restingOrder('c')]);
    const single = cancelOrders(['a']);
    const bulk = cancelOrders(['b', 'c']);
    expect(bridge.sent.filter((c) => c.method.startsWith('orders.cancel'))).toEqual([
      { method: 'orders.cancel', request: { order_id: 'a', environment: 'development' } },
      { method: 'orders.cancelBulk', request: { order_ids: ['b', 'c'], environment: 'development' } },
    ]);
    bridge.answers[0]?.resolve(restingOrder('a', { status: 'DONE', done_reason: 'CANCELED' }));
    bridge.answers[1]?.resolve({ cancelRequested: [], notOpened: [], alreadyCancelRequested: [] });
    await Promise.all([single, bulk]);
    useDesk.setState({ connection: undefined });
  });
});
