// The desk's lock on its data folder under Electron, whose main thread loads only Electron's build of SQLite: a
// build that does not load must not keep the app from opening (its local venue says what is wrong, with the
// remedy), while another desk on the folder is still refused.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockDeskFolder } from '../../../src-main/desk/desk-lock';

const dir = mkdtempSync(join(tmpdir(), 'nova-desk-lock-'));
/** A build that loads here, given as the app gives Electron's. */
const nodeBuild = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the desk's folder lock", () => {
  it('under Electron, opens unlocked when the SQLite build given does not load', () => {
    const broken = join(dir, 'stale.node');
    writeFileSync(broken, 'not a native module');
    expect(lockDeskFolder(dir, broken, true)).toBeUndefined();
    // Under Node the same fault is the desk's to report.
    expect(() => lockDeskFolder(dir, broken, false)).toThrow(/cannot be locked for this desk .*desk\.lock/);
  });

  it('under Electron, still says a folder it cannot write in, with a build that loads', () => {
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, '');
    expect(() => lockDeskFolder(file, nodeBuild, true)).toThrow(/cannot be locked for this desk/);
  });

  it('under Electron, still refuses a folder another desk holds', () => {
    const held = lockDeskFolder(dir, undefined, false);
    try {
      expect(() => lockDeskFolder(dir, undefined, true)).not.toThrow(); // no build given: not taken at all
      expect(() => lockDeskFolder(dir, undefined, false)).toThrow(/another Nova Desk is using the data folder/);
      expect(() => lockDeskFolder(dir, nodeBuild, true)).toThrow(/another Nova Desk is using the data folder/);
      // Its own lock file: the desk's folder is not a venue's.
      expect(existsSync(join(dir, 'desk.lock'))).toBe(true);
      expect(existsSync(join(dir, 'venue.lock'))).toBe(false);
    } finally {
      held?.release();
    }
  });
});
