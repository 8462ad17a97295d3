/**
 * The write-ahead journal on disk: a folder of append-only segment files beside the database, each named by the
 * seq of its first record. A record is one group commit's journal text (see merged-changes.ts). Each append is
 * one frame holding every record that arrived together, framed so that an append torn by a crash is recognised
 * as a whole:
 *
 *   u32 LE  byte length of the body
 *   u32 LE  CRC-32 of the body
 *   u64 LE  seq of the frame's first record (the others follow it, consecutive across frames and segments)
 *   body    per record: u32 LE byte length of its text, then the text (UTF-8)
 *
 * Builds before this layout framed each record alone (u32 length of the text, u32 CRC-32 of the seq's 8 bytes
 * then the text, u64 seq, the text); their segments are still read, since a folder they left may hold
 * acknowledged records the tables do not.
 *
 * An append is acknowledged only after its fdatasync, and nothing is appended after a failed one, so only the
 * last frame of the last segment can be torn: it was never acknowledged and is cut off, its bytes kept beside
 * the segment (`<segment>.torn-<offset>-<ms>`) for anyone who wants to look, the newest TORN_KEPT of them. A bad frame anywhere else (one that a
 * whole frame follows), or a last one that claims to end before the file does, is damage to acknowledged data (or
 * a newer build's layout), and opening refuses it.
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
/** A segment this large is closed and the next append starts a new one, so applied records can be deleted. */
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
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && /^\d{16}\.log$/.test(entry.name))
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ firstSeq: Number(name.slice(0, 16)), file: path.join(folder, name) }));
}

function frame(records: readonly JournalRecord[]): Buffer[] {
  const parts: Buffer[] = [Buffer.alloc(HEADER_BYTES)];
  for (const record of records) {
    const text = Buffer.from(record.text, 'utf8');
    const length = Buffer.allocUnsafe(4);
    length.writeUInt32LE(text.length, 0);
    parts.push(length, text);
  }
  let crc = 0;
  let bodyBytes = 0;
  for (const part of parts.slice(1)) {
    crc = crc32(part, crc);
    bodyBytes += part.length;
  }
  const header = parts[0] as Buffer;
  header.writeUInt32LE(bodyBytes, 0);
  header.writeUInt32LE(crc, 4);
  header.writeBigUInt64LE(BigInt(records[0]?.seq ?? 0), 8);
  return parts;
}

/** The whole frame at `at`, if one is there: its records (at least one), and where the next frame starts. */
function frameAt(bytes: Buffer, at: number): { records: JournalRecord[]; end: number } | undefined {
  if (at + HEADER_BYTES > bytes.length) return undefined;
  const bodyBytes = bytes.readUInt32LE(at);
  const end = at + HEADER_BYTES + bodyBytes;
  // An empty body is not a frame (zeros a crash left would pass its checksum).
  if (bodyBytes === 0 || end > bytes.length) return undefined;
  const body = bytes.subarray(at + HEADER_BYTES, end);
  if (crc32(body) !== bytes.readUInt32LE(at + 4)) return undefined;
  const records: JournalRecord[] = [];
  let seq = Number(bytes.readBigUInt64LE(at + 8));
  for (let i = 0; i < body.length; ) {
    if (i + 4 > body.length) return undefined;
    const textEnd = i + 4 + body.readUInt32LE(i);
    if (textEnd > body.length) return undefined;
    records.push({ seq: seq++, text: body.subarray(i + 4, textEnd).toString('utf8') });
    i = textEnd;
  }
  return { records, end };
}

/** A frame of the layout before one frame per append: a single record, its seq inside the checksum. */
function recordFrameAt(bytes: Buffer, at: number): { records: JournalRecord[]; end: number } | undefined {
  if (at + HEADER_BYTES > bytes.length) return undefined;
  const end = at + HEADER_BYTES + bytes.readUInt32LE(at);
  if (end === at + HEADER_BYTES || end > bytes.length) return undefined;
  const text = bytes.subarray(at + HEADER_BYTES, end);
  if (crc32(text, crc32(bytes.subarray(at + 8, at + HEADER_BYTES))) !== bytes.readUInt32LE(at + 4)) return undefined;
  return { records: [{ seq: Number(bytes.readBigUInt64LE(at + 8)), text: text.toString('utf8') }], end };
}

