// The keys panel's Remove and Revoke put the desk's answer, the keys of the environment the desk was on as it
// answered, in the store: after a switch the window had not heard of yet, the next environment's keys were listed
// under the name it still showed. It lists those of the environment it shows instead. Scripted bridge.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, EnvironmentId, StoredKey } from '../../../src-shared/ipc/contract';
import { scriptedWindow } from './fixtures';

/** The desk has switched to Development; the window still shows Local. */
const desk: EnvironmentId = 'development';
const local: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k-local', readOnly: false, detail: '' };
const keyOf = (environment: EnvironmentId, apiKey = `k-${environment}`): StoredKey => ({
  environment, apiKey, name: '', readOnly: false, expiredAt: '0', createdAt: '1', origin: 'imported', active: apiKey === `k-${environment}`, storedIn: 'keychain',
});
const asked: string[] = [];

beforeAll(() => {
  scriptedWindow({
    // Both answer as the desk does: with the keys of the environment it is on now.
    'keys.forget': ({ environment, api_key }: { environment: EnvironmentId; api_key: string }) => (asked.push(`forget ${environment} ${api_key}`), [keyOf(desk)]),
    'keys.revoke': ({ environment, api_key }: { environment: EnvironmentId; api_key: string }) => (asked.push(`revoke ${environment} ${api_key}`), [keyOf(desk)]),
    'keys.list': ({ environment }: { environment?: EnvironmentId }) => (asked.push(`list ${environment}`), [keyOf(environment ?? desk)]),
  });
});
afterAll(() => vi.unstubAllGlobals());

describe('the keys panel removing or revoking a key', () => {
  it.each(['keys.forget', 'keys.revoke'] as const)('after %s, lists the keys of the environment the window shows, not of the one the desk switched to', async (method) => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { dropKey } = await import('../../../src-renderer/features/keys/KeysPanel');
    useDesk.setState({ connection: local, keys: [keyOf('local'), keyOf('local', 'k-old')] });
    asked.length = 0;
    await dropKey(method, keyOf('local', 'k-old'));
    expect(asked[0]).toBe(`${method === 'keys.forget' ? 'forget' : 'revoke'} local k-old`);
    expect(useDesk.getState().keys.map((k) => `${k.environment}/${k.apiKey}`)).toEqual(['local/k-local']);
  });
});
