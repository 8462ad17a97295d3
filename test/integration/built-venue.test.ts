// The venue as the packaged app runs it: electron-vite's build of the venue worker and of the store's journal and
// writer threads, started under plain Node (the Electron binary cannot run here). A thread script that the build
// puts where the worker does not look for it fails here, not only in a user's app.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerOptions, WorkerReport } from '../../src-main/venue/worker-protocol';

const ROOT = join(import.meta.dirname, '../..');
let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'nova-built-'));
  // The built main process finds its dependencies (better-sqlite3, fastify) in a node_modules above it.
  symlinkSync(join(ROOT, 'node_modules'), join(folder, 'node_modules'), 'dir');
  execFileSync(process.execPath, [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--outDir', join(folder, 'out')], {
    cwd: ROOT,
    stdio: 'pipe',
  });
}, 120_000);

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** Starts the built venue worker and returns its reports one by one. */
function startBuiltVenue(options: WorkerOptions): { worker: Worker; next(): Promise<WorkerReport> } {
  const worker = new Worker(join(folder, 'out/main/venue-worker.js'), { workerData: options });
  const reports: WorkerReport[] = [];
  const waiting: ((report: WorkerReport) => void)[] = [];
  worker.on('message', (report: WorkerReport) => {
    const take = waiting.shift();
    if (take === undefined) reports.push(report);
    else take(report);
  });
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  return {
    worker,
    next: () => Promise.race([failed, new Promise<WorkerReport>((resolve) => {
      const report = reports.shift();
      if (report === undefined) waiting.push(resolve);
      else resolve(report);
    })]),
  };
}

describe('the built venue worker', () => {
  it('starts its store threads from the build, journals, trims the journal on stop and restores on restart', async () => {
    const dataDir = join(folder, 'data');
    const journal = join(dataDir, 'venue.sqlite.journal');

    const first = startBuiltVenue({ dataDir, simulate: false });
    const ready = await first.next();
    if (ready.type !== 'ready') throw new Error(`the built venue did not start: ${JSON.stringify(ready)}`);
    expect(ready.local?.api_key).toMatch(/\S/);
    // Creating the local user was the first commit: the journal thread wrote it.
    expect(readdirSync(journal).length).toBeGreaterThan(0);
    first.worker.postMessage({ type: 'stop' });
    expect(await first.next()).toEqual({ type: 'stopped' });
    // The writer thread applied everything on close, so no segment is left to read on the next start.
    expect(existsSync(journal) ? readdirSync(journal) : []).toEqual([]);

    const second = startBuiltVenue({ dataDir, simulate: false });
    const again = await second.next();
    if (again.type !== 'ready') throw new Error(`the built venue did not restart: ${JSON.stringify(again)}`);
    expect(again.local).toEqual(ready.local);
    second.worker.postMessage({ type: 'stop' });
    expect(await second.next()).toEqual({ type: 'stopped' });
  });
});
