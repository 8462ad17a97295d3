/**
 * A read of the open orders or of the order history that fails is said on its blotter until one answers: the
 * blotters said "Nothing yet." (or went on showing the last list as current) when the desk could not read them.
 */
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../src-shared/ipc/contract';
import type { Order } from '../../../src-shared/protocol/records';
import { OpenOrdersPanel } from '../../../src-renderer/features/blotters/OpenOrdersPanel';
import { OrderHistoryPanel } from '../../../src-renderer/features/blotters/OrderHistoryPanel';
import { refreshOrders } from '../../../src-renderer/stores/desk-actions';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { restingOrder } from './fixtures';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

type Answer = () => Promise<{ value: Order[]; session?: Session }>;
const answered = (orders: Order[]): Answer => () => Promise.resolve({ value: orders, session: { environment: 'local' } });
const refused: Answer = () => Promise.reject(new Error('E0503 rate limit exceeded'));
let activeAnswer: Answer = answered([]);
let historyAnswer: Answer = answered([]);

vi.mock('../../../src-renderer/bridge', () => ({
  BridgeError: class extends Error {},
  refusalOf: (err: unknown) => Object.assign(err as Error, { ref: 'E0503_RateLimit' }),
  call: () => Promise.resolve(undefined),
  callOnSession: (method: string) => (method === 'orders.active' ? activeAnswer() : historyAnswer()),
}));

const draw = <P extends object>(panel: FunctionComponent<P>, props: P): string => renderToStaticMarkup(createElement(panel, props));
const openPanel = (): string => draw(OpenOrdersPanel, { productId: 'BTC-VND', height: 200 });
const historyPanel = (): string => draw(OrderHistoryPanel, { panelId: 'history', height: 200 });

beforeEach(() => {
  useDesk.getState().clearAccountData();
  useDesk.setState({ notices: [] });
});

describe('reading the orders', () => {
  it('says on both blotters that the read failed, rather than "Nothing yet.", and forgets it once a read answers', async () => {
    activeAnswer = refused;
    historyAnswer = refused;
    await refreshOrders();
    expect(useDesk.getState().openOrdersProblem).toBe('E0503 rate limit exceeded');
    expect(useDesk.getState().historyProblem).toBe('E0503 rate limit exceeded');
    expect(openPanel()).toContain('Not updated, the last read failed: E0503 rate limit exceeded');
    expect(historyPanel()).toContain('Not updated, the last read failed: E0503 rate limit exceeded');

    activeAnswer = answered([restingOrder('a')]);
    historyAnswer = answered([restingOrder('h', { status: 'DONE', done_reason: 'FILLED' })]);
    await refreshOrders();
    expect(useDesk.getState().openOrdersProblem).toBeUndefined();
    expect(useDesk.getState().historyProblem).toBeUndefined();
    expect(openPanel()).not.toContain('Not updated');
    expect(historyPanel()).not.toContain('Not updated');
  });

  it('marks a list kept from an earlier read as not updated when only that read fails', async () => {
    activeAnswer = answered([restingOrder('a')]);
    historyAnswer = answered([restingOrder('h', { status: 'DONE', done_reason: 'FILLED' })]);
    await refreshOrders();
    historyAnswer = refused;
    await refreshOrders();
    expect(historyPanel()).toContain('Not updated, the last read failed');
    expect(historyPanel()).toContain('c-h');
    expect(openPanel()).not.toContain('Not updated');
  });
});
