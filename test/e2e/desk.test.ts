/**
 * End to end: the desk in browser mode (`npm run web`) with its embedded simulated venue, driven in Debian's
 * Chromium as a trader would: place a limit order and see it open and on the ladder, cancel it, trade with the
 * keyboard alone, be told why the venue refused an order, buy at market and see the fill and the balances move,
 * watch a popped-out blotter follow the main window, and find the arranged workspace again after the desk is
 * stopped and started. Needs /usr/bin/chromium; `npm run web` builds the renderer first when its sources are
 * newer. Screenshots of the workspace and of each panel go to test-results/.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findErrorRecord } from '../../src-shared/errors/catalogue';
import { waitForSave, watchLayoutSaves, type LayoutSaves, type SavedPanel } from './layout-saves';
import { SCALE, fixed, notionalOf, sumFixed } from './fixed-decimal';
import { CHROMIUM_ARGS, WAIT, setConfirming, startDesk, stopDesk, tearDown } from './web-desk';

const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = join(ROOT, 'test-results');

let desk: ChildProcess;
let dataDir: string;
let browser: Browser;
let page: Page;
let saves: LayoutSaves;

async function openDesk(url: string): Promise<Page> {
  const opened = await browser.newPage({ viewport: { width: 1600, height: 1400 } });
  saves = watchLayoutSaves(opened);
  await opened.goto(url);
  // Trading starts once the account has loaded through the bridge.
  await opened.getByRole('table', { name: 'Balances' }).getByRole('row').nth(1).waitFor({ timeout: WAIT });
  return opened;
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * Sends the ticket. The pre-trade checks may hold an order for confirmation; a trader reads it and sends it
 * anyway. Sent, the ticket clears its client order id, which is how a test knows the desk has answered.
 */
async function send(): Promise<void> {
  const clientOrderId = page.getByLabel('Client order id', { exact: true });
  const held = page.getByRole('dialog', { name: 'Confirm order' });
  const answered = async (): Promise<boolean> => (await clientOrderId.inputValue()) === '' || (await held.isVisible());
  await page.getByRole('button', { name: /^Buy|^Sell/ }).click();
  await expect.poll(answered, { timeout: WAIT }).toBe(true);
  if (await held.isVisible()) await held.getByRole('button').first().click();
  await expect.poll(() => clientOrderId.inputValue(), { timeout: WAIT }).toBe('');
}

/** The price of the ladder's bid level `depth` rows below the best (or its last), as the venue writes it. */
async function bidLevelPrice(depth: number): Promise<string> {
  const bids = page.getByRole('button', { name: /^Bid \d/ });
  await expect.poll(() => bids.count(), { timeout: WAIT }).toBeGreaterThan(0);
  const count = await bids.count();
  const label = (await bids.nth(Math.min(depth, count - 1)).getAttribute('aria-label')) ?? '';
  const price = /^Bid (\S+)/.exec(label)?.[1] ?? '';
  expect(fixed(price) > 0n).toBe(true);
  return price;
}

/** A buy limit 5% under the best bid: it rests, and it stays inside the desk's 10% deviation check. */
async function restingBuyPrice(): Promise<string> {
  const bid = fixed(await bidLevelPrice(0)) / SCALE;
  return (((bid * 95n) / 100n / 10000n) * 10000n).toString();
}

async function placeLimitBuy(price: string, clientOrderId: string, options: { postOnly?: boolean } = {}): Promise<void> {
  await page.getByLabel('Type', { exact: true }).selectOption('LIMIT');
  await page.getByLabel('Price', { exact: true }).fill(price);
  await page.getByLabel('Size', { exact: true }).fill('0.001');
  await page.getByLabel('Post-only', { exact: true }).setChecked(options.postOnly === true);
  await page.getByLabel('Client order id', { exact: true }).fill(clientOrderId);
  await send();
}

function rowsWith(table: string, text: string, on: Page = page) {
  return on.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });
}

/** The body rows of a table as cell texts, with the narrow spaces that group thousands taken out. */
function cells(table: string, on: Page = page): Promise<string[][]> {
  return on.getByRole('table', { name: table }).evaluate((t) =>
    [...t.querySelectorAll('tbody tr:not([aria-hidden])')].map((row) => [...row.children].map((cell) => (cell.textContent ?? '').replaceAll('\u202f', '').trim())),
  );
}

type Holding = { free: bigint; locked: bigint };

async function holdings(): Promise<Record<string, Holding>> {
  const rows = await cells('Balances');
  return Object.fromEntries(rows.map(([asset = '', free = '', locked = '']) => [asset, { free: fixed(free), locked: fixed(locked) }]));
}

async function focusedField(): Promise<string> {
  return page.evaluate(() => document.activeElement?.closest('label')?.firstChild?.textContent?.trim() ?? document.activeElement?.tagName ?? '');
}

/** Each panel of the workspace in order, with the columns and rows it spans. */
function arrangement(on: Page): Promise<string[]> {
  return on.locator('main.workspace > .slot').evaluateAll((slots) =>
    slots.map((slot) => {
      const style = (slot as HTMLElement).style;
      return `${slot.querySelector('section.panel')?.getAttribute('aria-label') ?? '?'} | ${style.gridColumn} | ${style.gridRow}`;
    }),
  );
}

/**
 * Docks a popped-out panel with its own button, which closes that window. The window may close before Playwright
 * hears the click finish, and then the click fails saying so: that failure is the expected outcome, any other is
 * not, and the window must close either way.
 */
/** Pops the panel with this title out of the main window; its window once opened. */
/** Points an environment where nothing listens and switches to it: a session there never goes live. */
async function switchToNowhere(name: 'Development' | 'Production', shown: string): Promise<void> {
  const env = page.getByRole('region', { name: 'Environments' });
  // A port of each environment's own: the desk refuses Development and Production at one venue.
  const port = name === 'Development' ? 9 : 7;
  await env.getByLabel(`${name} REST URL`).fill(`http://127.0.0.1:${port}/`);
  await env.getByLabel(`${name} WebSocket URL`).fill(`ws://127.0.0.1:${port}/ws`);
  await env.getByRole('form', { name: `${name} addresses` }).getByRole('button', { name: 'Save' }).click();
  await env.getByRole('button', { name: `Switch to ${name}` }).click();
  await page.getByLabel('Environment', { exact: true }).filter({ hasText: shown }).waitFor({ timeout: WAIT });
}

