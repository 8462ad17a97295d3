// A window's reads of the account (open orders, history, balances, fills) answered on another session than the one
// it shows: the desk switched environment, or key on one, and the window has not heard yet (its connection.changed
// or status poll is on its way). Kept, the next account's orders and balances were shown under the old name. The
// bridge is scripted: each read is answered on the session the test names, as the desk names it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, Session } from '../../../src-shared/ipc/contract';
import { readOn, restingOrder, scriptedWindow, toldEvents } from './fixtures';

const status = (state: ConnectionStatus['state']): ConnectionStatus => ({ environment: 'local', production: false, state, apiKey: 'k', userId: 'u', readOnly: false, detail: '' });
/** The session the desk reads on: the test moves it. */
let session: Session = { environment: 'local', apiKey: 'k' };
const account = { id: 'u', asset_balances: [{ asset_id: 'VND', free: '1', locked: '0', total: '1' }] };
let balanceReads = 0;
/** Every answer given has been taken (or dropped): they all settle in microtasks, before the next task. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeAll(() => {
  scriptedWindow({
    'connection.status': () => status('live'),
    'orders.active': () => readOn(session, [restingOrder('open-1')]),
    'orders.history': () => readOn(session, [restingOrder('done-1', { status: 'DONE', done_reason: 'CANCELED' })]),
    'orders.fills': () => readOn(session, []),
    'account.get': () => (balanceReads++, readOn(session, account)),
  });
  vi.stubGlobal('location', { search: '' });
  vi.stubGlobal('localStorage', { getItem: () => 'off', setItem: () => undefined });
});

afterAll(() => vi.unstubAllGlobals());

describe('reads of the account answered on another session than the window shows', () => {
  it('drops open orders, history and balances read on another environment or key, and takes those of its own', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { startFeed } = await import('../../../src-renderer/stores/feed');
    const { refreshOrders } = await import('../../../src-renderer/stores/desk-actions');
    const { subscribe, tell } = toldEvents();
    useDesk.getState().clearAccountData();
    useDesk.getState().setConnection(status('reconnecting'));
    const stop = startFeed(subscribe);
    const shown = () => {
      const s = useDesk.getState();
      return { open: Object.keys(s.openOrders), done: s.history.map((o) => o.order_id), account: s.account?.id };
    };
    try {
      // Back live on Local, as the window shows it; the desk already reads on Development.
      session = { environment: 'development', apiKey: 'k-dev' };
      tell('connection.changed', status('live'));
      await vi.waitFor(() => expect(balanceReads).toBe(1));
      await refreshOrders();
      await settled();
      expect(shown()).toEqual({ open: [], done: [], account: undefined });

      // Another key on Local, not heard of yet: its account is not this one's either.
      session = { environment: 'local', apiKey: 'k-other' };
      tell('connection.changed', status('reconnecting'));
      tell('connection.changed', status('live'));
      await vi.waitFor(() => expect(balanceReads).toBe(2));
      await refreshOrders();
      await settled();
      expect(shown()).toEqual({ open: [], done: [], account: undefined });

      // The session the window shows: taken.
      session = { environment: 'local', apiKey: 'k' };
      tell('connection.changed', status('reconnecting'));
      tell('connection.changed', status('live'));
      await vi.waitFor(() => expect(balanceReads).toBe(3));
      await refreshOrders();
      await settled();
      expect(shown()).toEqual({ open: ['open-1'], done: ['done-1'], account: 'u' });
    } finally {
      stop();
    }
  });

  it('gives a panel\'s own history search nothing when it was answered on another session', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { attemptOnShownSession } = await import('../../../src-renderer/stores/desk-actions');
    useDesk.getState().setConnection(status('live'));
    session = { environment: 'development', apiKey: 'k-dev' };
    expect(await attemptOnShownSession('orders.history', { limit: 10 })).toBeUndefined();
    session = { environment: 'local', apiKey: 'k' };
    const answer = await attemptOnShownSession('orders.history', { limit: 10 });
    expect(answer !== undefined && 'value' in answer ? answer.value.map((o) => o.order_id) : answer).toEqual(['done-1']);
  });
});
