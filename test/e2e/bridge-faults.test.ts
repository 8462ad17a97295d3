/**
 * End to end, with faults on the window's own link to the desk: browser mode's /bridge WebSocket passes through
 * Playwright (routeWebSocket), which can hold it, drop it, or lose one answer on it, while the desk, its embedded
 * simulated venue and Chromium are the real ones. Tests run in order and share the desk. Needs /usr/bin/chromium.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, WAIT, fillLimitBuy, restingBuyPrice, setConfirming, startDesk, tearDown } from './web-desk';

let desk: ChildProcess;
let dataDir: string;
let browser: Browser;
let context: BrowserContext;
let deskUrl: string;
let page: Page;

interface Frame {
  id?: number;
  method?: string;
  type?: string;
  name?: string;
  payload?: unknown;
}

const frameOf = (message: string | Buffer): Frame => {
  try {
    return JSON.parse(typeof message === 'string' ? message : message.toString()) as Frame;
  } catch {
    return {};
  }
};

/**
 * The main page's bridge, passed through frame by frame. `held`: a connection made while it is set waits, its
 * frames kept, until it is cleared (a redial that takes its time). `loseAnswerTo`: the answer to the next call of
 * that method is not passed on; the connection is dropped instead, after the desk has run the call.
 */
const link = {
  current: undefined as { close: () => void } | undefined,
  held: undefined as Promise<void> | undefined,
  loseAnswerTo: undefined as string | undefined,
  /** Calls of this method are answered here with E0902, as if the desk could not be reached, and not passed on. */
  failing: undefined as string | undefined,
  /** Events the desk sent the page, in order, since the test last emptied it. */
  events: [] as Frame[],
};

async function routeBridge(on: Page): Promise<void> {
  await on.routeWebSocket(/\/bridge$/, async (ws) => {
    const waiting: (string | Buffer)[] = [];
    let forward = (message: string | Buffer): void => void waiting.push(message);
    ws.onMessage((message) => forward(message));
    if (link.held !== undefined) await link.held;
    const server = ws.connectToServer();
    let losing: number | undefined;
    const close = (): void => {
      void server.close();
      void ws.close();
    };
    link.current = { close };
    forward = (message) => {
      const frame = frameOf(message);
      if (frame.method !== undefined && frame.method === link.failing) {
        const error = { ref: 'E0902_ServiceUnavailable', message: 'E0902_ServiceUnavailable: the desk cannot be reached' };
        return ws.send(JSON.stringify({ type: 'result', id: frame.id, result: { ok: false, error } }));
      }
      if (frame.method !== undefined && frame.method === link.loseAnswerTo) {
        link.loseAnswerTo = undefined;
        losing = frame.id;
      }
      server.send(message);
    };
    for (const message of waiting) forward(message);
    server.onMessage((message) => {
      const frame = frameOf(message);
      if (frame.type === 'result' && losing !== undefined && frame.id === losing) return close();
      if (frame.type === 'event') link.events.push(frame);
      ws.send(message);
    });
    ws.onClose(() => void server.close());
    server.onClose(() => void ws.close());
  });
}

async function openDesk(on: Page, url: string): Promise<void> {
  await on.goto(url);
  await on.getByRole('table', { name: 'Balances' }).getByRole('row').nth(1).waitFor({ timeout: WAIT });
}

function rowsWith(table: string, text: string, on: Page = page) {
  return on.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'nova-e2e-bridge-'));
  const started = await startDesk(dataDir);
  desk = started.child;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  // One context: a second page is let in by the session cookie the first one's token was traded for.
  context = await browser.newContext({ viewport: { width: 1600, height: 1400 } });
  page = await context.newPage();
  await routeBridge(page);
  await openDesk(page, started.url);
  deskUrl = new URL(started.url).origin;
}, 120_000);

afterAll(() => tearDown(browser, desk, dataDir), 60_000);

