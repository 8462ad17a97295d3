// The app's log in the OS's log folder (app.getPath('logs')): startup, the venue's state, failures, shutdown.
// Every line passes through the desk's scrub, which removes every secret the desk has handled this session, so
// a secret quoted in an error never reaches the file (ARCHITECTURE rule 5).
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';

export const LOG_FILE = 'main.log';
export const OLD_LOG_FILE = 'main.old.log';
/**
 * A line that would take main.log past this first makes it main.old.log (replacing the one before), so logs stay
 * bounded. When it cannot (main.old.log held open on Windows, say by a log viewer), main.log keeps only its newest
 * KEPT_LOG_BYTES.
 */
export const MAX_LOG_BYTES = 5 * 1024 * 1024;
export const KEPT_LOG_BYTES = MAX_LOG_BYTES / 2;
/** A longer text (a failure quoting a whole answer, say) is cut to this many characters, saying how many went. */
export const MAX_LINE_CHARS = 64 * 1024;

export type LogLevel = 'info' | 'warn' | 'error';

export class MainLog {
  readonly file: string;
  private readonly old: string;
  private scrub: (text: string) => string = (text) => text;

  constructor(folder: string, private readonly now: () => Date = () => new Date()) {
    this.file = join(folder, LOG_FILE);
    this.old = join(folder, OLD_LOG_FILE);
    // As for a line (see write): a log folder that cannot be made costs the log, never the start: the app refused to
    // start over it.
    try {
      mkdirSync(folder, { recursive: true });
    } catch {
      return;
    }
  }

  /**
   * Checked before every line, not only at start: the desk runs for weeks, and a log set aside only at start grew
   * for as long as it ran.
   */
  private makeRoomFor(bytes: number): void {
    let size: number;
    try {
      size = statSync(this.file).size;
    } catch {
      return;
    }
    if (size + bytes > MAX_LOG_BYTES) this.setAside();
  }

  /**
   * main.log becomes main.old.log; if it cannot (an old log held open on Windows cannot be replaced), main.log keeps
   * its newest lines only, under a line saying why. Setting aside was all that bounded the log: a failed one was
   * ignored, and main.log then grew without bound for as long as the viewer stayed open.
   */
  private setAside(): void {
    try {
      renameSync(this.file, this.old);
      return;
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code ?? String(err);
      const { size, newest } = this.newestLines();
      const note = `${this.now().toISOString()} warn  ${LOG_FILE} could not become ${OLD_LOG_FILE} (${why}): kept its newest ${newest.length} bytes, dropped the ${size - newest.length} before them\n`;
      writeFileSync(this.file, Buffer.concat([Buffer.from(note), newest]));
    }
  }

  /** The log's last KEPT_LOG_BYTES at most, from the start of an entry (not a continuation line's indent). */
  private newestLines(): { size: number; newest: Buffer } {
    const fd = openSync(this.file, 'r');
    try {
      const size = fstatSync(fd).size;
      const tail = Buffer.alloc(Math.min(size, KEPT_LOG_BYTES));
      const read = readSync(fd, tail, 0, tail.length, size - tail.length);
      let start = 0;
      if (read < size) {
        start = tail.length;
        for (let at = tail.indexOf(0x0a); at !== -1 && at + 1 < read; at = tail.indexOf(0x0a, at + 1)) {
          if (tail[at + 1] !== 0x20) {
            start = at + 1;
            break;
          }
        }
      }
      return { size, newest: tail.subarray(start, read) };
    } finally {
      closeSync(fd);
    }
  }

  /** Set once the desk is open: from then on lines are scrubbed of every secret it has handled. */
  scrubWith(scrub: (text: string) => string): void {
    this.scrub = scrub;
  }

  /**
   * Synchronous, so the last lines before a crash or exit are on disk; a line is one line even if text was not.
   * A line that cannot be written (a full disk, the folder removed, a log that can neither be set aside nor cut)
   * is lost rather than thrown: the quit logs as it shuts down, after holding the quit, and a throw there left the
   * app unable to quit.
   */
  write(level: LogLevel, text: string): void {
    // Scrubbed whole before it is cut, so a cut never leaves part of a secret the scrub would not recognize.
    const scrubbed = this.scrub(text);
    const cut = scrubbed.length > MAX_LINE_CHARS ? `${scrubbed.slice(0, MAX_LINE_CHARS)} … (${scrubbed.length - MAX_LINE_CHARS} more characters not logged)` : scrubbed;
    const entry = Buffer.from(`${this.now().toISOString()} ${level.padEnd(5)} ${cut.replace(/\r?\n/g, '\n    ')}\n`);
    try {
      this.makeRoomFor(entry.length);
      appendFileSync(this.file, entry);
    } catch {
      return;
    }
  }

  info(text: string): void {
    this.write('info', text);
  }

  warn(text: string): void {
    this.write('warn', text);
  }

  error(text: string, err?: unknown): void {
    // inspect, not JSON.stringify, which throws on a bigint or a cycle in whatever was thrown.
    const reason = err === undefined ? '' : `: ${err instanceof Error ? (err.stack ?? err.message) : typeof err === 'string' ? err : inspect(err, { breakLength: Infinity })}`;
    this.write('error', `${text}${reason}`);
  }
}
