/**
 * End to end: an import of a key refused for one of its boxes keeps the secret the trader typed, so that fixing the
 * box and importing again is all it takes. The Keys panel emptied the secret box after every answer, refusals too:
 * a user id one character too long cost the trader the secret, which the venue shows once, where it was made. In
 * Debian's Chromium against browser mode. Needs /usr/bin/chromium.
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
  ({ desk, dataDir, browser, page } = await openDeskInBrowser('key-import'));
}, 120_000);

afterAll(() => tearDown(browser, desk, dataDir), 60_000);

describe('importing a key the desk refuses for one of its boxes', () => {
  it('says so beside that box and keeps the secret typed, until the key is stored', { timeout: 60_000 }, async () => {
    const form = page.getByRole('form', { name: 'Import API key' });
    const secret = form.getByLabel('API secret', { exact: true });
    await form.getByLabel('API key', { exact: true }).fill('nk_0123456789abcdef01234567');
    await secret.fill('c2VjcmV0LXRoYXQtaXMtbG9uZy1lbm91Z2g');
    // One character over what the contract takes.
    await form.getByLabel('User id', { exact: true }).fill('u'.repeat(129));
    await form.getByRole('button', { name: 'Import key' }).click();

    await expect.poll(() => form.getByLabel('User id', { exact: true }).getAttribute('aria-invalid'), { timeout: WAIT }).toBe('true');
    expect(await form.getByRole('alert').allTextContents()).toEqual([expect.stringMatching(/128/)]);
    expect(await secret.inputValue()).toBe('c2VjcmV0LXRoYXQtaXMtbG9uZy1lbm91Z2g');
    await expect(form.getByRole('button', { name: 'Import key' }).isEnabled()).resolves.toBe(true);

    // Fixed and imported again, for Development (where nothing listens: the desk stores it unchecked): stored, and
    // the secret leaves the form.
    const env = page.getByRole('region', { name: 'Environments' });
    await env.getByLabel('Development REST URL').fill('http://127.0.0.1:9/');
    await env.getByLabel('Development WebSocket URL').fill('ws://127.0.0.1:9/ws');
    await env.getByRole('form', { name: 'Development addresses' }).getByRole('button', { name: 'Save' }).click();
    await form.getByLabel('Import for environment').selectOption('development');
    await form.getByLabel('User id', { exact: true }).fill('');
    await form.getByLabel('Trade with it').uncheck();
    await form.getByRole('button', { name: 'Import key' }).click();
    const panel = page.getByRole('region', { name: 'API keys' });
    await panel.getByRole('status').filter({ hasText: /^Imported nk_0123456789abcdef01234567 for Development/ }).waitFor({ timeout: WAIT });
    expect(await secret.inputValue()).toBe('');
    expect(await form.getByRole('alert').count()).toBe(0);
  });
});
