/**
 * One desk per data folder. Two desks on one folder (two `npm run web --data X`) each keep their own copy of
 * desk.json and write it whole: a key made, an address set or a layout saved in one is undone by the other's next
 * write. The local venue's lock does not stop the second desk (a desk whose local venue cannot start still opens,
 * for Development and Production), so the desk holds a lock of its own, by the venue's means: SQLite's exclusive
 * lock, which the operating system drops with the process, so a crash leaves nothing stale behind.
 */
import { FolderInUseError, lockDataFolder, type FolderLock } from '../venue/store/folder-lock';

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
    return lockDataFolder(dataDir, nativeBinding, 'desk');
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
