// The app's log in the OS's log folder (app.getPath('logs')): startup, the venue's state, failures, shutdown.
// Every line passes through the desk's scrub, which removes every secret the desk has handled this session, so
// a secret quoted in an error never reaches the file (ARCHITECTURE rule 5).
import { appendFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';

export const LOG_FILE = 'main.log';
/** At start, a log larger than this becomes main.old.log (replacing the one before), so logs stay bounded. */
export const MAX_LOG_BYTES = 5 * 1024 * 1024;

export type LogLevel = 'info' | 'warn' | 'error';

export class MainLog {
  readonly file: string;
  private scrub: (text: string) => string = (text) => text;

  constructor(folder: string, private readonly now: () => Date = () => new Date()) {
    this.file = join(folder, LOG_FILE);
    // As for a line (see write): a log folder that cannot be made, or an old log that cannot be set aside (held
    // open on Windows), costs the log, never the start: the app refused to start over it.
    try {
      mkdirSync(folder, { recursive: true });
      if (existsSync(this.file) && statSync(this.file).size > MAX_LOG_BYTES) renameSync(this.file, join(folder, 'main.old.log'));
    } catch {
      return;
    }
  }

  /** Set once the desk is open: from then on lines are scrubbed of every secret it has handled. */
  scrubWith(scrub: (text: string) => string): void {
    this.scrub = scrub;
  }

  /**
   * Synchronous, so the last lines before a crash or exit are on disk; a line is one line even if text was not.
   * A line that cannot be written (a full disk, the folder removed) is lost rather than thrown: the quit logs as
   * it shuts down, after holding the quit, and a throw there left the app unable to quit.
   */
  write(level: LogLevel, text: string): void {
    const line = this.scrub(text).replace(/\r?\n/g, '\n    ');
    try {
      appendFileSync(this.file, `${this.now().toISOString()} ${level.padEnd(5)} ${line}\n`);
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
