// Builds better-sqlite3 for Electron's ABI into .native/electron, beside the Node build in node_modules that
// `npm test` and `npm run venue` use, so both runtimes work with no manual step. Runs on `npm install`, after
// electron's own install script, and as `npm run rebuild:electron`. It builds for the Electron binary that is
// installed (its platform and arch, see electron-target.mjs); where none is (CI, ELECTRON_SKIP_BINARY_DOWNLOAD)
// there is nothing to build for. It never fails the install: the tests need only the Node build.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureElectronBuild } from './electron-sqlite.mjs';
import { electronTarget, underRosetta } from './electron-target.mjs';

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

// The binary, not ELECTRON_SKIP_BINARY_DOWNLOAD, decides: one installed earlier still needs its build.
if (!electronInstalled()) {
  const why = process.env.ELECTRON_SKIP_BINARY_DOWNLOAD ? ' (ELECTRON_SKIP_BINARY_DOWNLOAD is set)' : '';
  say(`no Electron binary installed${why}; the Electron build of better-sqlite3 is skipped (Node tests need only the Node build).`);
  process.exit(0);
}

const { platform, arch } = electronTarget({ platform: process.platform, arch: process.arch, env: process.env, underRosetta });
// Its binary is what src-main/app/native-binding.ts loads.
const { stamp, binary, made } = ensureElectronBuild(target, platform, arch);
if (binary === undefined) {
  // Not fatal for install: tests run on Node's build. `npm start` reports the venue as failed with the reason.
  say('could not build better-sqlite3 for Electron; run `npm run rebuild:electron` once online.');
} else {
  say(made ? `built ${stamp}.` : `up to date (${stamp}).`);
}
