/**
 * One desk per data folder. Two desks on one folder (two `npm run web --data X`) each keep their own copy of
 * desk.json and write it whole: a key made, an address set or a layout saved in one is undone by the other's next
 * write. The local venue's lock does not stop the second desk (a desk whose local venue cannot start still opens,
 * for Development and Production), so the desk holds a lock of its own, by the venue's means: SQLite's exclusive
 * lock, which the operating system drops with the process, so a crash leaves nothing stale behind.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { FolderInUseError, lockDataFolder, type FolderLock } from '../venue/store/folder-lock';

/** How often the desk looks whether its desk.lock is still the file it locked. */
const WATCH_MS = 1_000;

/**
 * The folder's lock, or undefined where it cannot be taken. Under Electron the main thread loads only Electron's
 * build of SQLite: without one, or with one that does not load (a stale build after an Electron update), the desk
 * opens unlocked and its local venue reports the build's fault with its remedy, rather than the app not opening
 * at all (the app's single-instance lock keeps a second app off the folder meanwhile). Throws, saying so, when
 * another desk holds the folder.
 */
export function lockDeskFolder(dataDir: string, nativeBinding: string | undefined, underElectron = process.versions.electron !== undefined): FolderLock | undefined {
  if (nativeBinding === undefined && underElectron) return undefined;
  try {
    return keptInPlace(dataDir, nativeBinding, lockDataFolder(dataDir, nativeBinding, 'desk'));
  } catch (err) {
    if (err instanceof FolderInUseError) {
      throw new Error(`another Nova Desk is using the data folder ${dataDir} (its desk.json, keys and local venue): stop that desk first, or give this one another data folder`, { cause: err });
    }
    if (underElectron && buildDoesNotLoad(err)) return undefined;
    throw err;
  }
}

/** SQLite's native module could not be loaded (built for another Electron, or not there): not the folder's fault. */
function buildDoesNotLoad(err: unknown): boolean {
  const code = (err as { cause?: { code?: unknown } }).cause?.code;
  return code === 'ERR_DLOPEN_FAILED' || code === 'MODULE_NOT_FOUND';
}

/** The file's identity on disk, or undefined if there is none at that path. */
function identity(file: string): string | undefined {
  try {
    const stats = statSync(file);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * The lock is SQLite's on a file: deleted (someone "cleaning up a stale lock") or replaced, the file no longer
 * stops a second desk, which would lock a new desk.lock and write desk.json over this one's. So the desk looks now
 * and then whether the path still names the file it locked, and if not locks what is there now (making it if it is
 * gone), never waiting, so the main thread does not stall. If another desk got there first it says so, once: it
 * cannot stop that one. What remains open is the moment between a deletion and the next look.
 */
function keptInPlace(dataDir: string, nativeBinding: string | undefined, first: FolderLock): FolderLock {
  const file = join(dataDir, 'desk.lock');
  const held = [first];
  let locked = identity(file);
  const watch = setInterval(() => {
    if (identity(file) === locked) return;
    try {
      held.push(lockDataFolder(dataDir, nativeBinding, 'desk', 0));
      locked = identity(file);
    } catch (err) {
      if (!(err instanceof FolderInUseError)) return; // the folder itself gone or unwritable for now: looked at again next time
      clearInterval(watch);
      process.stderr.write(`desk: ${file} was deleted or replaced while this desk ran, and another desk holds the new one: two desks are writing ${dataDir}; stop one\n`);
    }
  }, WATCH_MS);
  watch.unref();
  return {
    release: () => {
      clearInterval(watch);
      for (const lock of held.splice(0)) lock.release();
    },
  };
}
