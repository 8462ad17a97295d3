/**
 * End to end: the desk in browser mode (`npm run web`) with its embedded simulated venue, driven in Debian's
 * Chromium as a trader would: place a limit order, see it open, cancel it, see it in the history; send a market
 * order into the simulated book and see the fill. Needs `npm run build` first (browser mode serves out/renderer)
 * and /usr/bin/chromium. Screenshots go to test-results/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = join(ROOT, 'test-results');
const WAIT = 20_000;

let desk: ChildProcess;
let dataDir: string;
let browser: Browser;
let page: Page;

function startDesk(dir: string): Promise<{ child: ChildProcess; url: string }> {
  // Its own process group, so npm, tsx and the desk all stop together.
  const child = spawn('npm', ['run', 'web', '--', '--port', '0', '--data', dir], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolveReady, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`npm run web printed no ready line:\n${output}`)), 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const ready = /desk ready at (\S+)/.exec(output);
      if (ready?.[1] !== undefined) {
        clearTimeout(timer);
        resolveReady({ child, url: ready[1] });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`npm run web exited with ${code}:\n${output}`))));
  });
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** The pre-trade checks may hold an order for confirmation; a trader reads it and sends it anyway. */
async function confirmIfHeld(): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirm order' });
  if (await dialog.isVisible().catch(() => false)) await dialog.getByRole('button').first().click();
}

/** A buy limit 5% under the best bid: it rests, and it stays inside the desk's 10% deviation check. */
async function restingBuyPrice(): Promise<string> {
  await expect.poll(() => page.getByRole('button', { name: /^Bid \d+/ }).count(), { timeout: WAIT }).toBeGreaterThan(0);
  const label = (await page.getByRole('button', { name: /^Bid \d+/ }).first().getAttribute('aria-label')) ?? '';
  const bid = BigInt(/^Bid (\d+)/.exec(label)?.[1] ?? '0');
  expect(bid > 0n).toBe(true);
  return (((bid * 95n) / 100n / 10000n) * 10000n).toString();
}

async function placeLimitBuy(price: string, clientOrderId: string): Promise<void> {
  await page.getByLabel('Type', { exact: true }).selectOption('LIMIT');
  await page.getByLabel('Price', { exact: true }).fill(price);
  await page.getByLabel('Size', { exact: true }).fill('0.001');
  await page.getByLabel('Client order id', { exact: true }).fill(clientOrderId);
  await page.getByRole('button', { name: /^Buy/ }).click();
  await confirmIfHeld();
}

