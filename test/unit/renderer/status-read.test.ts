// The window names the environment the desk is on now: a status read the desk answered before a switch, held back
// while the account read of the same round is slow (a remote venue), does not undo the switch the desk told since.
// Undone, a window showing Production's data said Development, without the red frame, until the next read.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';

const status = (environment: 'development' | 'production'): ConnectionStatus => ({
  environment, production: environment === 'production', state: 'live', apiKey: environment === 'production' ? 'k-prod' : 'k-dev', readOnly: false, detail: '',
});

let desk: 'development' | 'production' = 'development';
let releaseAccount: (() => void) | undefined;

beforeAll(() => {
  const nova = new Proxy({}, {
    get: (_target, method: string) => () => {
      if (method === 'connection.status') return Promise.resolve({ ok: true, value: status(desk) });
      // Development's account read is slow: it answers when the test says.
      if (method === 'account.get') return new Promise((resolve) => (releaseAccount = () => resolve({ ok: false, error: { ref: 'E0902_ServiceUnavailable', message: 'E0902_ServiceUnavailable: gone' } })));
      return Promise.resolve({ ok: false, error: { ref: 'E0902_ServiceUnavailable', message: 'E0902_ServiceUnavailable: not scripted' } });
    },
  });
  (globalThis as Record<string, unknown>).window = { nova, location: { protocol: 'http:', host: 'test' } };
});

afterAll(() => {
  delete (globalThis as Record<string, unknown>).window;
});

describe('the connection the window shows', () => {
  it('is not taken back to the environment a slow round read before the switch', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { loadEverything } = await import('../../../src-renderer/stores/feed');
    useDesk.getState().setConnection(status('development'));
    const round = loadEverything();
    await vi.waitFor(() => expect(releaseAccount).toBeDefined());
    // The desk switches to Production and says so (connection.changed) while Development's account read is out.
    desk = 'production';
    useDesk.getState().setConnection(status('production'));
    releaseAccount?.();
    await round;
    expect(useDesk.getState().connection).toMatchObject({ environment: 'production', production: true });
  });
});
