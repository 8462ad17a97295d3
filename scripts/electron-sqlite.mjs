// better-sqlite3 built for Electron's ABI: the one recipe for the checkout's build (scripts/native-electron.mjs,
// which `npm start` loads) and each packaged app's (electron-builder.ts, per platform and arch). Electron's
// prebuilt binary first, as better-sqlite3's own install fetches Node's, else a source build against Electron's
// headers with the node-gyp npm ships. Always in a copy of the package: node_modules keeps Node's build, which
// `npm test` and `npm run venue` load.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

/** The package's copy in a build folder (see ensureElectronBuild). */
function moduleIn(target) {
  return join(target, 'node_modules', 'better-sqlite3');
}

/**
 * Where the build in `target` puts the module: src-main/app/native-binding.ts loads it from there in a checkout,
 * electron-builder.ts ships it from there.
 */
export function builtBinary(target) {
  return join(moduleIn(target), 'build', 'Release', 'better_sqlite3.node');
}

function versionOf(name) {
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
}

/** What a build is for, written beside it: a build for another Electron or better-sqlite3 is made again. */
export function buildStamp(platform, arch) {
  return `${platform} ${arch} electron ${versionOf('electron')} better-sqlite3 ${versionOf('better-sqlite3')}`;
}

/** Whether `binary` is there and `stampFile` says it was built for `stamp`. */
export function builtFor(binary, stampFile, stamp) {
  return existsSync(binary) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
}

/**
 * Makes `target` hold better-sqlite3 built for the installed Electron on `platform`-`arch`, in
 * `target`/node_modules/better-sqlite3, unless the stamp there says it already does; otherwise `target` is emptied
 * and built again. `binary` is the built module's path, undefined when neither way worked (offline, say); `made`
 * says whether it was built now.
 */
export function ensureElectronBuild(target, platform, arch) {
  const stamp = buildStamp(platform, arch);
  const stampFile = join(target, 'stamp');
  const binary = builtBinary(target);
  if (builtFor(binary, stampFile, stamp)) return { stamp, binary, made: false };
  rmSync(target, { recursive: true, force: true });
  mkdirSync(join(target, 'node_modules'), { recursive: true });
  writeFileSync(join(target, 'package.json'), JSON.stringify({ name: 'native-electron', private: true }));
  if (!buildForElectron(target, platform, arch)) return { stamp, binary: undefined, made: false };
  writeFileSync(stampFile, stamp);
  return { stamp, binary, made: true };
}

/**
 * Copies better-sqlite3 without its build into the empty `target` and builds it there for the installed Electron on
 * `platform`-`arch`: whether that made its binary.
 */
function buildForElectron(target, platform, arch) {
  const source = dirname(require.resolve('better-sqlite3/package.json'));
  const sourceBuild = join(source, 'build');
  const moduleDir = moduleIn(target);
  cpSync(source, moduleDir, { recursive: true, filter: (path) => path !== sourceBuild && !path.startsWith(sourceBuild + sep) });

  const electron = versionOf('electron');
  const run = (args) => spawnSync(process.execPath, args, { cwd: moduleDir, stdio: 'inherit' }).status === 0;
  // Resolved from better-sqlite3, whose dependency it is: npm need not hoist it beside the app's own.
  const prebuild = join(dirname(createRequire(join(source, 'package.json')).resolve('prebuild-install/package.json')), 'bin.js');
  const nodeGyp = process.env.npm_config_node_gyp ?? join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  const built =
    run([prebuild, '--runtime', 'electron', '--target', electron, '--platform', platform, '--arch', arch]) ||
    // A source build makes a binary for this machine's OS only.
    (platform === process.platform &&
      run([nodeGyp, 'rebuild', '--release', `--target=${electron}`, `--arch=${arch}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers']));
  return built && existsSync(builtBinary(target));
}
