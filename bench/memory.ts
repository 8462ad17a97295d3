/**
 * Memory: the resident set of the desk's process in browser mode (the desk on the main thread, the embedded
 * venue and its simulated market in a worker thread of the same process: src-main/desk/embedded-venue.ts) with
 * 100,000 orders resting on the local venue's book, against the same process started on an empty folder. The
 * resting orders come from a data folder built by bench/history.ts, restored at start-up. No browser window is
 * connected to either. RSS is sampled from /proc after the desk is ready and has settled; the peak is the
 * kernel's high-water mark for the process.
 *
 *   npx tsx bench/memory.ts [orders] [resting]
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { ensureRenderer, startDesk } from './desk-process';
import { historyFolder } from './history';

export interface MemorySample {
  /** Median of the samples, MB (10^6 bytes). */
  rssMB: number;
  peakMB: number;
  /** Orders on the local venue's BTC-VND book (both sides, 1,000 levels deep) when sampled. */
  resting: number;
}

export interface MemoryResult {
  idle: MemorySample;
  loaded: MemorySample;
}

const SAMPLES = 8;

function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? Number.NaN);
}

/** Orders resting on the BTC-VND book, from the venue's public order book (every level of both sides). */
async function restingOnBook(venueDir: string): Promise<number> {
  const { base_url: baseUrl } = JSON.parse(readFileSync(join(venueDir, 'bootstrap.json'), 'utf8')) as { base_url: string };
  const response = await fetch(`${baseUrl}/products/BTC-VND/orderbook?depth=1000`);
  const { orderbook } = (await response.json()) as { orderbook: { bids: { order_count: number }[]; asks: { order_count: number }[] } };
  return [...orderbook.bids, ...orderbook.asks].reduce((n, level) => n + level.order_count, 0);
}

async function measure(dataDir: string, settleMs: number): Promise<MemorySample> {
  const desk = await startDesk(dataDir);
  try {
    await sleep(settleMs);
    const rss: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      rss.push(statusKiB(desk.pid, 'VmRSS'));
      await sleep(125);
    }
    rss.sort((a, b) => a - b);
    return {
      rssMB: ((rss[Math.floor(rss.length / 2)] ?? Number.NaN) * 1024) / 1e6,
      peakMB: (statusKiB(desk.pid, 'VmHWM') * 1024) / 1e6,
      resting: await restingOnBook(join(dataDir, 'local-venue')),
    };
  } finally {
    await desk.stop();
  }
}

/** `settleMs`: how long after the ready line sampling starts. */
export async function benchMemory(opts: { orders: number; resting: number; settleMs: number }): Promise<MemoryResult> {
  ensureRenderer();
  const idleDir = mkdtempSync(join(tmpdir(), 'nova-bench-memory-'));
  const loadedDir = mkdtempSync(join(tmpdir(), 'nova-bench-memory-'));
  try {
    const idle = await measure(idleDir, opts.settleMs);
    const history = await historyFolder(opts.orders, opts.resting);
    // The desk keeps its local venue's data in local-venue/ under its own folder.
    mkdirSync(join(loadedDir, 'local-venue'));
    cpSync(history.dir, join(loadedDir, 'local-venue'), { recursive: true });
    const loaded = await measure(loadedDir, opts.settleMs);
    return { idle, loaded };
  } finally {
    rmSync(idleDir, { recursive: true, force: true });
    rmSync(loadedDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchMemory({ orders: Number(process.argv[2] ?? 110_000), resting: Number(process.argv[3] ?? 100_000), settleMs: 3_000 });
  console.log(JSON.stringify(r));
}
