/**
 * End to end: what of a panel a trader can see without hunting for it, in Debian's Chromium against browser mode
 * with its embedded simulated venue, in the workspace as it first opens. Measured from the page's layout.
 * Needs /usr/bin/chromium.
 */
import type { ChildProcess } from 'node:child_process';
import type { Browser, Locator, Page } from '@playwright/test';
import { SCALE, fixed } from './fixed-decimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAIT, fillLimitBuy, openDeskInBrowser, restingBuyPrice, setConfirming, tearDown } from './web-desk';

let desk: ChildProcess;
let dataDir: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ desk, dataDir, browser, page } = await openDeskInBrowser('panels'));
}, 120_000);

afterAll(() => tearDown(browser, desk, dataDir), 60_000);

/** What of an element is in view, left to right: its box less a vertical scroll bar. */
function viewOf(element: Locator): Promise<{ left: number; right: number }> {
  return element.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.left + el.clientWidth };
  });
}

/** `control` lies whole within `view`, left to right. */
async function expectWithin(control: Locator, view: { left: number; right: number }): Promise<void> {
  const at = await control.boundingBox();
  expect({ left: at?.x ?? NaN, right: (at?.x ?? NaN) + (at?.width ?? 0) }).toSatisfy(
    ({ left, right }: { left: number; right: number }) => left >= view.left && right <= view.right + 0.5,
    `within ${view.left}..${view.right}`,
  );
}

/** `look` run with the page `width` px wide, then the page as wide as it was. */
async function atWidth(width: number, look: () => Promise<void>): Promise<void> {
  const was = page.viewportSize();
  await page.setViewportSize({ width, height: was?.height ?? 1000 });
  try {
    await look();
  } finally {
    if (was !== null) await page.setViewportSize(was);
  }
}

/**
 * Between the foot of what each panel titled with one of `titles` and sized by its height shows and its panel's inner
 * foot, as 'title: px': neither room left unused under it nor a part of it past the foot, behind a scroll bar of the
 * panel's own, is 0.
 */
function gapsUnder(on: Page, titles: string[]): Promise<string[]> {
  return on.evaluate((wanted) =>
    [...document.querySelectorAll('section.panel')].flatMap((panel) => {
      const title = panel.getAttribute('aria-label') ?? '';
      const content = panel.querySelector('.panel-body')?.lastElementChild;
      if (!wanted.some((t) => title.startsWith(t)) || content === null || content === undefined) return [];
      const foot = panel.getBoundingClientRect().bottom - parseFloat(getComputedStyle(panel).paddingBottom);
      return [`${title}: ${Math.round(foot - content.getBoundingClientRect().bottom)}`];
    }), titles);
}

