/**
 * Restart to ready: the venue started on a data folder with a long history (bench/history.ts), timed from
 * startVenue() to listening (open, restore of the resting orders, listen) and from the process's start, against
 * reading the same rows, the open orders, with one SELECT in a fresh process of its own. Each is run a few times,
 * alternately, on a fresh copy of the folder, and the median kept.
 *
 *   npx tsx bench/restart.ts [orders] [resting]
 */
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { copyHistory, historyFolder } from './history';
import { spawnServer } from './spawn-server';
import { median } from './stats';

export interface RestartResult {
  orders: number;
  resting: number;
  /** startVenue() to listening, ms (median). */
  readyMs: number;
  /** Process start to listening, ms (median). */
  processReadyMs: number;
  /** Opening the database and one SELECT of the open orders, ms (median); likewise from the process start. */
  selectMs: number;
  processSelectMs: number;
}

async function timed(script: string, dir: string): Promise<[number, number]> {
  const server = await spawnServer(script, [dir]);
  await server.stop();
  return [Number(server.words[0]), Number(server.words[1])];
}

export async function benchRestart(opts: { orders: number; resting: number; runs: number }): Promise<RestartResult> {
  const history = await historyFolder(opts.orders, opts.resting);
  const ready: number[] = [];
  const processReady: number[] = [];
  const select: number[] = [];
  const processSelect: number[] = [];
  for (let run = 0; run < opts.runs; run++) {
    const dir = copyHistory(history);
    try {
      const [s, ps] = await timed('select-open-orders.ts', dir);
      select.push(s);
      processSelect.push(ps);
      const [r, pr] = await timed('restart-venue.ts', dir);
      ready.push(r);
      processReady.push(pr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return {
    orders: history.orders,
    resting: history.resting,
    readyMs: median(ready),
    processReadyMs: median(processReady),
    selectMs: median(select),
    processSelectMs: median(processSelect),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchRestart({ orders: Number(process.argv[2] ?? 100_000), resting: Number(process.argv[3] ?? 10_000), runs: 3 });
  console.log(JSON.stringify(r));
  console.log(`restart ${r.readyMs.toFixed(0)} ms (process ${r.processReadyMs.toFixed(0)} ms), SELECT ${r.selectMs.toFixed(0)} ms (process ${r.processSelectMs.toFixed(0)} ms), ratio ${(r.readyMs / r.selectMs).toFixed(2)}`);
}
