/**
 * End to end: the workspace in a small window (review-2 s12, 800x600). The ladder's figures ran into each other, the
 * ticket's Sell and 100% were cut off and the panels' toolbars lost their pop-out and close buttons. Now below
 * 1000 px the workspace keeps its width and the page scrolls sideways; a figure too wide for its ladder column is cut
 * with an ellipsis; toolbars wrap. Measured from the page's layout (no screenshots). Browser mode against the
 * embedded venue; needs /usr/bin/chromium and the production build (npx electron-vite build).
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
  ({ desk, dataDir, browser, page } = await openDeskInBrowser('small-window', 1000));
  await page.getByRole('button', { name: /^Bid \d/ }).nth(5).waitFor({ timeout: WAIT });
}, 120_000);

afterAll(() => tearDown(browser, desk, dataDir), 60_000);

/** Every control of the workspace's panel toolbars and of the ticket that is not wholly inside its slot, by name. */
function cutOff(): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const slot of document.querySelectorAll('.slot')) {
      const box = slot.getBoundingClientRect();
      for (const control of slot.querySelectorAll('.slot-tools button, .slot-tools select, form.ticket button')) {
        const r = control.getBoundingClientRect();
        if (r.width === 0) continue;
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
          out.push(control.getAttribute('aria-label') ?? control.textContent ?? '');
        }
      }
    }
    return out;
  });
}

/** The ladder's figures whose text runs past their own cell without being cut (an ellipsis): into the next one. */
function runTogether(): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const cell of document.querySelectorAll('.ladder .level > span, .ladder .level > button.price')) {
      const style = getComputedStyle(cell);
      const clipped = style.overflowX === 'hidden' && style.textOverflow === 'ellipsis';
      if (cell.scrollWidth > cell.clientWidth + 1 && !clipped) out.push(cell.textContent ?? '');
    }
    return out;
  });
}

/** The ladder's prices cut short (an ellipsis): a price must be read whole. */
function pricesCut(on: Page): Promise<string[]> {
  return on.evaluate(() => [...document.querySelectorAll('.ladder .level > button.price')].filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent ?? ''));
}

/** The ladder's cells of one row, left to right, overlapping the next one. */
function overlapping(): Promise<number> {
  return page.evaluate(() => {
    let count = 0;
    for (const level of document.querySelectorAll('.ladder .level')) {
      const cells = [...level.children].filter((c) => !c.classList.contains('bar') && !(c as HTMLElement).hidden).map((c) => c.getBoundingClientRect());
      for (let i = 1; i < cells.length; i++) if ((cells[i]?.left ?? 0) < (cells[i - 1]?.right ?? 0) - 0.5) count++;
    }
    return count;
  });
}

describe('the workspace in a small window', () => {
  it.each([
    [800, 600],
    [480, 800],
    [1024, 700],
  ])('at %ix%i keeps every toolbar button and ticket button whole, and the ladder\'s figures apart', { timeout: 60_000 }, async (width, height) => {
    await page.setViewportSize({ width, height });
    await expect.poll(cutOff, { timeout: WAIT }).toEqual([]);
    expect(await runTogether()).toEqual([]);
    expect(await overlapping()).toBe(0);
    expect(await pricesCut(page)).toEqual([]);
    // Each panel's pop-out and close are there to be clicked, scrolled to if the window is narrower than the workspace.
    for (const name of [/^Pop out Order ticket/, /^Close Order ticket/, /^Pop out Depth ladder/, /^Close Depth ladder/]) {
      const button = page.getByRole('button', { name }).first();
      await button.scrollIntoViewIfNeeded();
      expect(await button.isVisible()).toBe(true);
    }
  });

  it.each([
    [480, 320],
    [360, 400],
  ])('keeps a popped-out ladder\'s prices whole at %ix%i', { timeout: 60_000 }, async (width, height) => {
    await page.setViewportSize({ width: 1600, height: 1000 });
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: /^Pop out Depth ladder/ }).first().click();
    const ladder = await popup;
    try {
      await ladder.getByRole('button', { name: /^Bid \d/ }).nth(5).waitFor({ timeout: WAIT });
      await ladder.setViewportSize({ width, height });
      await expect.poll(() => pricesCut(ladder), { timeout: WAIT }).toEqual([]);
    } finally {
      await ladder.close();
    }
  });

  it('needs no sideways scrolling at 1024 px', { timeout: 60_000 }, async () => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), { timeout: WAIT }).toBeLessThanOrEqual(0);
  });
});
