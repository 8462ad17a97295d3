/**
 * End to end: the blotters as a trader at the keyboard alone uses them, in Debian's Chromium against browser mode
 * with its embedded simulated venue. Tests run in order and share the desk. Needs /usr/bin/chromium.
 */
import type { ChildProcess } from 'node:child_process';
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAIT, fillLimitBuy, openDeskInBrowser, restingBuyPrice, tearDown } from './web-desk';

let desk: ChildProcess;
let dataDir: string;
let browser: Browser;
let page: Page;

async function placeLimitBuy(price: string, clientOrderId: string): Promise<void> {
  await fillLimitBuy(page, price, clientOrderId);
  await page.getByRole('button', { name: /^Buy/ }).click();
  await expect.poll(() => page.getByRole('table', { name: 'Open orders' }).getByRole('row').filter({ hasText: clientOrderId }).count(), { timeout: WAIT }).toBe(1);
}

/** What has the keyboard's focus: the accessible name of a control, or the tag of anything else. */
function focused(): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) return 'BODY';
    return active.getAttribute('aria-label') ?? active.tagName;
  });
}

beforeAll(async () => {
  ({ desk, dataDir, browser, page } = await openDeskInBrowser('keyboard', 1400));
}, 120_000);

afterAll(() => tearDown(browser, desk, dataDir), 60_000);

describe('the blotters at the keyboard', () => {
  it('keeps the focus in the open orders when a row cancelled with Enter goes, on the next row\'s Cancel', { timeout: 60_000 }, async () => {
    const price = await restingBuyPrice(page);
    await placeLimitBuy(price, 'e2e-kb-first');
    await placeLimitBuy(String(BigInt(price) - 10_000n), 'e2e-kb-second');
    const first = page.getByRole('button', { name: /^Cancel BUY .*\(e2e-kb-first\)$/ });
    await first.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('table', { name: 'Open orders' }).getByRole('row').filter({ hasText: 'e2e-kb-first' }).count(), { timeout: WAIT }).toBe(0);
    // Left on the page's body, the next Tab started again from the top of the workspace.
    await expect.poll(focused, { timeout: WAIT }).toMatch(/^Cancel BUY .*\(e2e-kb-second\)$/);
    // And Enter again cancels that one: the trader works down the blotter without reaching for the mouse.
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('table', { name: 'Open orders' }).locator('tbody tr:not([aria-hidden])').count(), { timeout: WAIT }).toBe(0);
    expect(await focused()).not.toBe('BODY');
  });

  it('leaves the focus alone when the Cancel was clicked: it never sits unseen on another order\'s Cancel', { timeout: 60_000 }, async () => {
    const price = await restingBuyPrice(page);
    await placeLimitBuy(price, 'e2e-click-first');
    await placeLimitBuy(String(BigInt(price) - 10_000n), 'e2e-click-second');
    await page.getByRole('button', { name: /^Cancel BUY .*\(e2e-click-first\)$/ }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Open orders' }).getByRole('row').filter({ hasText: 'e2e-click-first' }).count(), { timeout: WAIT }).toBe(0);
    // Another render of the table after the row went: the table had its chance to move the focus.
    await page.getByRole('checkbox', { name: 'Select order e2e-click-second' }).evaluate((box) => box.scrollIntoView());
    expect(await focused()).not.toMatch(/\(e2e-click-second\)$/);
    await page.getByRole('button', { name: 'Cancel all', exact: true }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Open orders' }).locator('tbody tr:not([aria-hidden])').count(), { timeout: WAIT }).toBe(0);
  });

  it('does not cancel the next order with a held Enter\'s repeats once the focus has moved on to its Cancel', { timeout: 60_000 }, async () => {
    const price = await restingBuyPrice(page);
    await placeLimitBuy(price, 'e2e-held-first');
    await placeLimitBuy(String(BigInt(price) - 10_000n), 'e2e-held-second');
    await page.getByRole('button', { name: /^Cancel BUY .*\(e2e-held-first\)$/ }).focus();
    await page.keyboard.down('Enter');
    await expect.poll(() => page.getByRole('table', { name: 'Open orders' }).getByRole('row').filter({ hasText: 'e2e-held-first' }).count(), { timeout: WAIT }).toBe(0);
    await expect.poll(focused, { timeout: WAIT }).toMatch(/\(e2e-held-second\)$/);
    // Still held: the key repeats on the Cancel the focus moved to.
    for (let i = 0; i < 5; i++) await page.keyboard.down('Enter');
    await page.keyboard.up('Enter');
    // A key's click and the 'Cancelling' it draws happen in its own event: a repeat that cancelled shows by now.
    const second = page.getByRole('button', { name: /^Cancel BUY .*\(e2e-held-second\)$/ });
    expect(await second.count()).toBe(1);
    expect(await second.isEnabled()).toBe(true);
    // A second press, not the first one held down, cancels it.
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('table', { name: 'Open orders' }).getByRole('row').filter({ hasText: 'e2e-held-second' }).count(), { timeout: WAIT }).toBe(0);
    expect(await page.getByRole('region', { name: 'Order history' }).getByRole('row').filter({ hasText: 'e2e-held-second' }).count()).toBe(1);
  });
});
