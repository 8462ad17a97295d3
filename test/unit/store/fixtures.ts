// Temporary databases for the store tests, and their rows: every test gets a fresh folder with real SQLite files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import { openStore, type ChangeSet, type VenueStore } from '../../../src-main/venue/store';
import { captureChangeSet } from '../../../src-main/venue/store/change-set';
import { MergedChanges } from '../../../src-main/venue/store/merged-changes';
import { journalFolder, readJournal, type JournalRecord } from '../../../src-main/venue/store/journal-file';

export { apiKey, balance, order, trade, user } from './sample-rows';

const cleanups: (() => void)[] = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A fresh folder, removed after the test together with every store opened through `open`. */
export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-store-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Opens a store that is closed after the test if the test did not close it. */
export function open(file: string, options?: Parameters<typeof openStore>[1]): VenueStore {
  const store = openStore(file, options);
  cleanups.push(() => store.close());
  return store;
}

/** The journal records on disk, oldest first, as a second process would read them (nothing is repaired). */
export function journalRecords(file: string): JournalRecord[] {
  return readJournal(journalFolder(file), { repair: false });
}

/** The journal records on disk that the tables do not hold yet. */
export function pendingJournal(file: string): JournalRecord[] {
  const db = new Database(file, { readonly: true });
  try {
    const position = Number(db.prepare('SELECT through FROM journal_position').pluck().get());
    return readJournal(journalFolder(file), { repair: false, after: position });
  } finally {
    db.close();
  }
}

/** A journal record's text for these changes, as the store writes it. */
export function journalText(changes: ChangeSet): string {
  const merged = new MergedChanges();
  merged.addSet(captureChangeSet(changes));
  return merged.toJournalText();
}
