/**
 * The desk in browser mode (`npm run web`) for an end-to-end test file of its own: started on a temporary data folder
 * and stopped with its whole process group, so the folder is free when the test removes it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, expect, type Browser, type Page } from '@playwright/test';
import { SCALE, fixed } from './fixed-decimal';

const ROOT = resolve(import.meta.dirname, '../..');

/** How long a step waits for the desk or the venue to show what it did. */
export const WAIT = 20_000;

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The desk on `dir`, once it prints its address (with the one-time token). */
export function startDesk(dir: string): Promise<{ child: ChildProcess; url: string }> {
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

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the whole group, then wait until every process of it is gone, so the data folder is free. */
export async function stopDesk(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || !groupAlive(pid)) return;
  process.kill(-pid, 'SIGTERM');
  // Not expect.poll: this also runs in afterAll, outside any test.
  for (let waited = 0; groupAlive(pid); waited += 100) {
    if (waited > 30_000) throw new Error(`npm run web (group ${pid}) is still running 30 s after SIGTERM`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** A desk on a fresh folder and one page of it in Debian's Chromium, open once its balances show. */
export interface DeskInBrowser {
  desk: ChildProcess;
  dataDir: string;
  browser: Browser;
  page: Page;
}

/**
 * beforeAll's, for a file that drives one page. `name` marks the temporary folder; `watch` is given the page before
 * it loads (to listen to its console, say).
 */
export async function openDeskInBrowser(name: string, height = 1000, watch?: (page: Page) => void): Promise<DeskInBrowser> {
  const dataDir = mkdtempSync(join(tmpdir(), `nova-e2e-${name}-`));
  const started = await startDesk(dataDir);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1600, height } });
  watch?.(page);
  await page.goto(started.url);
  await page.getByRole('table', { name: 'Balances' }).getByRole('row').nth(1).waitFor({ timeout: WAIT });
  return { desk: started.child, dataDir, browser, page };
}

/** afterAll's: the browser closed, the desk's process group stopped, its folder removed. */
export async function tearDown(browser: Browser | undefined, desk: ChildProcess | undefined, dataDir: string | undefined): Promise<void> {
  await browser?.close();
  if (desk !== undefined) await stopDesk(desk);
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
}

/** A BTC-VND price 5 % under the best bid, on the product's increment: a buy there rests and does not fill. */
export async function restingBuyPrice(page: Page): Promise<string> {
  const bids = page.getByRole('button', { name: /^Bid \d/ });
  await expect.poll(() => bids.count(), { timeout: WAIT }).toBeGreaterThan(0);
  const label = (await bids.first().getAttribute('aria-label')) ?? '';
  const bid = fixed(/^Bid (\S+)/.exec(label)?.[1] ?? '') / SCALE;
  return (((bid * 95n) / 100n / 10000n) * 10000n).toString();
}

/** The ticket filled for a limit buy of 0.001 at `price`, not yet sent. */
export async function fillLimitBuy(page: Page, price: string, clientOrderId: string): Promise<void> {
  await page.getByLabel('Type', { exact: true }).selectOption('LIMIT');
  await page.getByLabel('Price', { exact: true }).fill(price);
  await page.getByLabel('Size', { exact: true }).fill('0.001');
  await page.getByLabel('Client order id', { exact: true }).fill(clientOrderId);
}

/** Local's "confirm orders" setting, once the desk has saved it (the box shows the desk's setting). */
export async function setConfirming(page: Page, on: boolean): Promise<void> {
  const confirming = page.getByRole('region', { name: 'Environments' }).getByLabel('Confirm orders in Local');
  if ((await confirming.isChecked()) !== on) await confirming.click();
  await expect.poll(() => confirming.isChecked(), { timeout: WAIT }).toBe(on);
}