function anyFrameAt(bytes: Buffer, at: number): { records: JournalRecord[]; end: number } | undefined {
  return frameAt(bytes, at) ?? recordFrameAt(bytes, at);
}

/**
 * Whether the bytes from `at` to the end can be the last append, torn by a crash: a frame that ends at or past
 * the end of the file (its length was written; the rest may be missing, or zeros where a power cut lost pages),
 * one whose length was never written (zeros), or less than a header. A frame that claims to end before the end
 * of the file, with no whole frame after it, was not torn by an append: it is damage, or a layout this build does
 * not know (a newer build's), and holds records that were acknowledged.
 */
function tornAppend(bytes: Buffer, at: number): boolean {
  if (at + HEADER_BYTES > bytes.length) return true;
  const bodyBytes = bytes.readUInt32LE(at);
  return bodyBytes === 0 || at + HEADER_BYTES + bodyBytes >= bytes.length;
}

/**
 * The records of a segment's whole frames up to the first bad one, where that starts, and whether a whole later
 * frame (records after the last good one) follows it somewhere: then the bad one is damage, not a torn tail.
 */
function parseSegment(bytes: Buffer): { records: JournalRecord[]; validBytes: number; wholeFrameAfter: boolean } {
  const records: JournalRecord[] = [];
  let at = 0;
  for (let next = anyFrameAt(bytes, at); next !== undefined; next = anyFrameAt(bytes, at)) {
    records.push(...next.records);
    at = next.end;
  }
  const lastSeq = records.at(-1)?.seq ?? -1;
  let wholeFrameAfter = false;
  for (let probe = at + 1; probe < bytes.length && !wholeFrameAfter; probe += 1) {
    const later = anyFrameAt(bytes, probe);
    wholeFrameAfter = later !== undefined && (later.records[0]?.seq ?? -1) > lastSeq;
  }
  return { records, validBytes: at, wholeFrameAfter };
}

/**
 * The records with a seq above `after` (the tables hold the rest; absent: every record on disk), in seq order.
 * With `repair`, a last frame torn by a crash is cut off the file; without it, it is only left out. Anything else
 * (a bad frame in an older segment, with a whole frame after it, or that no torn append explains; records that do
 * not follow on from `after` or from each other) is damage to acknowledged data: it throws, having changed nothing
 * but a torn tail.
 * Segments whose records all lie at or below `after` are not read.
 */
export function readJournal(folder: string, options: { repair: boolean; after?: number }): JournalRecord[] {
  const after = options.after ?? 0;
  const segments = listSegments(folder);
  const records: JournalRecord[] = [];
  segments.forEach(({ firstSeq, file }, i) => {
    const next = segments[i + 1];
    if (next !== undefined && next.firstSeq - 1 <= after) return;
    const bytes = fs.readFileSync(file);
    const parsed = parseSegment(bytes);
    if (parsed.validBytes < bytes.length) {
      if (next !== undefined || parsed.wholeFrameAfter) {
        throw new Error(`the journal is damaged: ${file} is unreadable from byte ${parsed.validBytes}, and acknowledged records follow`);
      }
      if (!tornAppend(bytes, parsed.validBytes)) {
        throw new Error(
          `the journal is damaged, or was written by a newer build: ${file} is unreadable from byte ${parsed.validBytes}, ` +
            'and what follows is no append torn by a crash; open the folder with the build that wrote it, or restore it from a backup',
        );
      }
      if (options.repair) {
        // Named by when as well: a later crash can tear a segment of the same name at the same offset.
        const torn = `${file}.torn-${parsed.validBytes}-${Date.now()}`;
        fs.writeFileSync(torn, bytes.subarray(parsed.validBytes));
        syncFile(torn);
        fs.truncateSync(file, parsed.validBytes);
        syncFile(file);
        pruneTorn(folder);
      }
    }
    if (parsed.records.length > 0 && parsed.records[0]?.seq !== firstSeq) {
      throw new Error(`the journal is damaged: ${file} starts with record ${parsed.records[0]?.seq}`);
    }
    records.push(...parsed.records.filter((r) => r.seq > after));
  });
  const from = options.after === undefined ? (records[0]?.seq ?? 1) : after + 1;
  records.forEach((record, i) => {
    if (record.seq !== from + i) throw new Error(`the journal is damaged: record ${from + i} is missing (the tables hold records through ${after})`);
  });
  return records;
}

