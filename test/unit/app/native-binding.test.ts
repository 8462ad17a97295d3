// better-sqlite3 for both runtimes: Node loads node_modules' build with no path given (tests, npm run venue,
// browser mode); Electron is handed its own build, from .native/electron in a checkout or resources/native in a
// packaged app, where the packaging config puts it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import config, { stagedNativeDir } from '../../../electron-builder';
import { builtBinary } from '../../../scripts/electron-sqlite.mjs';
import { electronNativeBinding, electronNativeBindingPath, NATIVE_MODULE_FILE, PACKAGED_NATIVE_DIR } from '../../../src-main/app/native-binding';

const dir = mkdtempSync(join(tmpdir(), 'nova-native-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function place(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '');
}

describe('the Node runtime', () => {
  it('opens SQLite with node_modules build, no path given (so packaging never rebuilt it for Electron)', () => {
    const db = new Database(':memory:');
    expect(db.prepare('select sqlite_version() as v').get()).toHaveProperty('v');
    db.close();
  });
});

describe('the Electron runtime', () => {
  it('takes the checkout build under .native/electron when run from the checkout', () => {
    const runtime = { isPackaged: false, appPath: join(dir, 'checkout'), resourcesPath: join(dir, 'electron', 'resources') };
    const expected = join(dir, 'checkout', '.native', 'electron', 'node_modules', 'better-sqlite3', 'build', 'Release', NATIVE_MODULE_FILE);
    expect(electronNativeBindingPath(runtime)).toBe(expected);
    expect(electronNativeBinding(runtime)).toBeUndefined();
    place(expected);
    expect(electronNativeBinding(runtime)).toBe(expected);
  });

  it('takes resources/native in a packaged app, outside the asar archive', () => {
    const resources = join(dir, 'Nova Desk', 'resources');
    const runtime = { isPackaged: true, appPath: join(resources, 'app.asar'), resourcesPath: resources };
    const expected = join(resources, PACKAGED_NATIVE_DIR, NATIVE_MODULE_FILE);
    expect(electronNativeBinding(runtime)).toBeUndefined();
    place(expected);
    expect(electronNativeBinding(runtime)).toBe(expected);
  });

  it('is where the packaging config ships it, and node_modules is never rebuilt in place', () => {
    expect(config.npmRebuild).toBe(false);
    const from = '.native/packaged-${arch}/node_modules/better-sqlite3/build/Release';
    expect(config.extraResources).toEqual([{ from, to: PACKAGED_NATIVE_DIR, filter: [NATIVE_MODULE_FILE] }]);
    // The folder the staging step builds the binary in, for every arch.
    const root = join(import.meta.dirname, '../../..');
    expect(join(root, from.replace('${arch}', 'x64'), NATIVE_MODULE_FILE)).toBe(builtBinary(stagedNativeDir('x64')));
    expect(typeof config.beforePack).toBe('function');
  });
});
