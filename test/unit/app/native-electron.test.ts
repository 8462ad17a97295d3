// scripts/native-electron.mjs, which `npm install` runs to build better-sqlite3 for Electron (`npm start`): it
// builds for the Electron binary electron's install script downloaded, and where there is none it steps aside
// without failing the install or touching anything, so `npm install` and `npm test` work without Electron.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
