/**
 * The write-ahead journal on disk: a folder of append-only segment files beside the database, each named by the
 * seq of its first record. A record is one group commit's journal text (see merged-changes.ts), framed so that a
 * write torn by a crash is recognised:
 *
 *   u32 LE  byte length of the text
 *   u32 LE  CRC-32 of the seq's 8 bytes followed by the text
 *   u64 LE  seq (consecutive across records and segments)
 *   ...     the text, UTF-8
 *
 * A flat file instead of a SQLite table: the text is written once, with one writev and one fdatasync for
 * everything that arrived together, and never goes through a B-tree, the WAL and a checkpoint (the table did all
 * three, then deleted it again). Segments are deleted once the tables durably hold every record in them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';

export interface JournalRecord {
  seq: number;
  text: string;
}

const HEADER_BYTES = 16;
const SEGMENT_SUFFIX = '.log';
/** A segment this large is closed and the next record starts a new one, so applied records can be deleted. */
export const DEFAULT_SEGMENT_BYTES = 16 * 1024 * 1024;

/** The journal folder of a database file. */
export function journalFolder(databaseFile: string): string {
  return `${databaseFile}.journal`;
}

function segmentName(firstSeq: number): string {
  return `${String(firstSeq).padStart(16, '0')}${SEGMENT_SUFFIX}`;
}

/** The folder's segments, oldest first, with the seq of each one's first record. */
function listSegments(folder: string): { firstSeq: number; file: string }[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((name) => /^\d{16}\.log$/.test(name))
    .sort()
    .map((name) => ({ firstSeq: Number(name.slice(0, 16)), file: path.join(folder, name) }));
}

function frame(record: JournalRecord): Buffer {
  const text = Buffer.from(record.text, 'utf8');
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32LE(text.length, 0);
  header.writeBigUInt64LE(BigInt(record.seq), 8);
  header.writeUInt32LE(crc32(text, crc32(header.subarray(8, 16))), 4);
  return Buffer.concat([header, text]);
}

/** Records of one segment up to the first that is incomplete or fails its checksum, and where that one starts. */
function parseSegment(bytes: Buffer): { records: JournalRecord[]; validBytes: number } {
  const records: JournalRecord[] = [];
  let at = 0;
  while (at + HEADER_BYTES <= bytes.length) {
    const length = bytes.readUInt32LE(at);
    const end = at + HEADER_BYTES + length;
    if (end > bytes.length) break;
    const text = bytes.subarray(at + HEADER_BYTES, end);
    if (crc32(text, crc32(bytes.subarray(at + 8, at + 16))) !== bytes.readUInt32LE(at + 4)) break;
    records.push({ seq: Number(bytes.readBigUInt64LE(at + 8)), text: text.toString('utf8') });
    at = end;
  }
  return { records, validBytes: at };
}

/**
 * Every record in the folder, in seq order. The last segment may end in a record torn by a crash: it was never
 * acknowledged (acknowledgement waits for the fdatasync of the whole write), so with `repair` the file is cut
 * back to the last whole record, and without it the record is left out. Anything else (a bad record inside an
 * older segment, seqs that skip or repeat) is damage to acknowledged data: it throws, changing nothing.
 */
export function readJournal(folder: string, options: { repair: boolean }): JournalRecord[] {
  const segments = listSegments(folder);
  const records: JournalRecord[] = [];
  segments.forEach(({ firstSeq, file }, i) => {
    const bytes = fs.readFileSync(file);
    const parsed = parseSegment(bytes);
    const last = i === segments.length - 1;
    if (parsed.validBytes < bytes.length) {
      if (!last) throw new Error(`the journal is damaged: ${file} is unreadable from byte ${parsed.validBytes}, and later segments follow it`);
      if (options.repair) {
        fs.truncateSync(file, parsed.validBytes);
        syncFile(file);
      }
    }
    let expected = firstSeq;
    for (const record of parsed.records) {
      if (record.seq !== expected) throw new Error(`the journal is damaged: ${file} holds record ${record.seq} where ${expected} belongs`);
      expected += 1;
    }
    const previous = records.at(-1);
    if (previous !== undefined && parsed.records.length > 0 && firstSeq !== previous.seq + 1) {
      throw new Error(`the journal is damaged: ${file} starts at record ${firstSeq}, after record ${previous.seq}`);
    }
    records.push(...parsed.records);
  });
  return records;
}

/** Deletes every segment: the caller has made sure the tables durably hold all of them. */
export function deleteJournal(folder: string): void {
  for (const { file } of listSegments(folder)) fs.rmSync(file, { force: true });
}

/**
 * Appends records to the journal folder, each call one writev and one fdatasync: once append() returns, the
 * records survive a power cut. Used by the journal thread alone (journal-thread.ts).
 */
export class JournalAppender {
  private fd: number | undefined;
  private bytes = 0;
  /** The segments written by this appender and not yet deleted, oldest first; the last is being written. */
  private readonly segments: { firstSeq: number; file: string }[] = [];

  constructor(
    private readonly folder: string,
    private readonly segmentBytes: number = DEFAULT_SEGMENT_BYTES,
  ) {
    fs.mkdirSync(folder, { recursive: true });
    this.segments.push(...listSegments(folder));
  }

  append(records: readonly JournalRecord[]): void {
    const first = records[0];
    if (first === undefined) return;
    if (this.fd === undefined || this.bytes >= this.segmentBytes) this.startSegment(first.seq);
    const fd = this.fd as number;
    const buffers = records.map(frame);
    let length = 0;
    for (const b of buffers) length += b.length;
    let written = 0;
    // writev may write less than asked (a signal, a full disk): carry on from where it stopped.
    while (written < length) {
      const rest = sliceFrom(buffers, written);
      written += fs.writevSync(fd, rest);
    }
    fs.fdatasyncSync(fd);
    this.bytes += length;
  }

  /** Deletes the closed segments whose every record is at or below `through`. */
  retire(through: number): void {
    while (this.segments.length > 1) {
      const next = this.segments[1] as { firstSeq: number };
      if (next.firstSeq - 1 > through) return;
      const oldest = this.segments.shift() as { file: string };
      // Housekeeping only: a segment left behind holds records the tables already have, which open skips.
      fs.rmSync(oldest.file, { force: true });
    }
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private startSegment(firstSeq: number): void {
    this.close();
    const file = path.join(this.folder, segmentName(firstSeq));
    this.fd = fs.openSync(file, 'wx');
    this.bytes = 0;
    this.segments.push({ firstSeq, file });
    // The new file's name must survive a power cut too, not only its contents.
    syncFile(this.folder);
  }
}

function sliceFrom(buffers: readonly Buffer[], offset: number): Buffer[] {
  if (offset === 0) return [...buffers];
  const rest: Buffer[] = [];
  let skip = offset;
  for (const b of buffers) {
    if (skip >= b.length) {
      skip -= b.length;
      continue;
    }
    rest.push(skip > 0 ? b.subarray(skip) : b);
    skip = 0;
  }
  return rest;
}

function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
