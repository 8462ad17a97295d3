// On a switch the window reads the keys again. It asked for "the desk's keys", which the desk answers with those of
// the environment it is on as it answers: when it had switched once more before the window heard, the window listed
// the next environment's keys under the name it showed. It asks for the keys of the environment it now shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionStatus, EnvironmentId, StoredKey } from '../../../src-shared/ipc/contract';

/** Where the desk already is when the window's reads arrive: one switch ahead of the window. */
const desk: EnvironmentId = 'development';
const connection = (environment: EnvironmentId): ConnectionStatus => ({ environment, production: false, state: 'live', apiKey: `k-${environment}`, readOnly: false, detail: '' });
const keyOf = (environment: EnvironmentId): StoredKey => ({
  environment, apiKey: `k-${environment}`, name: '', readOnly: false, expiredAt: '0', createdAt: '1', origin: 'imported', active: true, storedIn: 'keychain',
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(() => {
  const answers: Record<string, (request: Record<string, unknown>) => unknown> = {
    'keys.list': (request) => [keyOf((request['environment'] as EnvironmentId | undefined) ?? desk)],
    'connection.status': () => connection(desk),
    'market.products': () => [],
    'orders.active': () => [],
    'orders.history': () => [],
    'orders.fills': () => [],
  };
  const nova = new Proxy({}, {
    get: (_target, method: string) => (request: Record<string, unknown> = {}) => {
      const answer = answers[method];
      return sleep(5).then(() => (answer === undefined ? { ok: false, error: { ref: 'E0902_ServiceUnavailable', message: 'E0902_ServiceUnavailable: not scripted' } } : { ok: true, value: answer(request), session: { environment: desk, apiKey: `k-${desk}` } }));
    },
  });
  (globalThis as Record<string, unknown>).window = { nova, location: { protocol: 'http:', host: 'test' } };
});

afterAll(() => {
  delete (globalThis as Record<string, unknown>).window;
});

describe('the keys a window lists after a switch', () => {
  it('are those of the environment it switched to, though the desk is already on another', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { startFeed } = await import('../../../src-renderer/stores/feed');
    const handlers: Record<string, (payload: unknown) => void> = {};
    useDesk.getState().setConnection(connection('production'));
    const stop = startFeed(((name: string, handler: (payload: unknown) => void) => {
      handlers[name] = handler;
      return () => undefined;
    }) as never);
    try {
      await sleep(100);
      handlers['connection.changed']?.(connection('local'));
      await sleep(200);
      expect(useDesk.getState().keys.map((k) => k.environment)).toEqual(['local']);
    } finally {
      stop();
    }
  });
});
