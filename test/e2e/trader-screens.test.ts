/**
 * End to end: what a trader reads and answers on the desk's screens, in Debian's Chromium against browser mode with
 * its embedded simulated venue: a held order's confirmation that follows the ticket, and the wording and figures the
 * panels show. Tests run in order and share the desk. Needs /usr/bin/chromium.
 */
import type { ChildProcess } from 'node:child_process';
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCALE, fixed } from './fixed-decimal';
import { WAIT, openDeskInBrowser, restingBuyPrice, tearDown } from './web-desk';

let desk: ChildProcess;
let dataDir: string;
let browser: Browser;
let page: Page;
/** What the page's console said was wrong while the desk opened and since: a resource the server did not have. */
const consoleErrors: string[] = [];

beforeAll(async () => {
  ({ desk, dataDir, browser, page } = await openDeskInBrowser('screens', 1400, (opened) => {
    opened.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
  }));
}, 120_000);

afterAll(() => tearDown(browser, desk, dataDir), 60_000);

/** The label of the field holding the keyboard's focus. */
function focusedField(): Promise<string> {
  return page.evaluate(() => document.activeElement?.closest('label')?.firstChild?.textContent?.trim() ?? document.activeElement?.tagName ?? '');
}

function openOrders(): Promise<string[]> {
  return page.getByRole('table', { name: 'Open orders' }).evaluate((t) => [...t.querySelectorAll('tbody tr:not([aria-hidden])')].map((row) => (row.textContent ?? '').replaceAll('\u202f', '')));
}

describe('what the trader sees', () => {
  it('opens without asking the server for a file it does not have (a favicon)', { timeout: 60_000 }, async () => {
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:/);
    expect(consoleErrors.filter((text) => text.includes('404'))).toEqual([]);
  });

  it('withdraws a held order\'s confirmation once the trader edits the order on the ticket, so Send anyway never sends the old one', { timeout: 60_000 }, async () => {
    const corrected = await restingBuyPrice(page);
    // 25% under the market: past the desk's 10% deviation limit, so the order is held for a "Send anyway".
    const far = String(((fixed(corrected) / SCALE) * 75n) / 95n / 10_000n * 10_000n);
    const held = page.getByRole('dialog', { name: 'Confirm order' });
    const hold = async (): Promise<void> => {
      await page.getByLabel('Type', { exact: true }).selectOption('LIMIT');
      await page.getByLabel('Price', { exact: true }).fill(far);
      await page.getByLabel('Size', { exact: true }).fill('0.001');
      await page.getByRole('button', { name: /^Buy/ }).click();
      await held.getByRole('button', { name: 'Send anyway' }).waitFor({ timeout: WAIT });
    };

    await hold();
    // The trader corrects the price the question was about: the question goes, the cursor stays where they type.
    await page.getByLabel('Price', { exact: true }).fill(corrected);
    await held.waitFor({ state: 'hidden', timeout: WAIT });
    expect(await focusedField()).toBe('Price');
    // Typed back, the old order is not asked about again: the next send asks about what the ticket then shows.
    await page.getByLabel('Price', { exact: true }).fill(far);
    expect(await held.isVisible()).toBe(false);

    // Any part of the order: its side, its size, the product the ticket trades.
    await page.getByRole('button', { name: /^Buy/ }).click();
    await held.waitFor({ timeout: WAIT });
    await page.getByRole('button', { name: 'Choose sell side' }).click();
    await held.waitFor({ state: 'hidden', timeout: WAIT });
    await page.getByRole('button', { name: 'Choose buy side' }).click();
    await hold();
    await page.getByLabel('Size', { exact: true }).fill('0.002');
    await held.waitFor({ state: 'hidden', timeout: WAIT });
    await hold();
    await page.getByLabel('Desk product').selectOption('ETH-VND');
    await page.getByRole('form', { name: 'Order ticket ETH-VND' }).waitFor({ timeout: WAIT });
    expect(await held.isVisible()).toBe(false);
    await page.getByLabel('Desk product').selectOption('BTC-VND');
    await page.getByRole('form', { name: 'Order ticket BTC-VND' }).waitFor({ timeout: WAIT });
    expect(await held.isVisible()).toBe(false);

    // Corrected, the order goes at the corrected price without a question, and the far one was never sent.
    await page.getByLabel('Price', { exact: true }).fill(corrected);
    await page.getByLabel('Client order id', { exact: true }).fill('e2e-corrected');
    await page.getByRole('button', { name: /^Buy/ }).click();
    await expect.poll(async () => (await openOrders()).filter((row) => row.includes('e2e-corrected')).length, { timeout: WAIT }).toBe(1);
    const rows = await openOrders();
    expect(rows.some((row) => row.includes(far))).toBe(false);
    expect(rows.find((row) => row.includes('e2e-corrected'))).toContain(corrected);
    await page.getByRole('button', { name: 'Cancel all', exact: true }).click();
    await expect.poll(async () => (await openOrders()).length, { timeout: WAIT }).toBe(0);
  });
});
