// The bytes of a torn last append, cut off at open and kept beside their segment for a maintainer to look at, must
// not pile up in the journal folder crash after crash: the newest few are kept, older ones go.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalAppender, TORN_KEPT, readJournal } from '../../../src-main/venue/store/journal-file';
import { tempDir } from './fixtures';

/** A frame header claiming a body far longer than what follows: an append a crash cut short. */
function tornTail(mark: number): Buffer {
  const bytes = Buffer.alloc(24, mark);
  bytes.writeUInt32LE(4_096, 0);
  return bytes;
}

describe('the torn appends a journal folder keeps', () => {
  it(`are the newest ${TORN_KEPT}, however many crashes tore one`, () => {
    const folder = path.join(tempDir(), 'venue.sqlite.journal');
    const crashes = TORN_KEPT + 4;
    for (let seq = 1; seq <= crashes; seq++) {
      // Each run appends a whole record to a new segment, then is killed in the middle of its next append.
      const appender = new JournalAppender(folder);
      appender.append([{ seq, text: `record ${seq}` }]);
      appender.close();
      const segment = path.join(folder, `${String(seq).padStart(16, '0')}.log`);
      fs.appendFileSync(segment, tornTail(seq));
      // The next start cuts the torn tail off and keeps its bytes.
      expect(readJournal(folder, { repair: true }).map((r) => r.seq)).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
    }
    const torn = fs.readdirSync(folder).filter((name) => name.includes('.torn-')).sort();
    expect(torn).toHaveLength(TORN_KEPT);
    // The newest ones, whole: a maintainer diagnosing the last crashes has their bytes.
    const newest = Array.from({ length: TORN_KEPT }, (_, i) => crashes - TORN_KEPT + 1 + i);
    expect(torn.map((name) => Number(name.slice(0, 16)))).toEqual(newest);
    for (const [i, name] of torn.entries()) expect(fs.readFileSync(path.join(folder, name))).toEqual(tornTail(newest[i] ?? 0));
  });
});
