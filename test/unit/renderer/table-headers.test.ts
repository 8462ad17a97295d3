/**
 * Every column of the keys and environments tables has a header a screen reader can say: the last one, of each
 * row's buttons (Use, Remove, Revoke; Switch to), had none, so moving into it announced nothing of what it holds.
 * Drawn with react-dom/server.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { EnvironmentsView } from '../../../src-shared/ipc/contract';
import { EnvironmentsPanel } from '../../../src-renderer/features/environments/EnvironmentsPanel';
import { KeysPanel } from '../../../src-renderer/features/keys/KeysPanel';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

/** The text of each header cell of the table named `label`. */
function headers(html: string, label: string): string[] {
  const table = new RegExp(`<table aria-label="${label}"[^>]*>.*?</thead>`).exec(html)?.[0] ?? '';
  return [...table.matchAll(/<th[^>]*?(?:\/>|>(.*?)<\/th>)/g)].map((m) => m[1] ?? '');
}

describe('the keys and environments tables', () => {
  it('name every column, the one of each row\'s buttons included', () => {
    const environments: EnvironmentsView = {
      active: 'local',
      environments: (['local', 'development', 'production'] as const).map((id) => ({ id, name: id, baseUrl: '', wsUrl: '', production: id === 'production', confirmOrders: id === 'production' })),
      secretStorage: { kind: 'keychain' },
    };
    useDesk.setState({ environments, keys: [] });
    for (const [html, label] of [[renderToStaticMarkup(createElement(KeysPanel)), 'API keys'], [renderToStaticMarkup(createElement(EnvironmentsPanel)), 'Environments']] as const) {
      const named = headers(html, label);
      expect(named.length).toBeGreaterThan(3);
      expect(named.filter((text) => text.trim() === '')).toEqual([]);
    }
  });
});
