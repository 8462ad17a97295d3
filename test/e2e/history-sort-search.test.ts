/**
 * End to end: the Order history panel shows its rows in the order its sort box says (the live history was shown
 * newest updated first under a box saying -created_at), and a refused search says so and what the rows below are
 * (they were the unfiltered live history under filters that no longer matched them). Browser mode against the
 * embedded venue; needs /usr/bin/chromium and the production build (npx electron-vite build).
 */
import type { ChildProcess } from 'node:child_process';
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAIT, fillLimitBuy, openDeskInBrowser, restingBuyPrice, tearDown } from './web-desk';

let desk: ChildProcess;
let dataDir: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ desk, dataDir, browser, page } = await openDeskInBrowser('history-sort', 1400));
}, 120_000);

afterAll(() => tearDown(browser, desk, dataDir), 60_000);

const history = (): ReturnType<Page['getByRole']> => page.getByRole('region', { name: 'Order history' });

/** The client ids starting with `prefix` in the history table, top first. */
function historyIds(prefix: string): Promise<string[]> {
  return page.getByRole('table', { name: 'Order history' }).evaluate(
    (t, p) => [...t.querySelectorAll('tbody tr:not([aria-hidden])')].map((row) => row.lastElementChild?.textContent ?? '').filter((id) => id.startsWith(p)),
    prefix,
  );
}

async function cancel(clientOrderId: string): Promise<void> {
  const open = page.getByRole('table', { name: 'Open orders' });
  await open.getByRole('button', { name: new RegExp(`^Cancel .*\\(${clientOrderId}\\)$`) }).click();
  await expect.poll(() => historyIds(clientOrderId), { timeout: WAIT }).toEqual([clientOrderId]);
}

describe('the order history', () => {
  it('lists the live history in the order its sort box says', { timeout: 90_000 }, async () => {
    const price = await restingBuyPrice(page);
    for (const id of ['hs-older', 'hs-newer']) {
      await fillLimitBuy(page, price, id);
      await page.getByRole('button', { name: /^Buy 0/ }).click();
      await page.getByRole('table', { name: 'Open orders' }).getByRole('button', { name: new RegExp(`\\(${id}\\)$`) }).waitFor({ timeout: WAIT });
    }
    // Ended in the other order: the one placed first is the one updated last.
    await cancel('hs-newer');
    await cancel('hs-older');
    await page.reload();
    await page.getByRole('table', { name: 'Balances' }).getByRole('row').nth(1).waitFor({ timeout: WAIT });

    expect(await history().getByLabel('History sort').inputValue()).toBe('-created_at');
    await expect.poll(() => historyIds('hs-'), { timeout: WAIT }).toEqual(['hs-newer', 'hs-older']);
    await history().getByLabel('History sort').selectOption('-updated_at');
    await expect.poll(() => historyIds('hs-'), { timeout: WAIT }).toEqual(['hs-older', 'hs-newer']);
    await history().getByLabel('History sort').selectOption('created_at');
    await expect.poll(() => historyIds('hs-'), { timeout: WAIT }).toEqual(['hs-older', 'hs-newer']);
    await history().getByLabel('History sort').selectOption('-created_at');
  });

  it('says a refused search was refused and that the rows shown are the live history', { timeout: 60_000 }, async () => {
    await history().getByLabel('History client order id').fill('bad id with spaces!');
    await history().getByRole('button', { name: 'Search' }).click();
    const note = history().getByLabel('Search refused');
    await note.waitFor({ timeout: WAIT });
    expect(await note.innerText()).toMatch(/^Search refused, E\d{4}_\w+: .+ Shown: the live history, not filtered as the boxes above say\.$/s);
    // The live rows are still there, under the note, not passed off as the search's answer.
    expect(await historyIds('hs-')).toEqual(['hs-newer', 'hs-older']);

    await history().getByLabel('History client order id').fill('hs-older');
    await history().getByRole('button', { name: 'Search' }).click();
    await note.waitFor({ state: 'hidden', timeout: WAIT });
    await expect.poll(() => historyIds('hs-'), { timeout: WAIT }).toEqual(['hs-older']);
  });
});
