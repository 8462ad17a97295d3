/**
 * One venue per data folder. Two venues on one folder would each keep their own memory of the same tables and
 * commit over each other: an acknowledged change of one lost to the other's next write. The lock is SQLite's
 * exclusive lock on a file of its own, held for the venue's life: the operating system drops it with the
 * process or thread that held it (a crash leaves nothing stale behind), on every platform SQLite runs on.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** A venue worker that just ended (the desk restarts it at once) lets go within moments. */
const WAIT_MS = 2_000;

/** The folder is locked by another venue (or desk) now: not a fault of the folder. */
export class FolderInUseError extends Error {}

export interface FolderLock {
  release(): void;
}

/** `holder`: what holds the folder, which names its lock file (`venue.lock`) and the errors. */
export function lockDataFolder(dataDir: string, nativeBinding: string | undefined, holder: 'venue' | 'desk' = 'venue'): FolderLock {
  const file = join(dataDir, `${holder}.lock`);
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: WAIT_MS, ...(nativeBinding === undefined ? {} : { nativeBinding }) });
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
