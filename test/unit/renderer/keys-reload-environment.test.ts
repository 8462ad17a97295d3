// The keys panel's Refresh (and its reload after a create, an import or a use) listed the keys of whichever
// environment the desk was on: after a switch the window had not heard of yet, the next environment's keys under the
// name it still showed. It names the environment the window shows. Scripted bridge.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, EnvironmentId, StoredKey } from '../../../src-shared/ipc/contract';
import { scriptedWindow } from './fixtures';

/** The desk has switched to Development; the window still shows Local. */
const desk: EnvironmentId = 'development';
const local: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k-local', readOnly: false, detail: '' };
const keyOf = (environment: EnvironmentId): StoredKey => ({
  environment, apiKey: `k-${environment}`, name: '', readOnly: false, expiredAt: '0', createdAt: '1', origin: 'imported', active: true, storedIn: 'keychain',
});
const asked: Array<EnvironmentId | undefined> = [];

beforeAll(() => {
  scriptedWindow({
    'keys.list': ({ environment }: { environment?: EnvironmentId }) => (asked.push(environment), [keyOf(environment ?? desk)]),
  });
});
afterAll(() => vi.unstubAllGlobals());

describe('the keys panel reading its keys again', () => {
  it('lists the keys of the environment the window shows, not of the one the desk switched to', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { reloadKeys } = await import('../../../src-renderer/features/keys/KeysPanel');
    useDesk.setState({ connection: local, keys: [] });
    await reloadKeys();
    expect(asked).toEqual(['local']);
    expect(useDesk.getState().keys.map((k) => k.environment)).toEqual(['local']);
  });

  it('drops keys answered after the window moved to another environment', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { reloadKeys } = await import('../../../src-renderer/features/keys/KeysPanel');
    const { nextView } = await import('../../../src-renderer/stores/desk-actions');
    useDesk.setState({ connection: local, keys: [] });
    const read = reloadKeys();
    // The switch is heard while the read is out: the feed clears the view and reads the next environment's keys.
    nextView();
    await read;
    expect(useDesk.getState().keys).toEqual([]);
  });
});