/**
 * How many torn appends a journal folder keeps. Their bytes were never acknowledged, so nothing needs them but a
 * maintainer diagnosing the last crashes; kept forever, a venue killed often (a desk's worker in a crash loop)
 * filled its folder with them.
 */
export const TORN_KEPT = 3;

const TORN_NAME = /^(\d{16})\.log\.torn-(\d+)-(\d+)$/;

/** Deletes all but the newest TORN_KEPT torn appends: by when they were cut, then by segment and offset. */
function pruneTorn(folder: string): void {
  const torn = fs
    .readdirSync(folder)
    .map((name) => ({ name, match: TORN_NAME.exec(name) }))
    .filter((t): t is { name: string; match: RegExpExecArray } => t.match !== null)
    .map(({ name, match }) => ({ name, key: [Number(match[3]), Number(match[1]), Number(match[2])] as const }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2]);
  for (const { name } of torn.slice(0, Math.max(0, torn.length - TORN_KEPT))) {
    try {
      fs.rmSync(path.join(folder, name), { force: true });
    } catch {
      // Housekeeping: one that cannot go now goes at a later repair.
    }
  }
}

/**
 * Deletes every segment: the caller has made sure the tables durably hold all of them. Housekeeping, like
 * retiring: one that cannot be deleted stays, and the next open skips its records.
 */
export function deleteJournal(folder: string): void {
  for (const { file } of listSegments(folder)) {
    try {
      fs.rmSync(file, { force: true });
    } catch {
      continue;
    }
  }
}

/**
 * Refuses a journal folder that cannot take a segment, at open rather than at the first order, whose answer
 * would be a 500 and the venue's halt (and a supervisor's restart, the same again).
 */
export function checkWritable(folder: string): void {
  const probe = path.join(folder, '.writable');
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`the journal folder ${folder} cannot be written (${reason}): the venue could not make an order durable`, { cause: err });
  }
}

/**
 * Appends to the journal folder, each call one frame with one writev and one fdatasync: once append() returns,
 * the records survive a power cut. Used by the journal thread alone (journal-thread.ts).
 */
export class JournalAppender {
  private fd: number | undefined;
  private bytes = 0;
  /** The segments not yet deleted, oldest first; the last is the one being written. */
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
    const parts = frame(records);
    let length = 0;
    for (const part of parts) length += part.length;
    let written = 0;
    try {
      // writev may write less than asked (a signal, a full disk): carry on from where it stopped.
      while (written < length) written += fs.writevSync(fd, sliceFrom(parts, written));
      fs.fdatasyncSync(fd);
    } catch (err) {
      // Nobody is told these records are durable, so a restart must not find them whole either.
      try {
        fs.ftruncateSync(fd, this.bytes);
      } catch {
        // A torn frame is cut off on open; a whole one stays unacknowledged (the journal refuses all later work).
      }
      throw err;
    }
    this.bytes += length;
  }

  /**
   * Deletes the closed segments whose every record is at or below `through`. Housekeeping: a segment that cannot
   * be deleted now (a virus scanner holding it) stays listed and is tried again next time; open skips it.
   */
  retire(through: number): void {
    const kept = this.segments.filter((segment, i) => {
      const next = this.segments[i + 1];
      if (next === undefined || next.firstSeq - 1 > through) return true;
      try {
        fs.rmSync(segment.file, { force: true });
        return false;
      } catch {
        return true;
      }
    });
    this.segments.splice(0, this.segments.length, ...kept);
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
    syncFolder(this.folder);
  }
}

function sliceFrom(buffers: readonly Buffer[], offset: number): Buffer[] {
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
  // Windows flushes only a handle opened for writing.
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** A folder's entries made durable. Windows cannot open a folder to flush it, and NTFS journals its entries. */
export function syncFolder(folder: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(folder, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
