/**
 * End to end: a double click on Create key makes one key. The Keys panel sent keys.create for each submit of its
 * form, so the second click of a double click made a second key on the venue, its secret stored too, with the note
 * naming only the last (and, with "Trade with it", the desk trading with that one). In Debian's Chromium against
 * browser mode, the page's calls to the desk counted on their way. Needs /usr/bin/chromium.
 */
import type { ChildProcess } from 'node:child_process';
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAIT, openDeskInBrowser, tearDown } from './web-desk';

let desk: ChildProcess;
let dataDir: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ desk, dataDir, browser, page } = await openDeskInBrowser('key-create'));
}, 120_000);

afterAll(() => tearDown(browser, desk, dataDir), 60_000);

describe('creating a key with a double click', () => {
  it('makes one key', { timeout: 60_000 }, async () => {
    // Beside the test's page, let in by its session's cookie, its bridge routed to count the creates sent.
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, storageState: await page.context().storageState() });
    try {
      const counted = await context.newPage();
      let creates = 0;
      await counted.routeWebSocket(/\/bridge/, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((message) => {
          const frame = typeof message === 'string' ? (JSON.parse(message) as { method?: string }) : {};
          if (frame.method === 'keys.create') creates += 1;
          server.send(message);
        });
      });
      await counted.goto(page.url());
      const panel = counted.getByRole('region', { name: 'API keys' });
      const named = panel.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'twice' });
      await panel.getByRole('button', { name: /^Remove key / }).first().waitFor({ timeout: WAIT });
      const form = panel.getByRole('form', { name: 'Create API key' });
      await form.getByLabel('Key name').fill('twice');
      await form.getByLabel('Trade with it').uncheck();

      await form.getByRole('button', { name: 'Create key' }).dblclick();
      await panel.getByRole('status').filter({ hasText: /^Created / }).waitFor({ timeout: WAIT });
      await expect.poll(() => named.count(), { timeout: WAIT }).toBeGreaterThan(0);
      expect(creates).toBe(1);
      // Read again from the desk: one key of that name.
      await panel.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(() => named.count(), { timeout: WAIT }).toBe(1);
      await expect(form.getByRole('button', { name: 'Create key' }).isEnabled()).resolves.toBe(true);
    } finally {
      await context.close();
    }
  });
});
