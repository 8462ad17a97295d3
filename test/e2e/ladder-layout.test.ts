/**
 * End to end: the depth ladder as a trader reads it, popped out into a window of its own, in Debian's Chromium
 * against browser mode with its embedded simulated venue. Its column names stay in view while Keep centred scrolls
 * it, no row lies half under them, the depth bars are drawn behind the figures, not over them, and the panel takes
 * its window's height. Measured from the page's layout, at the pop-out's own size and at others. Needs
 * /usr/bin/chromium.
 */
import type { ChildProcess } from 'node:child_process';
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAIT, openDeskInBrowser, tearDown } from './web-desk';

let desk: ChildProcess;
let dataDir: string;
let browser: Browser;
let page: Page;
let ladder: Page;

beforeAll(async () => {
  ({ desk, dataDir, browser, page } = await openDeskInBrowser('ladder'));
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: /^Pop out Depth ladder/ }).click();
  ladder = await popup;
  await ladder.getByRole('button', { name: /^Bid \d/ }).nth(10).waitFor({ timeout: WAIT });
}, 120_000);

afterAll(() => tearDown(browser, desk, dataDir), 60_000);

interface Layout {
  /** The ladder's scrolling box, its column names' row and each level's row, as top and bottom on the page. */
  box: { top: number; bottom: number };
  head: { top: number; bottom: number };
  rows: { top: number; bottom: number }[];
}

function layout(): Promise<Layout> {
  return ladder.evaluate(() => {
    const edges = (el: Element): { top: number; bottom: number } => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    };
    const box = document.querySelector('.ladder');
    const head = document.querySelector('.ladder .level.head');
    if (box === null || head === null) throw new Error('no ladder');
    return { box: edges(box), head: edges(head), rows: [...document.querySelectorAll('.ladder .level.ask, .ladder .level.bid')].map(edges) };
  });
}

describe('a popped-out depth ladder', () => {
  it('keeps its column names in view and starts its first row below them, centred, at any window size', { timeout: 60_000 }, async () => {
    for (const size of [undefined, { width: 720, height: 640 }, { width: 420, height: 555 }, { width: 900, height: 903 }]) {
      if (size !== undefined) await ladder.setViewportSize(size);
      // The ladder centres itself again after a resize, on its next paint.
      await expect.poll(async () => (await layout()).head.top - (await layout()).box.top, { timeout: WAIT }).toBe(0);
      await expect.poll(async () => {
        const { head, rows } = await layout();
        // The first row that shows at all below the header: it starts where the header ends, not under it.
        const first = rows.find((row) => row.bottom > head.bottom + 0.5);
        return first === undefined ? 'no row shows' : Math.abs(first.top - head.bottom) < 0.5 ? 'starts below the header' : `starts ${first.top - head.bottom}px off the header's foot`;
      }, { timeout: WAIT }).toBe('starts below the header');
      // Centred indeed: the header is not a scrolled-to-the-top ladder's, with the spread out of view.
      const spread = await ladder.locator('.ladder .spread').evaluate((el) => el.getBoundingClientRect().top);
      const { box } = await layout();
      expect(spread).toBeGreaterThan(box.top);
      expect(spread).toBeLessThan(box.bottom);
    }
  });

  it('draws the depth bars behind the sizes and totals, not over them', { timeout: 60_000 }, async () => {
    await ladder.setViewportSize({ width: 720, height: 640 });
    // What lies on top at the middle of each figure a bar passes under: hit testing follows the order things are
    // painted in, so the bar is made hittable for the look (it is not, for the clicks on the prices).
    const onTop = await ladder.evaluate(() => {
      const seen: string[] = [];
      const shownFrom = document.querySelector('.ladder .level.head')?.getBoundingClientRect().bottom ?? 0;
      const shownTo = Math.min(window.innerHeight, document.querySelector('.ladder')?.getBoundingClientRect().bottom ?? 0);
      for (const row of document.querySelectorAll<HTMLElement>('.ladder .level.ask, .ladder .level.bid')) {
        const bar = row.querySelector<HTMLElement>('.bar');
        const { top, bottom } = row.getBoundingClientRect();
        // Rows in view only: one scrolled out of the ladder (or the window) lies under whatever is there.
        if (bar === null || row.style.visibility === 'hidden' || top < shownFrom || bottom > shownTo) continue;
        bar.style.pointerEvents = 'auto';
        for (const cell of row.querySelectorAll<HTMLElement>('.size, .total')) {
          const text = document.createRange();
          text.selectNodeContents(cell);
          const r = text.getBoundingClientRect();
          const x = r.left + r.width / 2;
          const y = r.top + r.height / 2;
          const b = bar.getBoundingClientRect();
          if (r.width === 0 || x < b.left || x > b.right) continue;
          const hit = document.elementFromPoint(x, y);
          seen.push(hit === null ? 'nothing' : hit === cell || cell.contains(hit) ? 'figure' : hit === bar ? 'bar' : hit.className);
        }
        bar.style.pointerEvents = '';
      }
      return seen;
    });
    expect(onTop.length).toBeGreaterThan(0);
    expect(onTop.filter((what) => what !== 'figure')).toEqual([]);
  });

  it('takes its whole window, at any window size, however the header wraps', { timeout: 60_000 }, async () => {
    for (const size of [{ width: 720, height: 640 }, { width: 420, height: 555 }, { width: 900, height: 903 }]) {
      await ladder.setViewportSize(size);
      // Room left under the panel (its margin aside), and whether the page scrolls: the panel should meet the
      // window's foot, neither short of it nor past it.
      await expect.poll(() => ladder.evaluate(() => {
        const panel = document.querySelector('.panel');
        if (panel === null) return 'no panel';
        const under = window.innerHeight - panel.getBoundingClientRect().bottom - parseFloat(getComputedStyle(panel).marginBottom);
        return Math.abs(under) <= 1 ? 'fits' : `${Math.round(under)} px left under it`;
      }), { timeout: WAIT }).toBe('fits');
    }
  });
});
