// Builds better-sqlite3 for Electron's ABI into .native/electron, beside the Node build in node_modules that
// `npm test` and `npm run venue` use, so both runtimes work with no manual step. Runs on `npm install`.
// Where the Electron binary is not installed (CI, ELECTRON_SKIP_BINARY_DOWNLOAD) there is nothing to build for.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const target = join(root, '.native', 'electron');
const say = (line) => console.log(`native-electron: ${line}`);

function electronInstalled() {
  try {
    const binary = require('electron'); // the package's main exports the binary's path
    return typeof binary === 'string' && existsSync(binary);
  } catch {
    return false;
  }
}

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD || !electronInstalled()) {
  say('no Electron binary here; the Electron build of better-sqlite3 is skipped (Node tests need only the Node build).');
  process.exit(0);
}

const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
const sqliteDir = dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = JSON.parse(readFileSync(join(sqliteDir, 'package.json'), 'utf8')).version;
const stamp = `${electronVersion} ${sqliteVersion}`;
const stampFile = join(target, 'stamp');
if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
  say(`up to date (electron ${electronVersion}, better-sqlite3 ${sqliteVersion}).`);
  process.exit(0);
}

rmSync(target, { recursive: true, force: true });
mkdirSync(join(target, 'node_modules'), { recursive: true });
writeFileSync(join(target, 'package.json'), JSON.stringify({ name: 'native-electron', private: true, dependencies: { 'better-sqlite3': sqliteVersion } }));
cpSync(sqliteDir, join(target, 'node_modules', 'better-sqlite3'), {
  recursive: true,
  filter: (src) => !src.includes(`${join('better-sqlite3', 'build')}`),
});

// Electron's prebuilt binary first (what better-sqlite3's own install does for Node), else a source build
// against Electron's headers with the node-gyp that npm ships.
const moduleDir = join(target, 'node_modules', 'better-sqlite3');
const run = (command, args) => spawnSync(command, args, { cwd: moduleDir, stdio: 'inherit' }).status === 0;
const prebuild = join(dirname(require.resolve('prebuild-install/package.json')), 'bin.js');
const nodeGyp = process.env.npm_config_node_gyp ?? join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
const built =
  run(process.execPath, [prebuild, '--runtime', 'electron', '--target', electronVersion]) ||
  run(process.execPath, [nodeGyp, 'rebuild', '--release', `--target=${electronVersion}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers']);
if (built) {
  writeFileSync(stampFile, stamp);
  say(`built better-sqlite3 ${sqliteVersion} for electron ${electronVersion}.`);
} else {
  // Not fatal for install: tests run on Node's build. `npm start` reports the venue as failed with the reason.
  say('could not build better-sqlite3 for Electron; run `npm run rebuild:electron` once online.');
}
