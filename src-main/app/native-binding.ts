// better-sqlite3 exists in three builds and each runtime takes its own, so none of them ever needs a manual step:
// - Node (tests, `npm run venue`, browser mode): node_modules, as npm installed it; nobody passes a path.
// - Electron from the checkout (`npm start`): .native/electron, built by scripts/native-electron.mjs on install.
// - the packaged app: resources/native, staged per platform and arch by electron-builder.ts while packaging.
// node_modules is never rebuilt for Electron, which is what keeps `npm test` on Node's ABI after `npm run dist`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const NATIVE_MODULE_FILE = 'better_sqlite3.node';
/** Under the packaged app's resources folder (extraResources in electron-builder.ts). */
export const PACKAGED_NATIVE_DIR = 'native';

export interface ElectronRuntime {
  /** app.isPackaged */
  readonly isPackaged: boolean;
  /** app.getAppPath(): the checkout in development. */
  readonly appPath: string;
  /** process.resourcesPath: beside app.asar in a packaged app. */
  readonly resourcesPath: string;
}

/** Where the Electron build of the module should be, whether or not it is there. */
export function electronNativeBindingPath(runtime: ElectronRuntime): string {
  return runtime.isPackaged
    ? join(runtime.resourcesPath, PACKAGED_NATIVE_DIR, NATIVE_MODULE_FILE)
    : join(runtime.appPath, '.native', 'electron', 'node_modules', 'better-sqlite3', 'build', 'Release', NATIVE_MODULE_FILE);
}

/**
 * The path to hand the venue under Electron, or undefined when the build is missing: the venue then loads
 * node_modules' build, fails on the ABI, and the desk shows that reason (with `npm run rebuild:electron` to fix a
 * checkout).
 */
export function electronNativeBinding(runtime: ElectronRuntime): string | undefined {
  const path = electronNativeBindingPath(runtime);
  return existsSync(path) ? path : undefined;
}
