/**
 * End to end: the ticket's "Last order" line after the venue refuses a send. It kept the previous order's line, so a
 * trader read the refused order as working (or filled). Browser mode against the embedded venue; needs
 * /usr/bin/chromium and the production build (npx electron-vite build).
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
  ({ desk, dataDir, browser, page } = await openDeskInBrowser('last-order', 1000));
}, 120_000);

afterAll(() => tearDown(browser, desk, dataDir), 60_000);

/** A buy stop-loss trigger `percent` of the last trade, on a 10 000 VND step. */
async function trigger(percent: bigint): Promise<string> {
  const lastText = page.locator('text=/^last /').first();
  await lastText.waitFor({ timeout: WAIT });
  const last = BigInt((await lastText.innerText()).replace(/\D/g, ''));
  return String(((last * percent) / 100n / 10_000n) * 10_000n);
}

async function sendBuyStop(stopTrigger: string, clientOrderId: string): Promise<void> {
  await page.getByLabel('Stop trigger').fill(stopTrigger);
  await page.getByLabel('Client order id', { exact: true }).fill(clientOrderId);
  await page.getByRole('button', { name: /^Buy 0/ }).click();
}

describe('the ticket\'s last order line', () => {
  it('says a send was refused, with the refusal\'s reference, instead of the order before it', { timeout: 90_000 }, async () => {
    await page.getByRole('button', { name: 'Choose buy side' }).click();
    await page.getByLabel('Type', { exact: true }).selectOption('STOP');
    await page.getByLabel('Stop type').selectOption('STOP_LOSS');
    await page.getByLabel('Price', { exact: true }).fill('0');
    await page.getByLabel('Size', { exact: true }).fill('0.001');
    const line = page.getByLabel('Last order');

    // Taken: a buy stop 5 % above the last trade waits for its trigger.
    await sendBuyStop(await trigger(105n), 'lo-taken');
    await expect.poll(() => line.innerText(), { timeout: WAIT }).toMatch(/^BUY 0\.001 BTC-VND: SCHEDULED/);

    // Refused by the venue: a buy stop under the last trade is met already (E0213).
    await sendBuyStop(await trigger(95n), 'lo-refused');
    await expect.poll(() => line.innerText(), { timeout: WAIT }).toMatch(/REFUSED: E0213/);
    expect(await line.innerText()).toMatch(/^BUY 0\.001 BTC-VND: REFUSED: E0213_\w+$/);

    await page.getByRole('button', { name: 'Cancel all', exact: true }).click();
  });
});
