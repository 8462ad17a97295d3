/**
 * The keys panel says, and sends, which environment a key is imported or created for: the desk otherwise files an
 * imported key under whatever environment it is on when the call arrives, and tries its secret on that venue, so a
 * Production key typed while the desk was on Development went to Development's venue. Drawn with react-dom/server.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, EnvironmentId, EnvironmentsView } from '../../../src-shared/ipc/contract';
import { importRequest, keyAction, KeysPanel, productionKeyQuestion, removeKeyQuestion } from '../../../src-renderer/features/keys/KeysPanel';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

function on(environment: EnvironmentId): void {
  const connection: ConnectionStatus = { environment, production: environment === 'production', state: 'no_key', detail: '' };
  const environments: EnvironmentsView = {
    active: environment,
    environments: (['local', 'development', 'production'] as const).map((id) => ({ id, name: id, baseUrl: '', wsUrl: '', production: id === 'production', confirmOrders: id === 'production' })),
    secretStorage: { kind: 'keychain' },
  };
  useDesk.setState({ connection, environments, keys: [] });
}

const form = { apiKey: ' k1 ', apiSecret: 's3cret', userId: '', name: '', use: true };

beforeEach(() => on('local'));

describe('importing a key', () => {
  it('names the environment it is for in the form', () => {
    on('production');
    const html = renderToStaticMarkup(createElement(KeysPanel));
    expect(html).toMatch(/<form aria-label="Import API key"[^]*<select aria-label="Import for environment"[^]*<option value="production" selected="">Production<\/option>/);
    on('development');
    expect(renderToStaticMarkup(createElement(KeysPanel))).toMatch(/<option value="development" selected="">Development<\/option>/);
  });

  it('sends the environment the form named, never leaving the desk to guess', () => {
    expect(importRequest(form, 'production')).toEqual({ environment: 'production', api_key: 'k1', api_secret: 's3cret', use: true });
    expect(importRequest({ ...form, userId: ' u ', name: ' n ' }, 'development')).toMatchObject({ environment: 'development', user_id: 'u', name: 'n' });
  });
});

describe('creating a key', () => {
  it('names the environment it is created on, and asks about Production by name', () => {
    on('production');
    expect(renderToStaticMarkup(createElement(KeysPanel))).toContain('<h3>Create on Production</h3>');
    expect(productionKeyQuestion({ name: 'bot', readOnly: false, use: true })).toMatch(/^PRODUCTION \(real money\): create the trading key "bot" on Production\? The desk will trade with it/);
  });
});

describe('removing a key', () => {
  it('names the environment the key belongs to, Production unmistakably', () => {
    const key = { apiKey: 'k9', name: 'bot', active: false };
    expect(removeKeyQuestion({ ...key, environment: 'production' })).toMatch(/^PRODUCTION \(real money\): remove the Production key "bot" \(k9\) from the desk\?/);
    expect(removeKeyQuestion({ ...key, environment: 'development' })).toMatch(/^Remove the Development key "bot" \(k9\) from the desk\?/);
    expect(removeKeyQuestion({ ...key, name: '', environment: 'local' })).toMatch(/^Remove the Local key k9 from the desk\?/);
    expect(removeKeyQuestion({ ...key, environment: 'local' })).not.toContain('trading with it');
    expect(removeKeyQuestion({ ...key, active: true, environment: 'production' })).toContain('The desk is trading with it now and will stop.');
  });
});

describe('using, removing or revoking a key', () => {
  it('names the environment of the row clicked: the desk does nothing if it has switched since', () => {
    expect(keyAction({ environment: 'production', apiKey: 'k9' })).toEqual({ environment: 'production', api_key: 'k9' });
    expect(keyAction({ environment: 'local', apiKey: 'k9' })).toEqual({ environment: 'local', api_key: 'k9' });
  });
});
