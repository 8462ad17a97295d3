// A venue that cannot start on its data folder says, in one line, which folder and what stands in the way: a file
// in the folder's place, a full disk, a read-only disk. `npm run venue` exits 1 for each (the venue contract).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { listening, runVenue as runCli, type VenueRun as Run } from './venue-process';

const runVenue = (data: string, fileLimitKib?: number): Run => runCli(['--port', '0', '--data', data], fileLimitKib === undefined ? {} : { fileLimitKib });

async function refusal(run: Run): Promise<string> {
  expect(await run.exit, run.stdout).toBe(1);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  return lines[0] ?? '';
}

/** Whether this process may mount a tmpfs (root in a container that allows it): the read-only cases need one. */
function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'nova-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

describe('a venue that cannot start on its data folder', () => {
  it('says the folder is a file, when --data names one', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'nova-start-file-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const data = join(folder, 'not-a-folder');
    writeFileSync(data, '');
    expect(await refusal(runVenue(data))).toBe(`venue: the data folder ${data} is a file, not a folder`);
  });

  it('names the database file when the disk is full before its tables are made', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'nova-start-full-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const data = join(folder, 'data');
    const line = await refusal(runVenue(data, 8));
    expect(line).toMatch(new RegExp(`^venue: could not open ${join(data, 'venue.sqlite').replace(/[.\\/]/g, '\\$&')}: (database or disk is full|disk I/O error)$`));
  });

  it('names the folder when what it holds cannot be restored', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'nova-start-damaged-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const data = join(folder, 'data');
    const first = runVenue(data);
    await listening(first);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    const db = new Database(join(data, 'venue.sqlite'));
    db.prepare("UPDATE meta SET value = 'garbage' WHERE key = 'starting-balances'").run();
    db.close();
    expect(await refusal(runVenue(data))).toMatch(`venue: the data folder ${data} could not be opened: `);
  });

  it.runIf(canMount())('says the disk is read-only, for a new folder and for a used one', async () => {
    const mount = mkdtempSync(join(tmpdir(), 'nova-start-ro-'));
    onTestFinished(() => rmSync(mount, { recursive: true, force: true }));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=20m', 'tmpfs', mount]);
    onTestFinished(() => {
      execFileSync('umount', [mount]);
    });
    const used = join(mount, 'used');
    mkdirSync(used);
    const first = runVenue(used);
    await listening(first);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    execFileSync('mount', ['-o', 'remount,ro', mount]);

    expect(await refusal(runVenue(used))).toMatch(`venue: the data folder ${used} cannot be written: it is on a read-only file system`);
    const fresh = join(mount, 'a', 'new');
    expect(await refusal(runVenue(fresh))).toBe(`venue: the data folder ${fresh} cannot be made: ${mount} is on a read-only file system`);
  });
});
