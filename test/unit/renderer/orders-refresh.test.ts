/**
 * A read of the orders (refreshOrders: after a reconnect, a bulk cancel, a cancel-all) takes a round trip, and the
 * desk's order events keep coming meanwhile: what the read answers must not undo what they reported.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '../../../src-shared/protocol/records';
import { refreshOrders } from '../../../src-renderer/stores/desk-actions';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { restingOrder } from './fixtures';

const answers = new Map<string, { resolve: (value: Order[]) => void }>();

vi.mock('../../../src-renderer/bridge', () => ({
  BridgeError: class extends Error {},
  callOnSession: (method: string) => new Promise<Order[]>((resolve) => answers.set(method, { resolve })).then((value) => ({ value })),
}));

const order = (id: string, patch: Partial<Order> = {}): Order => restingOrder(id, { updated_at: '10', ...patch });

/** Starts a read; `answer` hands it what the venue had when it served it, after whatever happened meanwhile. */
async function read(): Promise<{ answer: (active: Order[], history: Order[]) => Promise<void> }> {
  answers.clear();
  const done = refreshOrders();
  await vi.waitFor(() => expect(answers.size).toBe(2));
  return {
    answer: async (active, history) => {
      answers.get('orders.active')?.resolve(active);
      answers.get('orders.history')?.resolve(history);
      await done;
    },
  };
}

const openIds = (): string[] => Object.keys(useDesk.getState().openOrders).sort();
const historyOf = (): string[] => useDesk.getState().history.map((o) => `${o.order_id} ${o.done_reason}`);

beforeEach(() => {
  useDesk.setState({ openOrders: {}, history: [], historyLoaded: true, historyCut: false, notices: [] });
});

describe('reading the orders again while order events arrive', () => {
  it('does not reopen an order that filled while the read was on its way, nor drop its fill from the history', async () => {
    useDesk.getState().applyOrders([order('a')]);
    const pending = await read();
    useDesk.getState().applyOrders([order('a', { status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.1', updated_at: '20' })]);
    await pending.answer([order('a')], []);
    expect(openIds()).toEqual([]);
    expect(historyOf()).toEqual(['a FILLED']);
  });

  it('keeps an order placed while the read was on its way', async () => {
    const pending = await read();
    useDesk.getState().applyOrders([order('b', { created_at: '30', updated_at: '30' })]);
    await pending.answer([], []);
    expect(openIds()).toEqual(['b']);
  });

  it('never shows an order both open and done when the two reads disagree', async () => {
    const pending = await read();
    // The active read was served just before the order filled, the history read just after.
    await pending.answer([order('c')], [order('c', { status: 'DONE', done_reason: 'FILLED', updated_at: '20' })]);
    expect(openIds()).toEqual([]);
    expect(historyOf()).toEqual(['c FILLED']);
  });

  it('still takes the read over what it held before it: an order done unheard leaves the open orders', async () => {
    useDesk.getState().applyOrders([order('d'), order('e')]);
    const pending = await read();
    await pending.answer([order('e', { filled_base_size: '0.05', updated_at: '15' })], [order('d', { status: 'DONE', done_reason: 'CANCELED', updated_at: '12' })]);
    expect(openIds()).toEqual(['e']);
    expect(useDesk.getState().openOrders.e?.filled_base_size).toBe('0.05');
    expect(historyOf()).toEqual(['d CANCELED']);
  });
});