/** Once the page has drawn twice more: what a step's resizes observe has been measured and drawn. */
function drawn(on: Page): Promise<void> {
  return on.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

describe('the workspace as it opens', () => {
  it('shows each open order\'s Cancel button whole, however wide the rest of its row is', { timeout: 60_000 }, async () => {
    await setConfirming(page, false);
    await fillLimitBuy(page, await restingBuyPrice(page), `a-client-order-id-as-long-as-a-trader-may-make-it-${Date.now()}`);
    await page.getByRole('button', { name: /^Buy/ }).last().click();
    const cancel = page.getByRole('table', { name: 'Open orders' }).getByRole('button', { name: /^Cancel BUY/ });
    await cancel.waitFor({ timeout: WAIT });
    // The part of the table in view: its scrolling box.
    await expectWithin(cancel, await viewOf(page.locator('.vtable', { has: page.getByRole('table', { name: 'Open orders' }) })));
  });

  it('lines the figures of the balances and the blotters up at their right end', { timeout: 60_000 }, async () => {
    // The right end of each figure's text in a column, one column after another: the Balances' Free, Locked and
    // Total (four assets of different sizes and decimals), and the open order's Price and Size against their heads.
    const ends = (table: string, column: number): Promise<number[]> =>
      page.getByRole('table', { name: table }).evaluate((t, at) =>
        [...t.querySelectorAll('tr')].flatMap((row) => {
          const cell = row.children[at];
          if (cell === undefined || (cell.textContent ?? '').trim() === '') return [];
          const text = document.createRange();
          text.selectNodeContents(cell.querySelector('button') ?? cell);
          return [Math.round(text.getBoundingClientRect().right)];
        }), column);
    for (const column of [1, 2, 3]) {
      const right = await ends('Balances', column);
      expect(right.length).toBeGreaterThan(2);
      expect(new Set(right).size, `Balances column ${column}: ${right.join(', ')}`).toBe(1);
    }
    await page.getByRole('table', { name: 'Open orders' }).getByRole('row').nth(1).waitFor({ timeout: WAIT });
    const headers = await page.getByRole('table', { name: 'Open orders' }).getByRole('columnheader').allTextContents();
    for (const name of ['Price', 'Size']) {
      const right = await ends('Open orders', headers.findIndex((h) => h.startsWith(name)));
      expect(right.length, name).toBe(2);
      expect(Math.abs((right[0] ?? 0) - (right[1] ?? 0)), `Open orders ${name}: ${right.join(', ')}`).toBeLessThanOrEqual(1);
    }
  });

  it('heads each column of the tape over its figures: the time at the left, the price and the size at the right', { timeout: 60_000 }, async () => {
    const tape = page.getByRole('table', { name: /^Trades / });
    await tape.getByRole('row').nth(1).waitFor({ timeout: WAIT });
    // Each column's head and first trade, as the left and right ends of their text.
    const edges = await tape.evaluate((t) =>
      [...t.querySelectorAll('thead th')].map((head, i) => {
        const cell = t.querySelector(`tbody tr:not([hidden]) td:nth-child(${i + 1})`);
        const ends = (el: Element | null): { left: number; right: number } => {
          if (el === null) return { left: NaN, right: NaN };
          const text = document.createRange();
          text.selectNodeContents(el);
          const r = text.getBoundingClientRect();
          return { left: Math.round(r.left), right: Math.round(r.right) };
        };
        return { column: head.textContent, head: ends(head), first: ends(cell) };
      }),
    );
    const [time, price, size] = edges;
    expect(time?.head.left, JSON.stringify(time)).toBe(time?.first.left);
    expect(price?.head.right, JSON.stringify(price)).toBe(price?.first.right);
    expect(size?.head.right, JSON.stringify(size)).toBe(size?.first.right);
  });

  it("keeps the API keys table inside its one-column panel, each key's actions in view", { timeout: 60_000 }, async () => {
    const panel = page.getByRole('region', { name: 'API keys' });
    const remove = panel.getByRole('button', { name: /^Remove key / }).first();
    await remove.waitFor({ timeout: WAIT });
    // The panel itself does not scroll sideways: its title, Refresh and forms stay put while the table scrolls.
    const sideways = await panel.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(sideways).toBeLessThanOrEqual(0);
    await expectWithin(remove, await viewOf(panel));
  });

  it('shows every column of the environments table in a two-column panel of a narrow window', { timeout: 60_000 }, async () => {
    await atWidth(1100, async () => {
      const panel = page.getByRole('region', { name: 'Environments' });
      const view = await viewOf(panel);
      for (const control of [panel.getByLabel('Confirm orders in Development'), panel.getByRole('button', { name: 'Switch to Development' })]) await expectWithin(control, view);
    });
  });

  it("keeps Order history's Export CSV on the line of its Search, at the panel's width as it opens and in a narrow window", { timeout: 60_000 }, async () => {
    const panel = page.getByRole('region', { name: 'Order history' });
    const tops = async (): Promise<number[]> =>
      Promise.all(['Search', 'Export CSV'].map(async (name) => Math.round((await panel.getByRole('button', { name, exact: true }).boundingBox())?.y ?? NaN)));
    const sameLine = async (): Promise<void> => {
      const [search, exportCsv] = await tops();
      expect(exportCsv, `Search at ${search}`).toBe(search);
    };
    await sameLine();
    await atWidth(1100, sameLine);
  });

  it('ends each ladder, tape, chart and blotter at its panel\'s foot, however many lines the panel\'s header takes', { timeout: 60_000 }, async () => {
    const gaps = (): Promise<string[]> => gapsUnder(page, ['Depth ladder', 'Trades', 'Chart', 'Open orders', 'Order history', 'Fills']);
    const atFoot = async (): Promise<void> => {
      const measured = await gaps();
      expect(measured).toHaveLength(6);
      await expect.poll(gaps, { timeout: WAIT }).toEqual(measured.map((m) => m.replace(/-?\d+$/, '0')));
    };
    await atFoot();
    await atWidth(1100, atFoot);
  });

  it("ends a ladder and Order history at their panels' foot after their slots were made shorter, the window dragged and the slots made taller", { timeout: 90_000 }, async () => {
    // Held at its least height in a slot one row tall, the content overflows its panel: a measure that added the
    // overflow to its last correction took it off again at each resize, and the ladder ended 80-176 px short of its
    // foot once its slot was taller again. Reviewed: Depth ladder at 1000 px high, Order history at 1100 px wide.
    for (const [title, width] of [['Depth ladder', 1600], ['Order history', 1100]] as const) {
      await atWidth(width, async () => {
        const slot = page.locator('.slot', { has: page.locator(`section.panel[aria-label^="${title}"]`) });
        const rows = async (): Promise<number> => Math.round((await slot.boundingBox())?.height ?? NaN);
        const start = await rows();
        for (const button of [`Shorter ${title}`, `Shorter ${title}`]) {
          await page.getByRole('button', { name: button }).click();
          await drawn(page);
        }
        const shortest = await rows();
        expect(shortest).toBeLessThan(start);
        // A window's edge dragged: one resize after another, each drawn.
        for (let i = 0; i < 10; i++) {
          await page.setViewportSize({ width: width - (i % 2) * 10 - i, height: 1000 });
          await drawn(page);
        }
        await page.setViewportSize({ width, height: 1000 });
        await drawn(page);
        await page.getByRole('button', { name: `Taller ${title}` }).click();
        await expect.poll(rows, { timeout: WAIT }).toBeGreaterThan(shortest);
        await expect.poll(() => gapsUnder(page, [title]), { timeout: WAIT }).toEqual([expect.stringMatching(/: 0$/)]);
        // The slot as it opened, for the tests after this one.
        for (let was = await rows(); was < start; was = await rows()) {
          await page.getByRole('button', { name: `Taller ${title}` }).click();
          await expect.poll(rows, { timeout: WAIT }).toBeGreaterThan(was);
        }
      });
    }
  });

  it('ends Fills at its panel\'s foot while a note that its last read failed is over its table, and once the note goes', { timeout: 90_000 }, async () => {
    // The note comes and goes inside the panel's body, which neither the slot nor the header's size tells: the
    // table ran 56 px past its foot with the note, or ended short of it once the note went.
    // Beside the test's page, let in by its session's cookie.
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, storageState: await page.context().storageState() });
    const failing = await context.newPage();
    try {
      let fail = true;
      await failing.routeWebSocket(/\/bridge/, (ws) => {
        const desk = ws.connectToServer();
        ws.onMessage((message) => {
          const frame = typeof message === 'string' ? (JSON.parse(message) as { method?: string; id?: unknown }) : {};
          if (fail && frame.method === 'orders.fills') {
            ws.send(JSON.stringify({ type: 'result', id: frame.id, result: { ok: false, error: { ref: 'E0902_ServiceUnavailable', message: 'E0902_ServiceUnavailable: the venue did not answer in time' } } }));
          } else desk.send(message);
        });
      });
      await failing.goto(page.url());
      const fills = failing.getByRole('region', { name: 'Fills' });
      await fills.getByRole('alert').waitFor({ timeout: WAIT });
      await expect.poll(() => gapsUnder(failing, ['Fills']), { timeout: WAIT }).toEqual(['Fills: 0']);
      // Read again, and answered, on the next fill: a buy 5 % over the best bid takes the best ask.
      fail = false;
      await setConfirming(failing, false);
      const bid = fixed(/^Bid (\S+)/.exec((await failing.getByRole('button', { name: /^Bid \d/ }).first().getAttribute('aria-label')) ?? '')?.[1] ?? '') / SCALE;
      await fillLimitBuy(failing, (((bid * 105n) / 100n / 10000n) * 10000n).toString(), `taking-${Date.now()}`);
      await failing.getByRole('button', { name: /^Buy/ }).last().click();
      await fills.getByRole('alert').waitFor({ state: 'detached', timeout: WAIT });
      await expect.poll(() => gapsUnder(failing, ['Fills']), { timeout: WAIT }).toEqual(['Fills: 0']);
    } finally {
      await context.close();
    }
  });
});
