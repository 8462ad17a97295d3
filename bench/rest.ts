/**
 * REST `POST /api/v1/orders` with `wait` true under load from another process: autocannon with many
 * connections, every request a fresh order of a seeded mix with its trader's key (bench/rest-load.ts), against a bare
 * node:http server answering a fixed JSON body, driven identically in the same run.
 *
 *   npx tsx bench/rest.ts [--quick]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RestLoadArgs, RestLoadResult } from './rest-load';
import { spawnServer } from './spawn-server';

export interface RestBenchResult {
  venue: RestLoadResult;
  bare: RestLoadResult;
  connections: number;
  seconds: number;
}

function load(args: RestLoadArgs): Promise<RestLoadResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'rest-load.ts'), JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`rest-load exited with ${code}`));
      resolve(JSON.parse(out) as RestLoadResult);
    });
  });
}

/** A short run first warms the server's JIT and, for the venue, puts a book in place; then the measured run. */
async function drive(url: string, traders: RestLoadArgs['traders'], connections: number, seconds: number): Promise<RestLoadResult> {
  await load({ url, traders, connections, seconds: 1, seed: 1 });
  return load({ url, traders, connections, seconds, seed: 2 });
}

export async function benchRest(opts: { seconds: number; connections?: number }): Promise<RestBenchResult> {
  const connections = opts.connections ?? 50;
  const bareServer = await spawnServer('http-fixed.ts');
  let bare: RestLoadResult;
  try {
    bare = await drive(bareServer.words[0] ?? '', [], connections, opts.seconds);
  } finally {
    await bareServer.stop();
  }
  const venueServer = await spawnServer('venue.ts', ['--traders', '8']);
  let venue: RestLoadResult;
  try {
    const [baseUrl = '', , , tradersFile = ''] = venueServer.words;
    const traders = JSON.parse(readFileSync(tradersFile, 'utf8')) as RestLoadArgs['traders'];
    venue = await drive(baseUrl, traders, connections, opts.seconds);
  } finally {
    await venueServer.stop();
  }
  return { venue, bare, connections, seconds: opts.seconds };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchRest({ seconds: process.argv.includes('--quick') ? 4 : 10 });
  console.log(`REST create order (wait), ${r.connections} connections, ${r.seconds} s:`);
  console.log(`  venue ${Math.round(r.venue.perSec)}/s p50 ${r.venue.p50ms} ms p99 ${r.venue.p99ms} ms (non-2xx ${r.venue.non2xx}, errors ${r.venue.errors})`);
  console.log(`  bare  ${Math.round(r.bare.perSec)}/s p50 ${r.bare.p50ms} ms p99 ${r.bare.p99ms} ms`);
  console.log(`  ratio ${(r.venue.perSec / r.bare.perSec).toFixed(2)}`);
}
