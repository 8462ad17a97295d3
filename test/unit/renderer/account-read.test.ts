// The balances shown are never older than the desk's last word on them: a periodic read of the account that the
// venue answered before a fill, arriving after the desk told the balances the fill left, does not put the old
// ones back. The bridge is scripted so the read answers exactly when the test releases it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';
import type { Account } from '../../../src-shared/protocol/records';

const connection: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k', readOnly: false, detail: '' };
const account = (freeVnd: string, lockedVnd: string): Account => ({
  id: 'u', maker_fee_rate: '0.001', taker_fee_rate: '0.002',
  asset_balances: [{ asset: 'VND', free: freeVnd, locked: lockedVnd, balance: String(BigInt(freeVnd) + BigInt(lockedVnd)) }],
  stats: {
    order_stats: { total_orders: '1', total_open_orders: '1', total_pending_orders: '0', total_accepted_orders: '1', total_done_orders: '0' },
    trading_stats: { total_trading_volume: '0' },
  },
});

let answerAccount: () => Promise<Account> = () => Promise.resolve(account('1000000000', '0'));

beforeAll(() => {
  const answers: Record<string, () => unknown> = { 'connection.status': () => connection };
  const nova = new Proxy({}, {
    get: (_target, method: string) => async () => {
      if (method === 'account.get') return { ok: true, value: await answerAccount() };
      const answer = answers[method];
      return answer === undefined ? { ok: false, error: { ref: 'E0902_ServiceUnavailable', message: 'E0902_ServiceUnavailable: not scripted' } } : { ok: true, value: answer() };
    },
  });
  (globalThis as Record<string, unknown>).window = { nova, location: { protocol: 'http:', host: 'test' } };
});

afterAll(() => {
  delete (globalThis as Record<string, unknown>).window;
});

describe('the account in the window', () => {
  it('keeps the balances the desk told over an older read that answers after them', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { loadEverything } = await import('../../../src-renderer/stores/feed');
    useDesk.getState().setConnection(connection);
    // A read asked before the trader's order locked 400 000 000 VND...
    let answer: ((a: Account) => void) | undefined;
    answerAccount = () => new Promise((resolve) => (answer = resolve));
    const reading = loadEverything();
    await vi.waitFor(() => expect(answer).toBeDefined());
    // ...the desk tells the balances after the order (account.changed)...
    useDesk.getState().setAccount(account('600000000', '400000000'));
    // ...and then the read answers with the venue's balances from before it.
    answer?.(account('1000000000', '0'));
    await reading;
    expect(useDesk.getState().account?.asset_balances[0]).toMatchObject({ free: '600000000', locked: '400000000' });
  });
});
