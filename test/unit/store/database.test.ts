import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/venue/store/database';

describe('openDatabase', () => {
  it('names the file it could not open, which SQLite’s own message does not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nova-open-'));
    try {
      // A folder where the file should be: SQLite says only "unable to open database file".
      const file = join(dir, 'venue.sqlite');
      mkdirSync(file);
      expect(() => openDatabase(file, undefined)).toThrow(`could not open ${file}: `);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