describe('the desk in a browser whose link to the desk fails', () => {
  it('closes the confirmation of an order whose answer was lost, so a second Enter does not send it again', { timeout: 60_000 }, async () => {
    await setConfirming(page, true);
    const held = page.getByRole('dialog', { name: 'Confirm order' });
    try {
      await fillLimitBuy(page, await restingBuyPrice(page), 'e2e-answer-lost');
      await page.getByRole('button', { name: /^Buy/ }).click();
      await held.waitFor({ timeout: WAIT });
      link.loseAnswerTo = 'orders.place';
      await held.getByRole('button', { name: 'Confirm' }).click();
      // The desk placed it; its answer never came back, and the trader is told the outcome is unknown.
      await page.getByRole('alert').filter({ hasText: 'the outcome is unknown' }).first().waitFor({ timeout: WAIT });
      await expect.poll(() => rowsWith('Open orders', 'e2e-answer-lost').count(), { timeout: WAIT }).toBe(1);
      // Left open, its Confirm kept the focus: the next Enter sent the order a second time.
      expect(await held.isVisible()).toBe(false);
    } finally {
      if (await held.isVisible()) await held.getByRole('button', { name: 'Back' }).click();
      await setConfirming(page, false);
    }
    await page.getByRole('button', { name: 'Cancel all', exact: true }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Open orders' }).locator('tbody tr:not([aria-hidden])').count(), { timeout: WAIT }).toBe(0);
  });

  it('after its link to the desk drops, reads what it missed and watches its products again', { timeout: 90_000 }, async () => {
    await fillLimitBuy(page, await restingBuyPrice(page), 'e2e-missed-cancel');
    await page.getByRole('button', { name: /^Buy/ }).click();
    await expect.poll(() => rowsWith('Open orders', 'e2e-missed-cancel').count(), { timeout: WAIT }).toBe(1);

    // The link drops, and the window's redial takes its time.
    let release = (): void => undefined;
    link.held = new Promise<void>((done) => (release = done));
    link.current?.close();
    // Meanwhile the order is cancelled from another window, which then closes: nothing watches BTC-VND any more.
    const other = await context.newPage();
    await openDesk(other, deskUrl);
    await other.getByRole('button', { name: 'Cancel all', exact: true }).click();
    await expect.poll(() => rowsWith('Open orders', 'e2e-missed-cancel', other).count(), { timeout: WAIT }).toBe(0);
    await other.close();

    link.events = [];
    link.held = undefined;
    release();
    // The cancel was told while the window had no link: it must read the orders again, not show the order open.
    await expect.poll(() => rowsWith('Open orders', 'e2e-missed-cancel').count(), { timeout: WAIT }).toBe(0);
    // And the desk watches the window's product again: the simulated market's trades reach its tape.
    const tapeEvents = (): number => link.events.filter((e) => e.name === 'trades.received' && (e.payload as { productId?: string }).productId === 'BTC-VND').length;
    await expect.poll(tapeEvents, { timeout: WAIT }).toBeGreaterThan(0);
  });

  it('does not show the local venue\'s last state as its state while reading it fails', { timeout: 60_000 }, async () => {
    const venue = page.getByRole('region', { name: 'Local venue' });
    const state = venue.locator('dt', { hasText: /^State$/ }).locator('xpath=following-sibling::dd[1]');
    await expect.poll(() => state.textContent(), { timeout: WAIT }).toBe('ready');
    link.failing = 'venue.status';
    try {
      await venue.getByRole('alert').waitFor({ timeout: WAIT });
      // 'ready' beside the error read as the venue's state now, which nothing had told.
      await expect.poll(() => state.textContent(), { timeout: WAIT }).toMatch(/^not known/);
      expect(await state.textContent()).toContain('ready');
    } finally {
      link.failing = undefined;
    }
    await expect.poll(() => state.textContent(), { timeout: WAIT }).toBe('ready');
    expect(await venue.getByRole('alert').count()).toBe(0);
  });

  it('says a ladder whose book could not be read, and fills it once the desk answers', { timeout: 60_000 }, async () => {
    // A window of its own, through the same faulty link, on a product no other window watches (the desk streams a
    // book watched by any window to all of them). It closes again, and the main page keeps its own link.
    const main = link.current;
    const other = await context.newPage();
    await routeBridge(other);
    await openDesk(other, deskUrl);
    const ladder = other.getByRole('region', { name: 'Depth ladder SOL-VND' });
    const bids = ladder.getByRole('button', { name: /^Bid \d/ });
    link.failing = 'market.watch';
    try {
      await other.getByLabel('Desk product').selectOption('SOL-VND');
      // An empty ladder said nothing: the trader read it as a market without orders.
      await ladder.getByRole('status', { name: 'Not loaded' }).waitFor({ timeout: WAIT });
      expect(await ladder.getByRole('status', { name: 'Not loaded' }).textContent()).toContain('E0902_ServiceUnavailable');
      expect(await bids.count()).toBe(0);
      // Said over the top of the ladder's body, not above it: its body has its slot's height, and ran past it.
      const overrun = await ladder.evaluate((panel) => {
        const content = panel.querySelector('.panel-body')?.lastElementChild;
        return content === null || content === undefined ? Number.NaN : content.getBoundingClientRect().bottom - panel.getBoundingClientRect().bottom;
      });
      expect(overrun).toBeLessThanOrEqual(0.5);
    } finally {
      link.failing = undefined;
    }
    // Read again without an outage or a reload.
    await expect.poll(() => bids.count(), { timeout: WAIT }).toBeGreaterThan(0);
    expect(await ladder.getByRole('status', { name: 'Not loaded' }).count()).toBe(0);
    await other.getByLabel('Desk product').selectOption('BTC-VND');
    await other.close();
    link.current = main;
  });
});
