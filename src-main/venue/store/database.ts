import Database from 'better-sqlite3';

/**
 * Opens the venue database as every connection to it must see it. WAL with synchronous FULL: a commit that
 * returned survives a power cut, and readers never block the writer. A failure names the file: SQLite's own
 * words ("unable to open database file", from a read-only disk) name none.
 */
export function openDatabase(file: string, nativeBinding: string | undefined): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, nativeBinding === undefined ? {} : { nativeBinding });
    const journalMode: unknown = db.pragma('journal_mode = WAL', { simple: true });
    if (journalMode !== 'wal') throw new Error(`the venue database could not use WAL journaling (got ${String(journalMode)})`);
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // 64 MiB of page cache (SQLite's default is 2 MiB): applying the journal writes into five order indexes at
    // once, and keeping their working pages cached saves reading them back from the OS row after row.
    db.pragma('cache_size = -65536');
    // A checkpoint every 10,000 WAL pages (40 MiB) instead of SQLite's 1,000: the order indexes' tail pages are
    // dirtied by every applying transaction, and a rarer checkpoint copies each of them once rather than ten times.
    // Replaying a committed-orders run into fresh tables: 19-21 -> 16-18 us an order of the writer thread.
    db.pragma('wal_autocheckpoint = 10000');
    // Balances in atoms and nanosecond timestamps exceed 2^53: every INTEGER is read as a bigint.
    db.defaultSafeIntegers(true);
    return db;
  } catch (err) {
    db?.close();
    throw new Error(`could not open ${file}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
