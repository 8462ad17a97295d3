// Temporary databases for the store tests, and their rows: every test gets a fresh folder with real SQLite files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openStore, type VenueStore } from '../../../src-main/venue/store';

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
