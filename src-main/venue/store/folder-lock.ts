/**
 * One venue per data folder. Two venues on one folder would each keep their own memory of the same tables and
 * commit over each other: an acknowledged change of one lost to the other's next write. The lock is SQLite's
 * exclusive lock on a file of its own, held for the venue's life: the operating system drops it with the
 * process or thread that held it (a crash leaves nothing stale behind), on every platform SQLite runs on.
 *
 * That lock is on a file, and holds only while the file stays: deleted or replaced (someone "cleaning up a stale
 * lock"), it lets a second venue lock a new venue.lock beside a running one. So a venue also refuses a database
 * that another connection has open (claimDatabase): a lock no one can delete without deleting the data with it.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';

/** A venue worker that just ended (the desk restarts it at once) lets go within moments. */
const WAIT_MS = 2_000;

/** The folder is locked by another venue (or desk) now: not a fault of the folder. */
export class FolderInUseError extends Error {}

export interface FolderLock {
  release(): void;
}

/**
 * `holder`: what holds the folder, which names its lock file (`venue.lock`) and the errors. `waitMs`: how long to
 * wait for a holder that is letting go.
 */
export function lockDataFolder(dataDir: string, nativeBinding: string | undefined, holder: 'venue' | 'desk' = 'venue', waitMs = WAIT_MS): FolderLock {
  const file = join(dataDir, `${holder}.lock`);
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: waitMs, ...(nativeBinding === undefined ? {} : { nativeBinding }) });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db?.close();
    if ((err as { code?: unknown }).code === 'SQLITE_BUSY') throw new FolderInUseError(`another ${holder} is running on ${dataDir}: stop it first, or start this one on another folder`);
    // SQLite's own words ("attempt to write a readonly database") name neither the file nor the cause.
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`the data folder ${dataDir} cannot be locked for this ${holder} (${file}: ${reason}): the ${holder} needs to write in it`, { cause: err });
  }
  const held = db;
  return { release: () => held.close() };
}

/**
 * Refuses, with FolderInUseError, to go on if any connection has the venue's database open: every connection to a
 * WAL database holds a shared lock on the database file for as long as it is open (so that the last one to close
 * can tell it is the last), and an exclusive lock cannot be had beside it. A running venue holds its connections
 * from open to close, so however its venue.lock fared, a second venue stops here before it reads a row. So does a
 * venue starting while a tool (sqlite3, a database browser) has the database open, even only to read: SQLite's
 * locks cannot tell it from a venue, and a venue started beside another loses acknowledged orders. Called
 * with venue.lock held, before the store opens: the moment between this check and the store's own connections
 * is the only one in which a third venue could slip in, and only through a venue.lock deleted within it.
 * Any other failure (a read-only disk, a damaged file) is left for opening the store to report in its own words.
 */
export function claimDatabase(file: string, dataDir: string, nativeBinding: string | undefined): void {
  if (!existsSync(file)) return;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true, timeout: WAIT_MS, ...(nativeBinding === undefined ? {} : { nativeBinding }) });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('ROLLBACK');
  } catch (err) {
    if ((err as { code?: unknown }).code === 'SQLITE_BUSY') {
      // Both causes are named: a venue's connections hold only the shared lock any reader holds, so an idle
      // `sqlite3 venue.sqlite` looks the same here as a venue whose venue.lock was deleted, and refusing is the
      // side that loses nothing.
      throw new FolderInUseError(
        `${basename(file)} in ${dataDir} is open in another process: another venue (was venue.lock deleted?), or a tool such as sqlite3 or a database browser; close it, or start this venue on another folder`,
      );
    }
  } finally {
    try {
      db?.close();
    } catch {
      // Closing gives up the lock whatever it reports; the store's own open says what is wrong with the file.
    }
  }
}
