/**
 * Before `npm run web` (the preweb script): build the renderer when out/renderer is missing or older than any
 * source it is built from, so a fresh clone works after `npm install` and a pulled change is never served
 * stale. A build that is up to date is left alone: the check costs milliseconds, a build seconds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const BUILT = join(ROOT, 'out/renderer/index.html');
const SOURCES = ['src-renderer', 'src-shared', 'src-preload', 'electron.vite.config.ts', 'package.json'];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const builtAt = existsSync(BUILT) ? statSync(BUILT).mtimeMs : 0;
const changedAt = Math.max(...SOURCES.map((source) => newest(join(ROOT, source))));
if (builtAt < changedAt) {
  console.error(builtAt === 0 ? 'npm run web: building the renderer (first run)…' : 'npm run web: the renderer changed; building it…');
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) {
    console.error('npm run web: the renderer did not build (see above); fix it or run npm run build to see why');
    process.exit(1);
  }
}
