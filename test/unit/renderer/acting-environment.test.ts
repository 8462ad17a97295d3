/**
 * One rule for which environment a window acts on, and whether that is Production: the desk bar's badge, a panel's
 * red frame, the keys panel's Create heading and the ticket all read it from connection-view, so none of them can
 * name another environment than the one the next order goes to (the session's, which the environments list lags).
 * Drawn with react-dom/server.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, EnvironmentId, EnvironmentsView } from '../../../src-shared/ipc/contract';
import { KeysPanel } from '../../../src-renderer/features/keys/KeysPanel';
import { EnvironmentBadge } from '../../../src-renderer/features/workspace/DeskBar';
import { actingEnvironment, badgeName } from '../../../src-renderer/stores/connection-view';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { Panel } from '../../../src-renderer/ui/Panel';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

const list = (active: EnvironmentId): EnvironmentsView => ({
  active,
  environments: (['local', 'development', 'production'] as const).map((id) => ({ id, name: id, baseUrl: '', wsUrl: '', production: id === 'production', confirmOrders: id === 'production' })),
  secretStorage: { kind: 'keychain' },
});
const session = (environment: EnvironmentId): ConnectionStatus => ({ environment, production: environment === 'production', state: 'no_key', detail: '' });

function drawn(): { badge: string; frame: boolean; keys: string } {
  const badge = renderToStaticMarkup(createElement(EnvironmentBadge));
  const frame = renderToStaticMarkup(createElement(Panel, { title: 'T', children: 'x' })).includes('class="panel production"');
  const keys = /<h3>Create on (\w+)<\/h3>/.exec(renderToStaticMarkup(createElement(KeysPanel)))?.[1] ?? '';
  return { badge: />([^<]+)</.exec(badge)?.[1] ?? '', frame, keys };
}

describe('the environment a window acts on', () => {
  it('is the session\'s, which the environments list can lag by an event', () => {
    useDesk.setState({ connection: session('production'), environments: list('local'), keys: [] });
    expect(actingEnvironment(useDesk.getState())).toBe('production');
    expect(drawn()).toEqual({ badge: 'PRODUCTION', frame: true, keys: 'Production' });
    useDesk.setState({ connection: session('development'), environments: list('production') });
    expect(drawn()).toEqual({ badge: 'Development', frame: false, keys: 'Development' });
  });

  it('is the list\'s active one before any session is heard of, and Local before either', () => {
    useDesk.setState({ connection: undefined, environments: list('production'), keys: [] });
    expect(drawn()).toEqual({ badge: 'PRODUCTION', frame: true, keys: 'Production' });
    useDesk.setState({ connection: undefined, environments: undefined });
    expect(actingEnvironment(useDesk.getState())).toBe('local');
    expect(drawn()).toEqual({ badge: 'Local', frame: false, keys: 'Local' });
  });

  it('is named in capitals only for Production', () => {
    expect(['local', 'development', 'production'].map((id) => badgeName(id as EnvironmentId))).toEqual(['Local', 'Development', 'PRODUCTION']);
  });
});
