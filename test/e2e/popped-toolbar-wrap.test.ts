/**
 * End to end: a popped-out panel meets its window's foot after the window's own toolbar wraps onto another line
 * while the window keeps its size. The toolbar's environment badge grows as the desk switches to an environment of a
 * longer name, the toolbar takes two lines in a narrow window and pushes the panel down, and nothing the panel is made
 * of is resized by that: only the window's page grows (content-room's observation of its holder, 5253d41). Without
 * that observation the panel ran 7 px past the window's foot, behind a scroll bar of the page. A test of a panel
 * whose header wraps differently with the switch's stale mark (Trades) cannot tell: the header's resize measures
 * the panel again a moment later, and then it fits either way. In Debian's Chromium against browser mode; measured
 * from the page's layout. Needs /usr/bin/chromium.
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
  ({ desk, dataDir, browser, page } = await openDeskInBrowser('popped-wrap'));
}, 120_000);

afterAll(() => tearDown(browser, desk, dataDir), 60_000);

/** Once the page has drawn twice more: what a step's resizes observe has been measured and drawn. */
function drawn(on: Page): Promise<void> {
  return on.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

/** The window's toolbar's height, in px. */
function toolbarHeight(window: Page): Promise<number> {
  return window.getByRole('toolbar', { name: 'Window' }).evaluate((bar) => bar.getBoundingClientRect().height);
}

/**
 * Where the panel's content ends against its panel's inner foot, and the panel's foot (its margin under it) against
 * the window's foot, in px: both 0 when the content takes what the window leaves it, neither short nor past it.
 */
function fit(window: Page): Promise<string> {
  return window.evaluate(() => {
    const panel = document.querySelector('section.panel');
    const content = panel?.querySelector('.panel-body')?.lastElementChild;
    if (panel === null || panel === undefined || content === null || content === undefined) return 'no panel';
    const style = getComputedStyle(panel);
    const box = panel.getBoundingClientRect();
    const inPanel = Math.round(box.bottom - parseFloat(style.paddingBottom) - parseFloat(style.borderBottomWidth) - content.getBoundingClientRect().bottom);
    const inWindow = Math.round(innerHeight - parseFloat(style.marginBottom) - box.bottom);
    return `content ${inPanel} px over the panel's foot, panel ${inWindow} px over the window's`;
  });
}
const FITS = "content 0 px over the panel's foot, panel 0 px over the window's";

describe('a popped-out panel whose window toolbar wraps', () => {
  it("ends Open orders at its window's foot once another environment's badge makes the toolbar take two lines", { timeout: 120_000 }, async () => {
    // Open orders: in the window width where the badge decides the toolbar's lines, its header takes as many lines
    // with the stale mark the switch brings as without it, so no other resize in the panel measures it again.
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Pop out Open orders' }).click();
    const window = await popup;
    await window.getByRole('table', { name: 'Open orders' }).waitFor({ timeout: WAIT });
    await window.getByLabel('Environment', { exact: true }).filter({ hasText: 'Local' }).waitFor({ timeout: WAIT });

    // The narrowest window whose toolbar still takes one line beside Local's badge: Development's is wider.
    await window.setViewportSize({ width: 600, height: 600 });
    await drawn(window);
    const oneLine = await toolbarHeight(window);
    let width = 600;
    for (let next = width - 10; next >= 150; next -= 10) {
      await window.setViewportSize({ width: next, height: 600 });
      await drawn(window);
      if ((await toolbarHeight(window)) > oneLine) break;
      width = next;
    }
    await window.setViewportSize({ width, height: 600 });
    await drawn(window);
    expect(await toolbarHeight(window)).toBe(oneLine);
    await expect.poll(() => fit(window), { timeout: WAIT }).toBe(FITS);

    // The desk switches to Development (where nothing listens: its addresses are a closed port's); the popped-out
    // window hears it and shows Development's badge, the window's size unchanged.
    const env = page.getByRole('region', { name: 'Environments' });
    await env.getByLabel('Development REST URL').fill('http://127.0.0.1:9/');
    await env.getByLabel('Development WebSocket URL').fill('ws://127.0.0.1:9/ws');
    await env.getByRole('form', { name: 'Development addresses' }).getByRole('button', { name: 'Save' }).click();
    await env.getByRole('button', { name: 'Switch to Development' }).click();
    await window.getByLabel('Environment', { exact: true }).filter({ hasText: 'Development' }).waitFor({ timeout: WAIT });
    await expect.poll(() => toolbarHeight(window), { timeout: WAIT }).toBeGreaterThan(oneLine);
    expect(window.viewportSize()).toEqual({ width, height: 600 });

    await expect.poll(() => fit(window), { timeout: WAIT }).toBe(FITS);
  });
});
