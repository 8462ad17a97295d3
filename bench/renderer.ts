/**
 * Renderer frame times in Debian's Chromium: the depth ladder and trades tape while the book changes 2 000
 * times a second (and 200 trades a second print), and a 100 000-row blotter dragged from top to bottom. The
 * page (bench/renderer/) runs the real store, feed, bridge and panels behind a desk that emits the contract's
 * events; the peer is one 60 Hz frame, 16.7 ms, and the same page idle shows the browser's own frame cadence.
 *
 *   npx tsx bench/renderer.ts [--quick]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import type { FrameRun, RecordOptions, Scene } from './renderer/page-api';
import { percentile } from './stats';

export interface RendererRow {
  name: string;
  p50ms: number;
  p95ms: number;
  p99ms: number;
  frames: number;
  /** 60 Hz frames that passed without one drawn. */
  dropped: number;
  /**
   * CPU time of the page's main thread per frame: the renderer's own work, which a busy machine cannot inflate
   * (frame times it can, by leaving the page waiting for a core).
   */
  mainCpuMsPerFrame: number;
  /** Book changes and trades delivered a second, and rows scrolled through, during the run. */
  load: string;
}

export const FRAME_60HZ_MS = 1000 / 60;

/**
 * Frame timestamps are vsync times give or take a few tenths of a millisecond (the idle page shows 16.6 to
 * 16.8), so a frame delta counts as one 60 Hz frame when it is nearer one vsync interval than two.
 */
export function withinOneFrame(ms: number): boolean {
  return ms < 1.5 * FRAME_60HZ_MS;
}

const ROOT = resolve(import.meta.dirname, '..');
const PAGE_DIR = join(ROOT, 'bench/results/renderer-page');
const ORIGIN = 'http://renderer-bench.localhost';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

async function buildPage(): Promise<void> {
  await build({
    configFile: false,
    root: join(ROOT, 'bench/renderer'),
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: PAGE_DIR, emptyOutDir: true },
  });
}

interface Measured {
  run: FrameRun;
  mainCpuMs: number;
}

function summarise(name: string, { run, mainCpuMs }: Measured, ms: number): RendererRow {
  const deltas = run.stamps.slice(1).map((t, i) => t - (run.stamps[i] ?? t));
  const sorted = [...deltas].sort((a, b) => a - b);
  const dropped = deltas.reduce((n, d) => n + Math.max(0, Math.round(d / FRAME_60HZ_MS) - 1), 0);
  const perSec = (n: number): number => Math.round((n * 1000) / ms);
  const load = [
    run.books > 0 ? `${perSec(run.books)} books/s` : '',
    run.trades > 0 ? `${perSec(run.trades)} trades/s` : '',
    run.rowsScrolled > 0 ? `${run.rowsScrolled.toLocaleString('en-US')} rows scrolled` : '',
  ].filter((s) => s !== '').join(', ') || 'none';
  const frames = deltas.length;
  return { name, p50ms: percentile(sorted, 50), p95ms: percentile(sorted, 95), p99ms: percentile(sorted, 99), frames, dropped, mainCpuMsPerFrame: mainCpuMs / Math.max(1, frames), load };
}

async function mainThreadCpuMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'ThreadTime')?.value ?? Number.NaN) * 1000;
}

async function measure(page: Page, cdp: CDPSession, scene: Scene, options: RecordOptions): Promise<Measured> {
  await page.goto(`${ORIGIN}/index.html?scene=${scene}`);
  await page.waitForFunction(() => window.novaBench !== undefined);
  // A second to settle: first paint, the feed's start-up calls, the JIT warming to the work.
  await page.evaluate((o) => window.novaBench?.record(o), { ...options, ms: 1000 });
  const before = await mainThreadCpuMs(cdp);
  const run = await page.evaluate((o) => window.novaBench?.record(o), options);
  const mainCpuMs = (await mainThreadCpuMs(cdp)) - before;
  if (run === undefined) throw new Error(`the bench page for ${scene} did not start`);
  return { run, mainCpuMs };
}

export async function benchRenderer(opts: { quick: boolean }): Promise<{ rows: RendererRow[] }> {
  await buildPage();
  const ms = opts.quick ? 3000 : 10_000;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const cdp = await page.context().newCDPSession(page);
    // Thread ticks: the metrics count CPU time, not wall time.
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.route(`${ORIGIN}/**`, async (route) => {
      const path = normalize(join(PAGE_DIR, new URL(route.request().url()).pathname));
      if (!path.startsWith(PAGE_DIR)) return route.fulfill({ status: 404 });
      try {
        await route.fulfill({ body: readFileSync(path), contentType: TYPES[extname(path)] ?? 'application/octet-stream' });
      } catch {
        await route.fulfill({ status: 404 });
      }
    });
    const still: RecordOptions = { bookRate: 0, tradeRate: 0, scroll: 'none', ms };
    const rows = [
      summarise('Idle page, ladder + tape shown (browser cadence)', await measure(page, cdp, 'ladder-tape', still), ms),
      summarise('Ladder + tape, book 2,000/s, trades 200/s', await measure(page, cdp, 'ladder-tape', { ...still, bookRate: 2000, tradeRate: 200 }), ms),
      summarise('Order history, 100,000 rows, wheel 4,000 px/s', await measure(page, cdp, 'order-history', { ...still, scroll: 'wheel' }), ms),
      summarise('Fills, 100,000 rows, wheel 4,000 px/s', await measure(page, cdp, 'fills', { ...still, scroll: 'wheel' }), ms),
      summarise('Order history, 100,000 rows, scrollbar dragged top to bottom', await measure(page, cdp, 'order-history', { ...still, scroll: 'drag' }), ms),
      summarise('Fills, 100,000 rows, scrollbar dragged top to bottom', await measure(page, cdp, 'fills', { ...still, scroll: 'drag' }), ms),
    ];
    if (errors.length > 0) throw new Error(`the bench page failed: ${errors.join('; ')}`);
    return { rows };
  } finally {
    await browser.close();
  }
}

export function printRendererTable(rows: readonly RendererRow[]): void {
  const table = rows.map((r) => ({
    run: r.name,
    'p50 ms': r.p50ms.toFixed(1),
    'p95 ms': r.p95ms.toFixed(1),
    'p99 ms': r.p99ms.toFixed(1),
    frames: r.frames,
    dropped: r.dropped,
    'main CPU ms/frame': r.mainCpuMsPerFrame.toFixed(1),
    load: r.load,
    'p95 one 60 Hz frame': withinOneFrame(r.p95ms) ? 'yes' : 'NO',
  }));
  console.table(table);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { rows } = await benchRenderer({ quick: process.argv.includes('--quick') });
  printRendererTable(rows);
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on this machine's cores`);
}
