/**
 * A popped-out panel is a window of its own, without the desk bar: it must still say which environment the desk is
 * on, or a ladder on Development and one on Local (or Production before its first red frame) look the same.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, EnvironmentId } from '../../../src-shared/ipc/contract';
import { PoppedOutPanel } from '../../../src-renderer/features/workspace/PoppedOutPanel';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

beforeAll(() => vi.stubGlobal('window', { innerHeight: 640 }));
afterAll(() => vi.unstubAllGlobals());

function drawOn(environment: EnvironmentId): string {
  const connection: ConnectionStatus = { environment, production: environment === 'production', state: 'live', apiKey: 'k', detail: '' };
  useDesk.setState({ connection });
  return renderToStaticMarkup(createElement(PoppedOutPanel, { target: { id: 'p1', kind: 'account' } }));
}

describe('a popped-out panel', () => {
  it('names the environment in its own window', () => {
    expect(drawOn('development')).toMatch(/aria-label="Environment"[^>]*>Development</);
    expect(drawOn('local')).toMatch(/aria-label="Environment"[^>]*>Local</);
    expect(drawOn('production')).toMatch(/class="badge production-badge" aria-label="Environment"[^>]*>PRODUCTION</);
  });
});
