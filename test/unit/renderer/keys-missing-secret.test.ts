/**
 * A key whose secret the desk no longer holds (storedIn 'missing': its keychain entry gone) is not offered for use.
 * The desk takes keys.use for it, drops the session it was trading on and is left with none ("the secret of key ...
 * is no longer stored: import the key again"): one click on Use cost the trader a live session. Drawn with
 * react-dom/server.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, StoredKey } from '../../../src-shared/ipc/contract';
import { KeysPanel } from '../../../src-renderer/features/keys/KeysPanel';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

const connection: ConnectionStatus = { environment: 'local', production: false, state: 'live', apiKey: 'k-live', readOnly: false, detail: '' };
const key = (apiKey: string, storedIn: StoredKey['storedIn'], active = false): StoredKey => ({
  environment: 'local', apiKey, name: '', readOnly: false, expiredAt: '0', createdAt: '1', origin: 'imported', active, storedIn,
});

describe('a key whose secret is missing', () => {
  it('has no Use button, and says how to use it again; the others keep theirs', () => {
    useDesk.setState({ connection, keys: [key('k-live', 'keychain', true), key('k-gone', 'missing'), key('k-kept', 'keychain')] });
    const html = renderToStaticMarkup(createElement(KeysPanel));
    expect(html).not.toContain('aria-label="Use key k-gone"');
    expect(html).toContain('aria-label="Use key k-kept"');
    expect(html).toMatch(/<code>k-gone<\/code>.*missing: import the key again to use it/);
    // Removing it is still offered: that is how its row goes.
    expect(html).toContain('aria-label="Remove key k-gone"');
  });
});
