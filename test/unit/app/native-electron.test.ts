// scripts/native-electron.mjs, which `npm install` runs to build better-sqlite3 for Electron (`npm start`): it
// builds for the Electron binary electron's install script downloaded, and where there is none it steps aside
// without failing the install or touching anything, so `npm install` and `npm test` work without Electron.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStamp, builtBinary, builtFor, ensureElectronBuild } from '../../../scripts/electron-sqlite.mjs';
import { electronNativeBindingPath } from '../../../src-main/app/native-binding';
import { electronTarget } from '../../../scripts/electron-target.mjs';

const root = join(import.meta.dirname, '../../..');
const never = (): boolean => false;
const always = (): boolean => true;

describe("the Electron build's target", () => {
  it("is the host's where Node runs natively", () => {
    expect(electronTarget({ platform: 'linux', arch: 'x64', env: {}, underRosetta: never })).toEqual({ platform: 'linux', arch: 'x64' });
    expect(electronTarget({ platform: 'darwin', arch: 'arm64', env: {}, underRosetta: always })).toEqual({ platform: 'darwin', arch: 'arm64' });
    expect(electronTarget({ platform: 'darwin', arch: 'x64', env: {}, underRosetta: never })).toEqual({ platform: 'darwin', arch: 'x64' });
    expect(electronTarget({ platform: 'win32', arch: 'x64', env: {}, underRosetta: always })).toEqual({ platform: 'win32', arch: 'x64' });
  });

  it('is arm64 for an Intel Node under Rosetta, as electron downloads the arm64 binary there', () => {
    expect(electronTarget({ platform: 'darwin', arch: 'x64', env: {}, underRosetta: always })).toEqual({ platform: 'darwin', arch: 'arm64' });
  });

  it('follows npm_config_arch and npm_config_platform, as electron does', () => {
    expect(electronTarget({ platform: 'darwin', arch: 'x64', env: { npm_config_arch: 'x64' }, underRosetta: always })).toEqual({ platform: 'darwin', arch: 'x64' });
    expect(electronTarget({ platform: 'linux', arch: 'x64', env: { npm_config_arch: 'arm64' }, underRosetta: never })).toEqual({ platform: 'linux', arch: 'arm64' });
    expect(electronTarget({ platform: 'linux', arch: 'x64', env: { npm_config_platform: 'win32' }, underRosetta: never })).toEqual({ platform: 'win32', arch: 'x64' });
  });
});

describe('the install step without an Electron binary', () => {
  const empty = mkdtempSync(join(tmpdir(), 'nova-no-electron-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it('says why it skips, succeeds, and leaves .native alone', () => {
    const before = existsSync(join(root, '.native', 'electron'));
    // electron's index.js then points into an empty folder: no binary, whatever this machine has installed.
    const run = spawnSync(process.execPath, [join(root, 'scripts/native-electron.mjs')], {
      cwd: root,
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('no Electron binary installed (ELECTRON_SKIP_BINARY_DOWNLOAD is set)');
    expect(existsSync(join(root, '.native', 'electron'))).toBe(before);
  });
});

describe('a build made earlier', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nova-native-stamp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const version = (name: string): string =>
    (JSON.parse(readFileSync(createRequire(join(root, 'package.json')).resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;

  it('is used again only for the same target, Electron and better-sqlite3, and only with its binary there', () => {
    const stamp = buildStamp('linux', 'x64');
    expect(stamp).toBe(`linux x64 electron ${version('electron')} better-sqlite3 ${version('better-sqlite3')}`);
    const binary = builtBinary(dir);
    expect(binary).toBe(join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'));
    const stampFile = join(dir, 'stamp');
    writeFileSync(stampFile, stamp);
    expect(builtFor(binary, stampFile, stamp)).toBe(false);
    mkdirSync(join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
    writeFileSync(binary, '');
    expect(builtFor(binary, stampFile, stamp)).toBe(true);
    expect(builtFor(binary, stampFile, buildStamp('linux', 'arm64'))).toBe(false);
    // Up to date: kept as it is, nothing fetched or built.
    expect(ensureElectronBuild(dir, 'linux', 'x64')).toEqual({ stamp, binary, made: false });
    expect(readFileSync(binary, 'utf8')).toBe('');
  });

  it("is made where the app run from the checkout loads it (src-main/app/native-binding.ts)", () => {
    expect(builtBinary(join(root, '.native', 'electron'))).toBe(electronNativeBindingPath({ isPackaged: false, appPath: root, resourcesPath: '' }));
  });
});
