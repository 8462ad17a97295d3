// npm 11's allowScripts: every dependency with an install script is decided in package.json (so npm install warns
// about none, and a future npm that refuses unreviewed scripts still runs the ones the app needs), and only the
// scripts the project needs are approved. The rest are denied, which npm skips without a word.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const read = <T>(file: string): T => JSON.parse(readFileSync(join(root, file), 'utf8')) as T;

/**
 * Why each approved script must run:
 * - better-sqlite3: fetches (or compiles) the Node build that tests, `npm run venue` and browser mode load.
 * - electron: downloads the Electron binary that `npm start` runs.
 * Denied, and why they are not needed:
 * - esbuild: its postinstall only swaps the `esbuild` CLI shim for the binary and works around --no-optional;
 *   tsx and vite use its API, which finds the binary in the @esbuild/<platform> package npm installs.
 * - electron-winstaller: picks 7-Zip for Squirrel.Windows installers; the Windows target is NSIS.
 * - es5-ext: its postinstall prints a message and does nothing else.
 */
const NEEDED = ['better-sqlite3', 'electron'];

function packagesWithInstallScripts(): string[] {
  const lock = read<{ packages: Record<string, { hasInstallScript?: boolean }> }>('package-lock.json');
  return [
    ...new Set(
      Object.entries(lock.packages)
        .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
        .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
    ),
  ].sort();
}

describe('install scripts (package.json allowScripts)', () => {
  const allow = read<{ allowScripts?: Record<string, boolean> }>('package.json').allowScripts ?? {};

  it('decides every dependency that has one, and nothing the lockfile does not hold', () => {
    expect(Object.keys(allow).sort()).toEqual(packagesWithInstallScripts());
  });

  it('approves only the scripts the project needs', () => {
    const approved = Object.entries(allow).filter(([, yes]) => yes).map(([name]) => name).sort();
    expect(approved).toEqual(NEEDED);
  });
});
