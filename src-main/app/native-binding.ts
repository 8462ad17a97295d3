// better-sqlite3 is built twice: for Node (tests, `npm run venue`) in node_modules, and for Electron's ABI by
// scripts/native-electron.mjs into .native/electron. Electron's main process hands the latter to the venue.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export function electronNativeBinding(appPath: string): string | undefined {
  const candidate = join(appPath, '.native', 'electron', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  return existsSync(candidate) ? candidate : undefined;
}