async function popOut(title: string): Promise<Page> {
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: `Pop out ${title}` }).click();
  return popup;
}

async function dockBack(window: Page): Promise<void> {
  const closed = window.waitForEvent('close', { timeout: WAIT });
  await window
    .getByRole('button', { name: 'Back to workspace' })
    .click()
    .catch((err: unknown) => {
      if (!window.isClosed()) throw err;
    });
  await closed;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'nova-e2e-'));
  const started = await startDesk(dataDir);
  desk = started.child;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  page = await openDesk(started.url);
}, 120_000);

afterAll(() => tearDown(browser, desk, dataDir), 60_000);

describe('the desk in a browser', () => {
  it('places a limit order, shows it open and on the ladder, cancels it and shows it in the history', { timeout: 60_000 }, async () => {
    // A level well inside the ladder's twenty rows, yet deep enough that the simulated takers rarely reach it.
    const price = await bidLevelPrice(10);
    await shot('workspace');
    await placeLimitBuy(price, 'e2e-limit-1');

    const open = rowsWith('Open orders', 'e2e-limit-1');
    await expect.poll(() => open.count(), { timeout: WAIT }).toBe(1);
    const mine = page.getByRole('region', { name: 'Depth ladder BTC-VND' }).getByRole('button', { name: `Cancel my orders at ${price}`, exact: true });
    await expect.poll(() => mine.count(), { timeout: WAIT }).toBe(1);
    expect(await mine.textContent()).toContain('mine 0.001');
    // The mark does not push its row's size and total out of the columns every other row keeps.
    const sizeEdges = await page
      .getByRole('region', { name: 'Depth ladder BTC-VND' })
      .locator('.level.bid')
      .evaluateAll((rows) => rows.filter((row) => (row as HTMLElement).style.visibility !== 'hidden').map((row) => Math.round(row.querySelector('.size')?.getBoundingClientRect().right ?? 0)));
    expect(new Set(sizeEdges).size).toBe(1);
    await shot('limit-order-open');

    // Named for the order it cancels: a screen reader hears which of many Cancels it is on.
    await page.getByRole('button', { name: `Cancel BUY 0.001 BTC-VND at ${price} (e2e-limit-1)`, exact: true }).click();
    const history = rowsWith('Order history', 'e2e-limit-1');
    await expect.poll(() => history.count(), { timeout: WAIT }).toBe(1);
    expect(await history.textContent()).toContain('CANCELED');
    await expect.poll(() => open.count(), { timeout: WAIT }).toBe(0);
    await expect.poll(() => mine.count(), { timeout: WAIT }).toBe(0);
    await shot('limit-order-cancelled');
  });

  it('asks to confirm when the trader wants it: a double-clicked Confirm sends once, and another product withdraws the question', { timeout: 60_000 }, async () => {
    await setConfirming(page, true);
    try {
      // A price no other order of this run uses, a little under the book.
      const price = String(fixed(await bidLevelPrice(12)) / SCALE - 70_000n);
      const atPrice = async (): Promise<number> => (await cells('Open orders')).filter((row) => row.includes(price)).length;
      await page.getByLabel('Type', { exact: true }).selectOption('LIMIT');
      await page.getByLabel('Price', { exact: true }).fill(price);
      await page.getByLabel('Size', { exact: true }).fill('0.001');
      await page.getByRole('button', { name: /^Buy/ }).click();
      const held = page.getByRole('dialog', { name: 'Confirm order' });
      await held.waitFor({ timeout: WAIT });
      expect(await held.textContent()).toContain('BUY 0.001 BTC on BTC-VND');
      // Another desk product meanwhile: the ticket no longer shows the order asked about, and the question goes.
      await page.getByLabel('Desk product').selectOption('ETH-VND');
      await page.getByRole('form', { name: 'Order ticket ETH-VND' }).waitFor({ timeout: WAIT });
      await held.waitFor({ state: 'hidden', timeout: WAIT });
      await page.getByLabel('Desk product').selectOption('BTC-VND');
      await page.getByRole('button', { name: /^Buy/ }).click();
      await held.waitFor({ timeout: WAIT });
      await held.getByRole('button').first().dblclick();
      await held.waitFor({ state: 'hidden', timeout: WAIT });
      // A second order, sent and confirmed after: once it shows, a duplicate of the first would show too.
      await placeLimitBuy(String(BigInt(price) - 10_000n), 'e2e-after-confirm');
      await expect.poll(() => rowsWith('Open orders', 'e2e-after-confirm').count(), { timeout: WAIT }).toBe(1);
      expect(await atPrice()).toBe(1);
    } finally {
      await setConfirming(page, false);
    }
    await page.getByRole('button', { name: 'Cancel all', exact: true }).click();
    await expect.poll(async () => (await cells('Open orders')).length, { timeout: WAIT }).toBe(0);
  });

  it('confirms a held order from the keyboard: Enter in the ticket, Enter to confirm, Escape to go back', { timeout: 60_000 }, async () => {
    const confirming = page.getByRole('region', { name: 'Environments' }).getByLabel('Confirm orders in Local');
    if (!(await confirming.isChecked())) await confirming.click();
    await expect.poll(() => confirming.isChecked(), { timeout: WAIT }).toBe(true);
    const held = page.getByRole('dialog', { name: 'Confirm order' });
    try {
      await page.getByLabel('Type', { exact: true }).selectOption('LIMIT');
      await page.getByLabel('Price', { exact: true }).fill(await restingBuyPrice());
      await page.getByLabel('Size', { exact: true }).fill('0.001');
      await page.getByLabel('Client order id', { exact: true }).fill('e2e-held-enter');
      await page.getByLabel('Size', { exact: true }).focus();
      // Enter held down: it sends the ticket, and its repeats on the Confirm that takes the focus confirm nothing.
      await page.keyboard.down('Enter');
      await held.waitFor({ timeout: WAIT });
      for (let i = 0; i < 5; i++) await page.keyboard.down('Enter');
      await page.keyboard.up('Enter');
      await page.keyboard.press('Escape');
      await held.waitFor({ state: 'hidden', timeout: WAIT });
      await page.getByLabel('Client order id', { exact: true }).fill('e2e-keyboard-confirm');
      await page.getByLabel('Size', { exact: true }).focus();
      // Escape goes back to the field the trader was in, and nothing is sent.
      await page.keyboard.press('Enter');
      await held.waitFor({ timeout: WAIT });
      await page.keyboard.press('Escape');
      await held.waitFor({ state: 'hidden', timeout: WAIT });
      await expect.poll(focusedField).toBe('Size');
      // Enter, then Enter again: the trader never has to reach for the mouse or tab through the form.
      await page.keyboard.press('Enter');
      await held.waitFor({ timeout: WAIT });
      await page.keyboard.press('Enter');
      await expect.poll(() => rowsWith('Open orders', 'e2e-keyboard-confirm').count(), { timeout: WAIT }).toBe(1);
      // The ticket sends one order at a time, so one the held Enter had confirmed would show by now.
      expect(await rowsWith('Open orders', 'e2e-held-enter').count()).toBe(0);
    } finally {
      if (await held.isVisible()) await held.getByRole('button', { name: 'Back' }).click();
      await confirming.click();
      await expect.poll(() => confirming.isChecked(), { timeout: WAIT }).toBe(false);
    }
    await page.getByRole('button', { name: 'Cancel all', exact: true }).click();
    await expect.poll(async () => (await cells('Open orders')).length, { timeout: WAIT }).toBe(0);
  });

  it('shows and changes the pre-trade limits in the Environments panel, and a held order says the limit set there', { timeout: 60_000 }, async () => {
    const limits = page.getByRole('form', { name: 'Pre-trade limits' });
    const deviation = limits.getByLabel('Largest distance of a limit from the market, in %');
    const notional = limits.getByLabel('Largest notional, in the quote asset');
    const save = limits.getByRole('button', { name: 'Save limits' });
    await expect.poll(() => deviation.inputValue(), { timeout: WAIT }).toBe('10');
    expect(await notional.inputValue()).toBe('');
    // The desk refuses 0 (it would read as on and act as off), and says so beside the box.
    await notional.fill('0');
    await save.click();
    await expect.poll(() => limits.getByRole('alert').textContent(), { timeout: WAIT }).toContain('must be above 0');
    await notional.fill('');
    await deviation.fill('2');
    await save.click();
    await expect.poll(() => limits.textContent(), { timeout: WAIT }).toContain('now 2%');
    const held = page.getByRole('dialog', { name: 'Confirm order' });
    try {
      // 5% under the best bid: inside the default 10%, past the 2% just set.
      await page.getByLabel('Type', { exact: true }).selectOption('LIMIT');
      await page.getByLabel('Price', { exact: true }).fill(await restingBuyPrice());
      await page.getByLabel('Size', { exact: true }).fill('0.001');
      await page.getByRole('button', { name: /^Buy/ }).click();
      await held.waitFor({ timeout: WAIT });
      expect(await held.textContent()).toContain('the limit is 2%');
      expect(await held.textContent()).toContain('Pre-trade limits');
      await held.getByRole('button', { name: 'Back' }).click();
      await held.waitFor({ state: 'hidden', timeout: WAIT });
    } finally {
      if (await held.isVisible()) await held.getByRole('button', { name: 'Back' }).click();
      await deviation.fill('10');
      await save.click();
      await expect.poll(() => limits.textContent(), { timeout: WAIT }).toContain('now 10%');
    }
    expect(await cells('Open orders')).toEqual([]);
  });

  it('checks the ticket as the trader types', { timeout: 60_000 }, async () => {
    await page.getByLabel('Type', { exact: true }).selectOption('LIMIT');
    await page.getByLabel('Price', { exact: true }).fill('2500001234');
    await page.getByLabel('Size', { exact: true }).fill('0.001');
    await page.getByRole('alert').filter({ hasText: 'multiple of 10000' }).waitFor({ timeout: WAIT });
    expect(await page.getByRole('button', { name: /^Buy/ }).isDisabled()).toBe(true);
    await page.getByLabel('Size', { exact: true }).fill('5');
    await page.getByLabel('Price', { exact: true }).fill('2500000000');
    await page.getByRole('alert').filter({ hasText: 'VND free' }).waitFor({ timeout: WAIT });
    await shot('ticket-checks');
    await page.getByLabel('Size', { exact: true }).fill('');
    await page.getByLabel('Price', { exact: true }).fill('');
  });

  it('does not carry a price typed for one product to an order for another', { timeout: 60_000 }, async () => {
    await page.getByLabel('Type', { exact: true }).selectOption('LIMIT');
    await page.getByLabel('Price', { exact: true }).fill(await restingBuyPrice());
    await page.getByLabel('Size', { exact: true }).fill('0.001');
    await expect.poll(() => page.getByRole('button', { name: /^Buy/ }).isDisabled(), { timeout: WAIT }).toBe(false);
    await page.getByLabel('Desk product').selectOption('ETH-VND');
    await page.getByRole('alert').filter({ hasText: 'typed for BTC-VND; this ticket trades ETH-VND' }).waitFor({ timeout: WAIT });
    expect(await page.getByRole('button', { name: /^Buy/ }).isDisabled()).toBe(true);
    await page.getByLabel('Desk product').selectOption('BTC-VND');
    await expect.poll(() => page.getByRole('button', { name: /^Buy/ }).isDisabled(), { timeout: WAIT }).toBe(false);
    await page.getByLabel('Size', { exact: true }).fill('');
    await page.getByLabel('Price', { exact: true }).fill('');
  });

  it('cancels several selected orders at once', { timeout: 60_000 }, async () => {
    const price = await restingBuyPrice();
    await placeLimitBuy(price, 'e2e-bulk-1');
    await placeLimitBuy(price, 'e2e-bulk-2');
    await expect.poll(() => rowsWith('Open orders', 'e2e-bulk-').count(), { timeout: WAIT }).toBe(2);
    await page.getByRole('checkbox', { name: 'Select order e2e-bulk-1' }).check();
    await page.getByRole('checkbox', { name: 'Select order e2e-bulk-2' }).check();
    await page.getByRole('button', { name: 'Cancel selected (2)' }).click();
    await expect.poll(() => rowsWith('Order history', 'e2e-bulk-').count(), { timeout: WAIT }).toBe(2);
    await expect.poll(() => rowsWith('Open orders', 'e2e-bulk-').count(), { timeout: WAIT }).toBe(0);
  });

  it('shows the orders a history search found as they stand now: one found working and canceled since reads CANCELED', { timeout: 60_000 }, async () => {
    await placeLimitBuy(await restingBuyPrice(), 'e2e-searched-1');
    await expect.poll(() => rowsWith('Open orders', 'e2e-searched-1').count(), { timeout: WAIT }).toBe(1);
    const history = page.getByRole('region', { name: 'Order history' });
    await history.getByLabel('History client order id').fill('e2e-searched-1');
    await history.getByRole('button', { name: 'Search' }).click();
    const found = rowsWith('Order history', 'e2e-searched-1');
    await expect.poll(() => found.filter({ hasText: 'ACTIVE' }).count(), { timeout: WAIT }).toBe(1);

    await page.getByRole('button', { name: /^Cancel BUY 0\.001 BTC-VND at \d+ \(e2e-searched-1\)$/ }).click();
    await expect.poll(() => found.filter({ hasText: 'CANCELED' }).count(), { timeout: WAIT }).toBe(1);
    // Still the search: the Live button is there to leave it.
    await history.getByRole('button', { name: 'Live' }).click();
    await history.getByLabel('History client order id').fill('');
  });

  it('places an order with the keyboard alone', { timeout: 60_000 }, async () => {
    // Start from a ticket that is not ready: a market order, so the type has to be chosen by key too.
    await page.getByLabel('Type', { exact: true }).selectOption('MARKET');
    await page.getByLabel('Size', { exact: true }).fill('');
    const price = await bidLevelPrice(12);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    await page.keyboard.press('Alt+T');
    await expect.poll(focusedField).toBe('Size');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(focusedField).toBe('Type');
    await page.keyboard.press('l');
    await expect.poll(() => page.getByLabel('Type', { exact: true }).inputValue()).toBe('LIMIT');
    await page.keyboard.press('Tab');
    await expect.poll(focusedField).toBe('Price');
    await page.keyboard.type(price);
    await page.keyboard.press('Tab');
    await expect.poll(focusedField).toBe('Size');
    await page.keyboard.type('0.001');
    await page.keyboard.press('Alt+S');
    await expect.poll(() => page.getByRole('button', { name: /^Sell 0.001 BTC/ }).count()).toBe(1);
    await page.keyboard.press('Alt+B');
    await expect.poll(() => page.getByRole('button', { name: /^Buy 0.001 BTC/ }).count()).toBe(1);
    await shot('keyboard-ticket');
    await page.keyboard.press('Enter');

    const placed = async (): Promise<number> =>
      (await cells('Open orders')).filter((row) => row.includes(price) && row.includes('0.001') && row.includes('Buy') && row.includes('LIMIT')).length;
    await expect.poll(placed, { timeout: WAIT }).toBe(1);
    await shot('keyboard-order-open');

    await page.getByRole('button', { name: 'Cancel all BTC-VND' }).click();
    await expect.poll(placed, { timeout: WAIT }).toBe(0);
  });

  it('explains an order the venue refuses with the catalogue\'s title, message and action', { timeout: 60_000 }, async () => {
    const record = findErrorRecord('E0202_PostOnlyWouldMatch');
    expect(record).toBeDefined();
    // The worst ask the ladder shows: a post-only buy there takes liquidity even if the best ask moves a little.
    const asks = page.getByRole('button', { name: /^Ask \d/ });
    await expect.poll(() => asks.count(), { timeout: WAIT }).toBeGreaterThan(0);
    const price = /^Ask (\S+)/.exec((await asks.first().getAttribute('aria-label')) ?? '')?.[1] ?? '';
    await placeLimitBuy(price, 'e2e-post-only', { postOnly: true });
    const notice = page.getByRole('alert').filter({ hasText: record?.title ?? '?' });
    await notice.waitFor({ timeout: WAIT });
    const text = (await notice.textContent()) ?? '';
    expect(text).toContain(record?.message ?? '?');
    expect(text).toContain('Change the request and send it again.');
    expect(text).toContain('E0202_PostOnlyWouldMatch');
    expect(await rowsWith('Open orders', 'e2e-post-only').count()).toBe(0);
    // The history says why, not just REJECTED.
    await expect.poll(() => rowsWith('Order history', 'e2e-post-only').filter({ hasText: 'REJECTED: Post-only order would match (E0202)' }).count(), { timeout: WAIT }).toBe(1);
    // The ticket follows the order it sent past the venue's first answer.
    await expect.poll(() => page.getByLabel('Last order', { exact: true }).textContent(), { timeout: WAIT }).toBe('BUY 0.001 BTC-VND: REJECTED: Post-only order would match (E0202)');
    await shot('venue-error');

    await page.getByLabel('Post-only', { exact: true }).uncheck();
    await notice.getByRole('button', { name: /^Dismiss/ }).click();
    await expect.poll(() => notice.count()).toBe(0);
  });

  it('sends a market order into the simulated book and shows the fill and the balances it moved', { timeout: 60_000 }, async () => {
    // Nothing of ours rests, so nothing is locked and the balances stand still until we trade.
    await expect.poll(async () => (await cells('Open orders')).length, { timeout: WAIT }).toBe(0);
    await expect.poll(async () => Object.values(await holdings()).every((h) => h.locked === 0n), { timeout: WAIT }).toBe(true);
    const before = await holdings();
    expect(before.BTC).toBeDefined();
    expect(before.VND).toBeDefined();

    await expect.poll(() => page.getByRole('button', { name: /^Ask \d/ }).count(), { timeout: WAIT }).toBeGreaterThan(0);
    await page.getByLabel('Type', { exact: true }).selectOption('MARKET');
    await page.getByLabel('Post-only', { exact: true }).uncheck();
    await page.getByLabel('Size', { exact: true }).fill('0.001');
    await page.getByLabel('Client order id', { exact: true }).fill('e2e-market-1');
    await send();

    // Fills: Time, Product, Side, Price, Size, Fee ("amount asset"), Liquidity, Order.
    const fills = async (): Promise<string[][]> => (await cells('Fills')).filter((row) => row[7] === 'e2e-market-1');
    await expect.poll(async () => sumFixed((await fills()).map((row) => row[4] ?? '')), { timeout: WAIT }).toBe(fixed('0.001'));
    await expect.poll(() => rowsWith('Open orders', 'e2e-market-1').count(), { timeout: WAIT }).toBe(0);

    const filled = await fills();
    const notional = filled.reduce((sum, row) => sum + notionalOf(row[3] ?? '', row[4] ?? ''), 0n);
    const fee = (asset: string): bigint => sumFixed(filled.filter((row) => row[5]?.endsWith(` ${asset}`)).map((row) => row[5]?.split(' ')[0] ?? ''));
    expect(filled.every((row) => row[5]?.endsWith(' VND') === true || row[5]?.endsWith(' BTC') === true)).toBe(true);
    const expected = {
      BTC: { free: (before.BTC?.free ?? 0n) + fixed('0.001') - fee('BTC'), locked: 0n },
      VND: { free: (before.VND?.free ?? 0n) - notional - fee('VND'), locked: 0n },
    };
    await expect
      .poll(async () => {
        const now = await holdings();
        return { BTC: now.BTC, VND: now.VND };
      }, { timeout: WAIT })
      .toEqual(expected);
    await shot('market-order-filled');
  });

  it('pops the open orders out into a window that follows the main one', { timeout: 60_000 }, async () => {
    const window = await popOut('Open orders');
    await window.getByRole('table', { name: 'Open orders' }).waitFor({ timeout: WAIT });
    await expect.poll(() => page.getByRole('region', { name: 'Open orders' }).count()).toBe(0);

    await placeLimitBuy(await restingBuyPrice(), 'e2e-popped-1');
    const there = rowsWith('Open orders', 'e2e-popped-1', window);
    await expect.poll(() => there.count(), { timeout: WAIT }).toBe(1);
    await window.screenshot({ path: join(SHOTS, 'popped-out-open-orders.png') });

    // Cancelled over there, it is history over here.
    await there.getByRole('button', { name: /^Cancel BUY 0\.001 BTC-VND at \d+ \(e2e-popped-1\)$/ }).click();
    await expect.poll(() => rowsWith('Order history', 'e2e-popped-1').count(), { timeout: WAIT }).toBe(1);
    await expect.poll(() => there.count(), { timeout: WAIT }).toBe(0);
    await dockBack(window);
    await page.getByRole('region', { name: 'Open orders' }).waitFor({ timeout: WAIT });
  });

  it('pops the order history out with the search the trader had typed, and takes it back with the one typed there', { timeout: 60_000 }, async () => {
    const history = page.getByRole('region', { name: 'Order history' });
    await history.getByLabel('History client order id').fill('e2e-limit-1');
    await history.getByLabel('History status').selectOption('DONE');
    await history.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => cells('Order history').then((rows) => rows.length), { timeout: WAIT }).toBe(1);

    const window = await popOut('Order history');
    const there = window.getByRole('region', { name: 'Order history' });
    await there.waitFor({ timeout: WAIT });
    expect(await there.getByLabel('History client order id').inputValue()).toBe('e2e-limit-1');
    expect(await there.getByLabel('History status').inputValue()).toBe('DONE');
    // The search is shown again, not the live history under the typed filters.
    await expect.poll(() => cells('Order history', window), { timeout: WAIT }).toEqual([expect.arrayContaining(['e2e-limit-1'])]);

    await there.getByLabel('History client order id').fill('e2e-bulk-1');
    await dockBack(window);
    await expect.poll(() => history.getByLabel('History client order id').inputValue(), { timeout: WAIT }).toBe('e2e-bulk-1');
    await history.getByRole('button', { name: 'Live' }).click();
    await history.getByLabel('History client order id').fill('');
    await history.getByLabel('History status').selectOption('');
  });

  it('pops the order ticket out with the order being written, fills it from the workspace ladder, and takes it back', { timeout: 60_000 }, async () => {
    await page.getByLabel('Type', { exact: true }).selectOption('LIMIT');
    await page.getByLabel('Size', { exact: true }).fill('0.002');
    const window = await popOut('Order ticket');
    const ticket = window.getByRole('form', { name: 'Order ticket BTC-VND' });
    await ticket.waitFor({ timeout: WAIT });
    expect(await ticket.getByLabel('Size', { exact: true }).inputValue()).toBe('0.002');

    // A price clicked on the workspace's ladder reaches the ticket in its own window. The book moves under the
    // rows, so a click whose price the ladder changed meanwhile is tried again.
    const bids = page.getByRole('button', { name: /^Bid \d/ });
    for (const deadline = Date.now() + WAIT; ; ) {
      const price = /^Bid (\S+)/.exec((await bids.nth(3).getAttribute('aria-label')) ?? '')?.[1] ?? '';
      await bids.nth(3).click();
      try {
        await expect.poll(() => ticket.getByLabel('Price', { exact: true }).inputValue(), { timeout: 3_000 }).toBe(price);
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
    }

    await ticket.getByLabel('Client order id', { exact: true }).fill('e2e-from-window');
    await dockBack(window);
    await expect.poll(() => page.getByLabel('Client order id', { exact: true }).inputValue(), { timeout: WAIT }).toBe('e2e-from-window');
    await page.getByLabel('Client order id', { exact: true }).fill('');
    await page.getByLabel('Size', { exact: true }).fill('');
    await page.getByLabel('Price', { exact: true }).fill('');
  });

  it('reloads a popped-out ticket, history and linked panel as the trader last left them, not as they popped out', { timeout: 60_000 }, async () => {
    await page.getByLabel('Size', { exact: true }).fill('0.002');
    const ticketWindow = await popOut('Order ticket');
    const ticket = ticketWindow.getByRole('form', { name: 'Order ticket BTC-VND' });
    await ticket.waitFor({ timeout: WAIT });
    await ticket.getByLabel('Size', { exact: true }).fill('0.005');
    await ticket.getByLabel('Client order id', { exact: true }).fill('e2e-typed-there');
    // Ctrl+R: the window opens again from its address.
    await ticketWindow.reload();
    await ticket.waitFor({ timeout: WAIT });
    expect(await ticket.getByLabel('Size', { exact: true }).inputValue()).toBe('0.005');
    expect(await ticket.getByLabel('Client order id', { exact: true }).inputValue()).toBe('e2e-typed-there');
    await ticket.getByLabel('Client order id', { exact: true }).fill('');
    await ticket.getByLabel('Size', { exact: true }).fill('');
    await dockBack(ticketWindow);
    await expect.poll(() => page.getByLabel('Size', { exact: true }).inputValue(), { timeout: WAIT }).toBe('');

    const historyWindow = await popOut('Order history');
    const history = historyWindow.getByRole('region', { name: 'Order history' });
    await history.waitFor({ timeout: WAIT });
    await history.getByLabel('History client order id').fill('e2e-filter-there');
    await historyWindow.getByLabel('Linked product').selectOption('SOL-VND');
    await historyWindow.reload();
    await history.waitFor({ timeout: WAIT });
    expect(await history.getByLabel('History client order id').inputValue()).toBe('e2e-filter-there');
    expect(await historyWindow.getByLabel('Linked product').inputValue()).toBe('SOL-VND');
    await history.getByLabel('History client order id').fill('');
    await historyWindow.getByLabel('Linked product').selectOption('');
    await dockBack(historyWindow);
    await page.getByRole('region', { name: 'Order history' }).waitFor({ timeout: WAIT });
  });

  it('writes the ladder\'s and the tape\'s sizes and prices at each product\'s increments', { timeout: 60_000 }, async () => {
    // Before the test that links the Trades panel to ETH-VND: this one and the next read the tape of the desk product.
    // Sizes one column, one precision: BTC-VND's 0.0001, SOL-VND's 0.01; prices in whole VND.
    const shown = async (product: string): Promise<string[]> => {
      const ladder = page.getByRole('region', { name: `Depth ladder ${product}` });
      await expect.poll(() => ladder.locator('.level.bid .size').evaluateAll((n) => n.filter((e) => e.textContent !== '').length), { timeout: WAIT }).toBeGreaterThan(5);
      const ladderFigures = await ladder.locator('.level:not(.head)').evaluateAll((rows) =>
        rows.filter((r) => (r as HTMLElement).style.visibility === 'visible').flatMap((r) => [...r.querySelectorAll('.size, .total')].map((c) => c.textContent ?? '')),
      );
      const tape = page.getByRole('table', { name: `Trades ${product}` });
      await expect.poll(() => tape.locator('tbody tr:not([hidden])').count(), { timeout: WAIT }).toBeGreaterThan(0);
      const tapeSizes = await tape.locator('tbody tr:not([hidden]) td:nth-child(3)').allTextContents();
      return [...ladderFigures, ...tapeSizes].map((t) => t.replaceAll('\u202f', ''));
    };
    const btc = await shown('BTC-VND');
    expect(btc.filter((t) => !/^\d+\.\d{4}$/.test(t))).toEqual([]);
    await page.getByLabel('Desk product').selectOption('SOL-VND');
    const sol = await shown('SOL-VND');
    expect(sol.filter((t) => !/^\d+\.\d{2}$/.test(t))).toEqual([]);
    const prices = await page.getByRole('table', { name: 'Trades SOL-VND' }).locator('tbody tr:not([hidden]) td:nth-child(2)').allTextContents();
    expect(prices.filter((t) => !/^\d+$/.test(t.replaceAll('\u202f', '')))).toEqual([]);
    await page.getByLabel('Desk product').selectOption('BTC-VND');
    await page.getByRole('region', { name: 'Depth ladder BTC-VND' }).waitFor({ timeout: WAIT });
  });

  it('never shows the previous product\'s book or trades under the product just chosen', { timeout: 60_000 }, async () => {
    await page.getByRole('button', { name: /^Bid \d/ }).first().waitFor({ timeout: WAIT });
    await page.getByRole('table', { name: 'Trades BTC-VND' }).locator('tbody tr:not([hidden])').first().waitFor({ timeout: WAIT });
    // Read in the same task as the DOM change that retitles the panels, before the browser paints it: what the
    // trader would see in that frame under 'SOL-VND'.
    const seen = page.evaluate(
      () =>
        new Promise<{ ladder: string[]; tape: string[] }>((resolve) => {
          const observer = new MutationObserver(() => {
            const ladder = document.querySelector('section[aria-label="Depth ladder SOL-VND"]');
            const tape = document.querySelector('section[aria-label="Trades SOL-VND"]');
            if (ladder === null || tape === null) return;
            observer.disconnect();
            resolve({
              ladder: [...ladder.querySelectorAll<HTMLElement>('.level:not(.head)')].filter((r) => r.style.visibility !== 'hidden').map((r) => r.querySelector('.price')?.getAttribute('aria-label') ?? ''),
              tape: [...tape.querySelectorAll<HTMLTableRowElement>('tbody tr')].filter((r) => !r.hidden).map((r) => r.cells[1]?.textContent ?? ''),
            });
          });
          observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        }),
    );
    await page.getByLabel('Desk product').selectOption('SOL-VND');
    const { ladder, tape } = await seen;
    // BTC-VND trades near 2 500 000 000 VND, SOL-VND near 4 000 000: any price above 100 000 000 is BTC-VND's.
    const btc = (price: string): boolean => fixed(price.replaceAll('\u202f', '').replace(/^(Bid|Ask) /, '')) > 100_000_000n * SCALE;
    expect({ ladder: ladder.filter(btc), tape: tape.filter(btc) }).toEqual({ ladder: [], tape: [] });
    await page.getByLabel('Desk product').selectOption('BTC-VND');
    await page.getByRole('region', { name: 'Depth ladder BTC-VND' }).waitFor({ timeout: WAIT });
  });

  it('pops a panel out into its own live window and takes it back', { timeout: 60_000 }, async () => {
    const window = await popOut('Trades');
    await window.getByRole('table', { name: 'Trades BTC-VND' }).waitFor({ timeout: WAIT });
    await expect.poll(() => page.getByRole('region', { name: 'Trades BTC-VND' }).count()).toBe(0);
    // Linked to another product, it shows that product's trades.
    await window.getByLabel('Linked product').selectOption('ETH-VND');
    await window.getByRole('table', { name: 'Trades ETH-VND' }).waitFor({ timeout: WAIT });
    await window.screenshot({ path: join(SHOTS, 'popped-out-tape.png') });
    await dockBack(window);
    await page.getByRole('region', { name: 'Trades ETH-VND' }).waitFor({ timeout: WAIT });
  });

  it('keeps a popped-out panel that follows the desk product on it when the main window changes it', { timeout: 60_000 }, async () => {
    const window = await popOut('Depth ladder');
    await window.getByRole('region', { name: 'Depth ladder BTC-VND' }).waitFor({ timeout: WAIT });
    await page.getByLabel('Desk product').selectOption('ETH-VND');
    await window.getByRole('region', { name: 'Depth ladder ETH-VND' }).waitFor({ timeout: WAIT });
    // Reloaded, the window shows the desk product as it is now, not the one it was opened on, and the panel
    // stays out of the workspace.
    await window.reload();
    await window.getByRole('region', { name: 'Depth ladder ETH-VND' }).waitFor({ timeout: WAIT });
    await expect.poll(() => page.getByRole('region', { name: /^Depth ladder / }).count(), { timeout: WAIT }).toBe(0);
    await page.getByLabel('Desk product').selectOption('BTC-VND');
    await window.getByRole('region', { name: 'Depth ladder BTC-VND' }).waitFor({ timeout: WAIT });
    await dockBack(window);
    await page.getByRole('region', { name: 'Depth ladder BTC-VND' }).waitFor({ timeout: WAIT });
  });

  it('puts a price clicked on a popped-out ladder into the workspace’s ticket', { timeout: 60_000 }, async () => {
    const window = await popOut('Depth ladder');
    const bids = window.getByRole('button', { name: /^Bid \d/ });
    await expect.poll(() => bids.count(), { timeout: WAIT }).toBeGreaterThan(3);
    // The simulated book moves under the rows: a row read just before the click can show another price when
    // the click lands, so a click whose price the ladder changed meanwhile is tried again.
    for (const deadline = Date.now() + WAIT; ; ) {
      const label = (await bids.nth(3).getAttribute('aria-label')) ?? '';
      const price = /^Bid (\S+)/.exec(label)?.[1] ?? '';
      await bids.nth(3).click();
      try {
        await expect.poll(() => page.getByLabel('Price', { exact: true }).inputValue(), { timeout: 3_000 }).toBe(price);
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
    }
    await dockBack(window);
    await page.getByRole('region', { name: 'Depth ladder BTC-VND' }).waitFor({ timeout: WAIT });
  });

  it('keeps a popped-out panel out of the workspace when the main window is reloaded', { timeout: 60_000 }, async () => {
    const window = await popOut('Trades');
    await window.getByRole('region', { name: /^Trades / }).waitFor({ timeout: WAIT });
    await page.reload();
    await page.getByRole('table', { name: 'Balances' }).getByRole('row').nth(1).waitFor({ timeout: WAIT });
    await page.getByText('Popped out: Trades').waitFor({ timeout: WAIT });
    expect(await page.getByRole('region', { name: /^Trades / }).count()).toBe(0);
    await dockBack(window);
    // Linked to ETH-VND by an earlier test, moments before: the reload kept that too.
    await page.getByRole('region', { name: 'Trades ETH-VND' }).waitFor({ timeout: WAIT });
  });

  it('pops a panel out on the desk product just chosen, before the layout holding it is saved', { timeout: 60_000 }, async () => {
    await page.getByLabel('Desk product').selectOption('ETH-VND');
    const window = await popOut('Depth ladder');
    await window.getByRole('region', { name: 'Depth ladder ETH-VND' }).waitFor({ timeout: WAIT });
    await dockBack(window);
    await page.getByLabel('Desk product').selectOption('BTC-VND');
    await page.getByRole('region', { name: 'Depth ladder BTC-VND' }).waitFor({ timeout: WAIT });
  });

  it('draws the chart in hour candles and back in minute ones', { timeout: 60_000 }, async () => {
    const length = page.getByLabel('Candle length BTC-VND');
    await length.selectOption('60');
    await page.getByRole('img', { name: 'Candles for BTC-VND with your orders and fills' }).locator('canvas').first().waitFor({ timeout: WAIT });
    await shot('chart-hours');
    await length.selectOption('1');
    await page.getByRole('img', { name: 'Candles for BTC-VND with your orders and fills' }).locator('canvas').first().waitFor({ timeout: WAIT });
  });

  it('creates a read-only API key on the venue and lists it without its secret', { timeout: 60_000 }, async () => {
    const keys = page.getByRole('region', { name: 'API keys' });
    const create = keys.getByRole('form', { name: 'Create API key' });
    await create.getByLabel('Key name').fill('e2e-read-only');
    await create.getByLabel('Read-only').check();
    await create.getByLabel('Trade with it').uncheck();
    await create.getByRole('button', { name: 'Create key' }).click();
    await keys.getByRole('status').filter({ hasText: 'Created' }).waitFor({ timeout: WAIT });
    const row = keys.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'e2e-read-only' });
    await expect.poll(() => row.count(), { timeout: WAIT }).toBe(1);
    expect(await row.textContent()).toContain('read-only');
    await shot('api-keys');
  });

  it('revokes a key on the local venue from its row', { timeout: 60_000 }, async () => {
    const keys = page.getByRole('region', { name: 'API keys' });
    const create = keys.getByRole('form', { name: 'Create API key' });
    await create.getByLabel('Key name').fill('e2e-revoked');
    await create.getByLabel('Trade with it').uncheck();
    await create.getByRole('button', { name: 'Create key' }).click();
    const row = keys.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'e2e-revoked' });
    await expect.poll(() => row.count(), { timeout: WAIT }).toBe(1);
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: /^Revoke key / }).click();
    await expect.poll(() => row.count(), { timeout: WAIT }).toBe(0);
    // The local user's own key has no such button: the desk trades with it.
    const own = keys.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'Local user' });
    expect(await own.getByRole('button', { name: /^Revoke key / }).count()).toBe(0);
  });

  it('says beside the secret box why the secret of a key to import was refused', { timeout: 60_000 }, async () => {
    const form = page.getByRole('region', { name: 'API keys' }).getByRole('form', { name: 'Import API key' });
    await form.getByLabel('API key', { exact: true }).fill('nk_e2e_half_pasted');
    await form.getByLabel('API secret', { exact: true }).fill('half-a-secret');
    await form.getByRole('button', { name: /^Import/ }).click();
    const beside = form.locator('#import-api_secret-error');
    await beside.waitFor({ timeout: WAIT });
    expect(await beside.textContent()).toMatch(/^must be at least 16 characters/);
    expect(await form.getByLabel('API secret', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('API key', { exact: true }).fill('');
  });

  it('saves a picture of each panel', { timeout: 60_000 }, async () => {
    const panels: Array<[file: string, region: string | RegExp]> = [
      ['panel-ticket', 'Order ticket'],
      ['panel-ladder', /^Depth ladder /],
      ['panel-tape', /^Trades /],
      ['panel-chart', /^Chart /],
      ['panel-open-orders', 'Open orders'],
      ['panel-order-history', 'Order history'],
      ['panel-fills', 'Fills'],
      ['panel-account', 'Account'],
      ['panel-keys', 'API keys'],
      ['panel-environments', 'Environments'],
    ];
    await shot('workspace-after-trading');
    for (const [file, region] of panels) {
      const path = join(SHOTS, `${file}.png`);
      rmSync(path, { force: true });
      await page.getByRole('region', { name: region, exact: true }).screenshot({ path });
      expect(statSync(path).size).toBeGreaterThan(0);
    }
  });

  it('marks the market panels stale and shows no latency while the connection is not live', { timeout: 60_000 }, async () => {
    const env = page.getByRole('region', { name: 'Environments' });
    // A session with a key keeps trying to connect there and never goes live.
    await switchToNowhere('Development', 'development');
    const form = page.getByRole('form', { name: 'Import API key' });
    await form.getByLabel('API key', { exact: true }).fill('e2e-unreachable-key');
    await form.getByLabel('API secret', { exact: true }).fill('c2VjcmV0LXRoYXQtbm8tdmVudWUtd2lsbC1ldmVyLXNlZQ==');
    await form.getByLabel('User id', { exact: true }).fill('e2e-user');
    await form.getByRole('button', { name: /^Import/ }).click();
    const connection = page.getByLabel('Connection state', { exact: true });
    await expect.poll(() => connection.textContent(), { timeout: WAIT }).toMatch(/^(connecting|reconnecting|reconciling)/);
    // The trader's orders and balances too: no order event reaches them until the session is live.
    for (const panel of [/^Depth ladder /, /^Trades /, /^Chart /, /^Open orders$/, /^Account$/]) {
      await page.getByRole('region', { name: panel }).first().getByText(/^stale: /).waitFor({ timeout: WAIT });
    }
    expect(await connection.textContent()).not.toMatch(/ms$/);
    await shot('stale-market');
    await env.getByRole('button', { name: 'Switch to Local' }).click();
    await page.getByLabel('Environment', { exact: true }).filter({ hasText: 'local' }).waitFor({ timeout: WAIT });
    await expect.poll(() => connection.textContent(), { timeout: WAIT }).toMatch(/^live/);
    await expect.poll(() => page.locator('.stale-mark').count(), { timeout: WAIT }).toBe(0);
  });

  it('restores the trader\'s layout after the desk is stopped and started again', { timeout: 90_000 }, async () => {
    await page.getByRole('button', { name: 'Close API keys' }).click();
    await page.getByRole('button', { name: 'Move Fills earlier' }).click();
    await page.getByRole('button', { name: 'Wider Fills' }).click();
    await page.getByRole('button', { name: 'Taller Chart' }).click();
    const arranged = await arrangement(page);
    expect(arranged.some((panel) => panel.startsWith('API keys'))).toBe(false);
    expect(arranged).toContain('Trades ETH-VND | span 1 | span 1');
    // Stopped before it has the layout, the desk would rightly come back with the old one.
    const panel = (panels: SavedPanel[], kind: string): SavedPanel | undefined => panels.find((p) => p.kind === kind);
    await waitForSave(saves, (panels) => panel(panels, 'keys') === undefined && panel(panels, 'fills')?.width === 2 && panel(panels, 'chart')?.height === 3, WAIT);

    await page.close();
    await stopDesk(desk);
    const restarted = await startDesk(dataDir);
    desk = restarted.child;
    page = await openDesk(restarted.url);
    await expect.poll(() => arrangement(page), { timeout: WAIT }).toEqual(arranged);
    await shot('workspace-restored');
  });

  it('marks Production in red when the trader switches to it', { timeout: 60_000 }, async () => {
    const env = page.getByRole('region', { name: 'Environments' });
    // The desk reports the connection state there, which is what a trader would see.
    await switchToNowhere('Production', 'PRODUCTION');
    expect(await page.locator('section.panel.production').count()).toBeGreaterThan(3);
    expect(await env.getByLabel('Confirm orders in Production').isChecked()).toBe(true);
    await shot('production');
    await env.getByRole('button', { name: 'Switch to Local' }).click();
    await page.getByLabel('Environment', { exact: true }).filter({ hasText: 'local' }).waitFor({ timeout: WAIT });
    expect(await page.locator('section.panel.production').count()).toBe(0);
  });
});