function rowsWith(table: string, text: string) {
  return page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'nova-e2e-'));
  const started = await startDesk(dataDir);
  desk = started.child;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  page = await browser.newPage({ viewport: { width: 1600, height: 1400 } });
  await page.goto(started.url);
  // Trading starts once the account has loaded through the bridge.
  await page.getByRole('table', { name: 'Balances' }).getByRole('row').nth(1).waitFor({ timeout: WAIT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (desk?.pid !== undefined) {
    const exited = new Promise((done) => desk.once('exit', done));
    process.kill(-desk.pid, 'SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the desk in a browser', () => {
  it('places a limit order, shows it open, cancels it and shows it in the history', { timeout: 120_000 }, async () => {
    const price = await restingBuyPrice();
    await shot('workspace');
    await placeLimitBuy(price, 'e2e-limit-1');

    const open = rowsWith('Open orders', 'e2e-limit-1');
    await expect.poll(() => open.count(), { timeout: WAIT }).toBe(1);
    await shot('limit-order-open');

    await open.getByRole('button', { name: 'Cancel', exact: true }).click();
    const history = rowsWith('Order history', 'e2e-limit-1');
    await expect.poll(() => history.count(), { timeout: WAIT }).toBe(1);
    expect(await history.textContent()).toContain('CANCELED');
    await expect.poll(() => open.count(), { timeout: WAIT }).toBe(0);
    await shot('limit-order-cancelled');
  });

  it('checks the ticket as the trader types', { timeout: 120_000 }, async () => {
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

  it('cancels several selected orders at once', { timeout: 120_000 }, async () => {
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

  it('sends a market order into the simulated book and shows the fill', { timeout: 120_000 }, async () => {
    await expect.poll(() => page.getByRole('button', { name: /^Ask \d+/ }).count(), { timeout: WAIT }).toBeGreaterThan(0);
    await page.getByLabel('Type', { exact: true }).selectOption('MARKET');
    await page.getByLabel('Size', { exact: true }).fill('0.001');
    await page.getByLabel('Client order id', { exact: true }).fill('e2e-market-1');
    await page.getByRole('button', { name: /^Buy/ }).click();
    await confirmIfHeld();

    const fills = rowsWith('Fills', 'e2e-market-1');
    await expect.poll(() => fills.count(), { timeout: WAIT }).toBeGreaterThan(0);
    await expect.poll(() => rowsWith('Open orders', 'e2e-market-1').count(), { timeout: WAIT }).toBe(0);
    await shot('market-order-filled');
  });

  it('pops a panel out into its own live window and takes it back', { timeout: 120_000 }, async () => {
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Pop out Trades' }).click();
    const window = await popup;
    await window.getByRole('table', { name: 'Trades BTC-VND' }).waitFor({ timeout: WAIT });
    await expect.poll(() => page.getByRole('region', { name: 'Trades BTC-VND' }).count()).toBe(0);
    // Linked to another product, it shows that product's trades.
    await window.getByLabel('Linked product').selectOption('ETH-VND');
    await window.getByRole('table', { name: 'Trades ETH-VND' }).waitFor({ timeout: WAIT });
    await window.screenshot({ path: join(SHOTS, 'popped-out-tape.png') });
    await window.getByRole('button', { name: 'Back to workspace' }).click();
    await page.getByRole('region', { name: 'Trades ETH-VND' }).waitFor({ timeout: WAIT });
  });

  it('creates a read-only API key on the venue and lists it without its secret', { timeout: 120_000 }, async () => {
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

  it('restores the trader\'s layout on the next start', { timeout: 120_000 }, async () => {
    await page.getByRole('button', { name: 'Close API keys' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'API keys' }).count()).toBe(0);
    // The layout is saved a moment after the last change.
    await new Promise((done) => setTimeout(done, 1500));
    await page.reload();
    await page.getByRole('table', { name: 'Balances' }).getByRole('row').nth(1).waitFor({ timeout: WAIT });
    await page.getByRole('region', { name: 'Trades ETH-VND' }).waitFor({ timeout: WAIT });
    expect(await page.getByRole('region', { name: 'API keys' }).count()).toBe(0);
  });

  it('marks Production in red when the trader switches to it', { timeout: 120_000 }, async () => {
    const env = page.getByRole('region', { name: 'Environments' });
    // Nothing listens there: the desk reports the connection state, which is what a trader would see.
    await env.getByLabel('Production REST URL').fill('http://127.0.0.1:9/');
    await env.getByLabel('Production WebSocket URL').fill('ws://127.0.0.1:9/ws');
    await env.getByRole('form', { name: 'Production addresses' }).getByRole('button', { name: 'Save' }).click();
    await env.getByRole('button', { name: 'Switch to Production' }).click();
    await page.getByLabel('Environment', { exact: true }).filter({ hasText: 'PRODUCTION' }).waitFor({ timeout: WAIT });
    expect(await page.locator('section.panel.production').count()).toBeGreaterThan(3);
    expect(await env.getByLabel('Confirm orders in Production').isChecked()).toBe(true);
    await shot('production');
    await env.getByRole('button', { name: 'Switch to Local' }).click();
    await page.getByLabel('Environment', { exact: true }).filter({ hasText: 'local' }).waitFor({ timeout: WAIT });
    expect(await page.locator('section.panel.production').count()).toBe(0);
  });
});
