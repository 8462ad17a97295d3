/**
 * Click to acknowledgement: in browser mode on the local venue, Buy clicked in the ticket until the order's row
 * is in Open orders, timed inside the page (from the click event's timestamp to the moment the row is in the
 * DOM), against the same page whose bridge answers orders itself (bench/click-ack/stub-bridge.ts) in the same
 * run. Every order is a limit buy 5% under the best bid, so it rests, and it is cancelled (untimed) before the
 * next (from the page, so it costs no round trip to Playwright), so Open orders stays short.
 *
 *   npx tsx bench/click-ack.ts [--quick]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { build } from 'vite';
import { startDesk, ensureRenderer } from './desk-process';
import { percentile } from './stats';

export interface ClickAckRun {
  p50ms: number;
  p95ms: number;
  samples: number;
  /** orders.place frame out of the page to its answer in (desk, venue and back), when the bridge sent one. */
  bridgeP50ms?: number;
  bridgeP95ms?: number;
  /** The desk's POST /api/v1/orders to its venue, from fetch to response. */
  restP50ms?: number;
  restP95ms?: number;
}

export interface ClickAckResult {
  venue: ClickAckRun;
  stub: ClickAckRun;
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const WAIT = 20_000;
const WARM_UP = 5;

async function stubBridgeScript(): Promise<string> {
  const built = await build({
    configFile: false,
    logLevel: 'warn',
    build: { write: false, minify: false, lib: { entry: join(import.meta.dirname, 'click-ack/stub-bridge.ts'), formats: ['iife'], name: 'novaStubBridge' } },
  });
  const output = (Array.isArray(built) ? built[0] : built) as { output: { code?: string }[] };
  const code = output.output[0]?.code;
  if (code === undefined) throw new Error('the stub bridge did not build');
  return code;
}

/**
 * Page source as text (tsx would wrap named functions in a helper the page lacks). `arm` waits for the next
 * click, then for a row in Open orders (empty until then: each order is cancelled before the next is sent), and
 * resolves `window.novaAck` to the ms between the click event's timestamp and the row's arrival in the DOM.
 * `settle` awaits that, cancels the order from its row (untimed), waits until Open orders is empty, and arms the
 * next: one round trip to Playwright an order besides the click. It also returns how long the orders.place
 * frame took from leaving the page to its answer arriving (see WIRE_SCRIPT), when there was one.
 */
const PAGE_SCRIPT = `{
  const rows = () => [...document.querySelectorAll('table[aria-label="Open orders"] tbody tr:not([aria-hidden])')];
  const arm = (wait) => {
    window.novaWire.sent = undefined;
    window.novaWire.answered = undefined;
    window.novaAck = new Promise((resolve, reject) => {
      let clickedAt;
      document.addEventListener('click', (e) => { clickedAt = e.timeStamp; }, { capture: true, once: true });
      const timer = setTimeout(() => { observer.disconnect(); reject(new Error('no row in Open orders ' + wait + ' ms after the click')); }, wait);
      const observer = new MutationObserver(() => {
        if (clickedAt === undefined || rows().length === 0) return;
        observer.disconnect();
        clearTimeout(timer);
        resolve(performance.now() - clickedAt);
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  };
  const settle = async (wait) => {
    const ms = await window.novaAck;
    const { sent, answered } = window.novaWire;
    for (const row of rows()) row.querySelector('button[aria-label^="Cancel "]')?.click();
    for (const end = performance.now() + wait; rows().length > 0; ) {
      if (performance.now() > end) throw new Error('the order was not cancelled');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    arm(wait);
    return { ms, bridgeMs: sent === undefined || answered === undefined ? null : answered - sent };
  };
  window.novaAckBench = { arm, settle };
}`;

/**
 * Put in before the page's scripts: notes when browser mode's bridge sends an orders.place frame and when the
 * desk's answer to it arrives, the part of the wait spent outside the page (desk, venue, commit, and back).
 */
const WIRE_SCRIPT = `{
  window.novaWire = { id: undefined, sent: undefined, answered: undefined };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      // Before the transport's own onmessage, so the time is taken before the page handles the answer.
      this.addEventListener('message', (e) => {
        const wire = window.novaWire;
        if (wire.answered === undefined && wire.id !== undefined && typeof e.data === 'string' && e.data.startsWith('{"type":"result","id":' + wire.id + ',')) wire.answered = performance.now();
      });
    }
    send(data) {
      if (typeof data === 'string' && data.includes('"method":"orders.place"')) {
        window.novaWire.id = JSON.parse(data).id;
        window.novaWire.sent = performance.now();
      }
      super.send(data);
    }
  };
}`;

declare global {
  interface Window {
    novaAck?: Promise<number>;
    novaWire?: { id: number | undefined; sent: number | undefined; answered: number | undefined };
    novaAckBench?: { arm(wait: number): void; settle(wait: number): Promise<{ ms: number; bridgeMs: number | null }> };
  }
}

async function openDesk(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('table', { name: 'Balances' }).getByRole('row').nth(1).waitFor({ timeout: WAIT });
}

/** A limit buy 5% under the best bid: it rests, and stays inside the desk's 10% deviation check. */
async function restingBuyPrice(page: Page): Promise<string> {
  const bid = page.getByRole('button', { name: /^Bid \d/ }).first();
  await bid.waitFor({ timeout: WAIT });
  const label = (await bid.getAttribute('aria-label')) ?? '';
  // VND prices are whole; the label may group thousands.
  const whole = /^Bid (\S+)/.exec(label)?.[1]?.split('.')[0]?.replaceAll(/\D/g, '') ?? '';
  if (whole === '' || BigInt(whole) === 0n) throw new Error(`no best bid in the ladder (${label})`);
  return (((BigInt(whole) * 95n) / 100n / 10_000n) * 10_000n).toString();
}

async function clickOrders(page: Page, count: number): Promise<ClickAckRun> {
  const price = await restingBuyPrice(page);
  await page.getByLabel('Type', { exact: true }).selectOption('LIMIT');
  await page.getByRole('button', { name: 'Choose buy side' }).click();
  await page.getByLabel('Price', { exact: true }).fill(price);
  await page.getByLabel('Size', { exact: true }).fill('0.001');
  await page.getByLabel('Post-only', { exact: true }).setChecked(false);
  await page.getByLabel('Client order id', { exact: true }).fill('');
  // The mouse goes where a trader's would, without Playwright's checks before each click.
  const box = await page.locator('form.ticket button[type="submit"]').boundingBox();
  if (box === null) throw new Error('the ticket has no submit button on screen');
  await page.evaluate(PAGE_SCRIPT);
  await page.evaluate((wait) => window.novaAckBench?.arm(wait), WAIT);
  const samples: number[] = [];
  const bridge: number[] = [];
  for (let i = 0; i < WARM_UP + count; i++) {
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const settled = await page.evaluate((wait) => window.novaAckBench?.settle(wait), WAIT);
    if (settled === undefined) throw new Error('the page lost its timer');
    if (i < WARM_UP) continue;
    samples.push(settled.ms);
    if (settled.bridgeMs !== null) bridge.push(settled.bridgeMs);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const bridgeSorted = [...bridge].sort((a, b) => a - b);
  return {
    p50ms: percentile(sorted, 50),
    p95ms: percentile(sorted, 95),
    samples: samples.length,
    ...(bridge.length === 0 ? {} : { bridgeP50ms: percentile(bridgeSorted, 50), bridgeP95ms: percentile(bridgeSorted, 95) }),
  };
}

export async function benchClickAck(opts: { orders: number }): Promise<ClickAckResult> {
  ensureRenderer();
  const stubScript = await stubBridgeScript();
  const dataDir = mkdtempSync(join(tmpdir(), 'nova-bench-click-'));
  try {
    const restTimes = join(dataDir, 'order-fetch-times.json');
    const { venue, stub } = await clickBoth(dataDir, restTimes, stubScript, opts.orders);
    // The warm-up orders are the first ones the desk sent; the stub sent none.
    const rest = (JSON.parse(readFileSync(restTimes, 'utf8')) as number[]).slice(WARM_UP).sort((a, b) => a - b);
    return { venue: { ...venue, restP50ms: percentile(rest, 50), restP95ms: percentile(rest, 95) }, stub };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Both runs against one desk; the desk writes its REST times to `restTimes` as it stops. */
async function clickBoth(dataDir: string, restTimes: string, stubScript: string, orders: number): Promise<ClickAckResult> {
  const desk = await startDesk(dataDir, { probes: [join(import.meta.dirname, 'probes/order-fetch-timing.mjs')], env: { BENCH_ORDER_FETCH_TIMES: restTimes } });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: { width: 1600, height: 1400 } });
    const errors: string[] = [];
    await context.addInitScript({ content: WIRE_SCRIPT });
    const real = await context.newPage();
    real.on('pageerror', (err) => errors.push(err.message));
    await openDesk(real, desk.url);
    const venue = await clickOrders(real, orders);
    await real.close();
    // The same page, let in by the session cookie the first one got, with the stub bridge put in place first.
    const stubbed = await context.newPage();
    stubbed.on('pageerror', (err) => errors.push(err.message));
    await stubbed.addInitScript({ content: stubScript });
    await openDesk(stubbed, new URL(desk.url).origin + '/');
    const stub = await clickOrders(stubbed, orders);
    if (errors.length > 0) throw new Error(`the desk page failed: ${errors.join('; ')}`);
    return { venue, stub };
  } finally {
    await browser?.close();
    await desk.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchClickAck({ orders: process.argv.includes('--quick') ? 50 : 200 });
  console.log(`click to acknowledgement over ${r.venue.samples}: local venue p50 ${r.venue.p50ms.toFixed(1)} ms p95 ${r.venue.p95ms.toFixed(1)} ms (bridge round trip p50 ${r.venue.bridgeP50ms?.toFixed(1)} p95 ${r.venue.bridgeP95ms?.toFixed(1)}, desk to venue REST p50 ${r.venue.restP50ms?.toFixed(1)} p95 ${r.venue.restP95ms?.toFixed(1)}); stub bridge p50 ${r.stub.p50ms.toFixed(1)} ms p95 ${r.stub.p95ms.toFixed(1)} ms`);
}
