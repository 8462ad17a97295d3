/**
 * The Environments panel drawn from a store (react-dom/server, so no browser): the local venue's state is one of its
 * sections, headed as one. It carried an <h1>Nova Desk</h1> from the app's first days: a page title in the middle of
 * the workspace.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { EnvironmentsPanel } from '../../../src-renderer/features/environments/EnvironmentsPanel';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

describe('the Environments panel', () => {
  it('heads the local venue as a section of the panel, with no page title of its own', () => {
    useDesk.setState({ connection: { environment: 'local', production: false, state: 'live', apiKey: 'k', userId: 'u', detail: '' } });
    const html = renderToStaticMarkup(createElement(EnvironmentsPanel));
    expect(html).not.toContain('<h1');
    expect(html).not.toContain('Nova Desk');
    expect(html).toContain('<h2>Environments</h2>');
    expect(html).toContain('<h3>Local venue</h3>');
  });

  it('says in each empty address box which address it takes', () => {
    const environment = (id: 'local' | 'development', name: string) => ({ id, name, production: false, baseUrl: '', wsUrl: '', confirmOrders: false });
    useDesk.setState({ environments: { active: 'local', environments: [environment('local', 'Local'), environment('development', 'Development')], secretStorage: { kind: 'keychain' } } });
    const html = renderToStaticMarkup(createElement(EnvironmentsPanel));
    expect(html).toContain('aria-label="Development REST URL" placeholder="REST https://…"');
    expect(html).toContain('aria-label="Development WebSocket URL" placeholder="WebSocket wss://…"');
  });
});

describe('switching environment from the panel', () => {
  it('is not offered for an environment whose addresses are not saved, and says why; it is once they are', () => {
    const environment = (id: 'local' | 'development' | 'production', name: string, baseUrl: string) => ({ id, name, production: id === 'production', baseUrl, wsUrl: baseUrl === '' ? '' : 'ws://127.0.0.1:1/ws', confirmOrders: false });
    const draw = (devUrl: string): string => {
      useDesk.setState({ environments: { active: 'production', environments: [environment('local', 'Local', ''), environment('development', 'Development', devUrl), environment('production', 'Production', 'http://127.0.0.1:2')], secretStorage: { kind: 'keychain' } } });
      return renderToStaticMarkup(createElement(EnvironmentsPanel));
    };
    const unsaved = draw('');
    expect(unsaved).toMatch(/<button type="button" disabled="" aria-describedby="switch-development-hint">Switch to Development<\/button><span id="switch-development-hint" class="muted"> save its addresses first<\/span>/);
    // Local is the embedded venue: always there to switch to.
    expect(unsaved).toContain('<button type="button">Switch to Local</button>');
    expect(draw('http://127.0.0.1:1')).toContain('<button type="button">Switch to Development</button>');
  });
});

describe('the Environments panel\'s connection line', () => {
  it('says in words that there is no API key, as the desk bar does, not no_key', () => {
    useDesk.setState({ connection: { environment: 'development', production: false, state: 'no_key', detail: '' } });
    const html = renderToStaticMarkup(createElement(EnvironmentsPanel));
    expect(html).toMatch(/aria-label="Connection">development: no API key: market data only/);
  });
});
