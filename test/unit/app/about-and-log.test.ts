// The About box's versions, and the log in the OS's log folder with every secret the desk handled removed.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aboutBox } from '../../../src-main/app/about';
import { LOG_FILE, MainLog, MAX_LINE_CHARS, MAX_LOG_BYTES, OLD_LOG_FILE } from '../../../src-main/app/main-log';
import { redact, REDACTED } from '../../../src-main/secrets';

describe('About', () => {
  it('lists the app, Electron, Chrome, Node and venue versions', () => {
    const box = aboutBox({
      appName: 'Nova Desk',
      appVersion: '0.1.0',
      versions: { electron: '40.10.2', chrome: '144.0.1', node: '24.1.0', v8: '14.4' },
      venueApi: 'v1',
      localVenue: { state: 'ready', baseUrl: 'http://127.0.0.1:4100', wsUrl: 'ws://127.0.0.1:4100/ws', simulate: true, detail: '' },
    });
    expect(box.message).toBe('Nova Desk 0.1.0');
    expect(box.detail?.split('\n')).toEqual([
      'Electron 40.10.2',
      'Chrome 144.0.1',
      'Node 24.1.0',
      'V8 14.4',
      'Venue API v1',
      'Local venue: ready at http://127.0.0.1:4100, simulated market',
    ]);
  });
});

describe('the main log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nova-logs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes timestamped lines with the secrets the desk handled redacted', () => {
    const log = new MainLog(join(dir, 'logs'), () => new Date('2026-01-02T03:04:05.000Z'));
    const secret = 'c2VjcmV0LWtleS1tYXRlcmlhbA==';
    log.info('starting');
    log.scrubWith((text) => redact(text, [secret]));
    log.error('venue refused', new Error(`bad signature for ${secret}\nsecond line`));
    const text = readFileSync(log.file, 'utf8');
    expect(text).not.toContain(secret);
    expect(text).toContain(`bad signature for ${REDACTED}`);
    expect(text.startsWith('2026-01-02T03:04:05.000Z info  starting\n')).toBe(true);
    // A multi-line message stays one entry: continuation lines are indented.
    expect(text).toMatch(/\n {4}second line/);
  });

  it('never throws when a line cannot be written, nor for a failure it cannot write as JSON', () => {
    // The quit logs as it shuts down, after holding the quit: a throw there left the app unable to quit.
    const folder = join(dir, 'gone');
    const log = new MainLog(folder);
    rmSync(folder, { recursive: true, force: true });
    expect(() => log.info('shutting down')).not.toThrow();
    const circular: { self?: unknown } = {};
    circular.self = circular;
    const written = new MainLog(join(dir, 'odd'));
    expect(() => written.error('shutdown: close the desk', { size: 10n })).not.toThrow();
    expect(() => written.error('shutdown: close the desk', circular)).not.toThrow();
    expect(readFileSync(written.file, 'utf8').split('\n').filter((line) => line.includes('shutdown: close the desk'))).toHaveLength(2);
  });

  it('keeps the log bounded: a large one is set aside at start', () => {
    const folder = join(dir, 'big');
    new MainLog(folder).info('first');
    writeFileSync(join(folder, LOG_FILE), Buffer.alloc(MAX_LOG_BYTES + 1, 0x41));
    const log = new MainLog(folder);
    log.info('fresh');
    expect(statSync(join(folder, 'main.old.log')).size).toBe(MAX_LOG_BYTES + 1);
    expect(readFileSync(log.file, 'utf8')).toMatch(/fresh\n$/);
  });

  it('never stops the app starting: a folder it cannot make, or a large log it cannot set aside', () => {
    const notFolder = join(dir, 'a-file');
    writeFileSync(notFolder, '');
    let log: MainLog | undefined;
    expect(() => (log = new MainLog(notFolder))).not.toThrow();
    expect(() => log?.info('starting')).not.toThrow();

    const folder = join(dir, 'held');
    mkdirSync(join(folder, 'main.old.log', 'in-the-way'), { recursive: true });
    writeFileSync(join(folder, LOG_FILE), Buffer.alloc(MAX_LOG_BYTES + 1, 0x41));
    expect(() => (log = new MainLog(folder))).not.toThrow();
    log?.info('still logged');
    // Not set aside (a folder holds its place), but still written to, and still bounded (see the test below).
    expect(statSync(join(folder, LOG_FILE)).size).toBeLessThanOrEqual(MAX_LOG_BYTES);
    expect(readFileSync(join(folder, LOG_FILE), 'utf8')).toMatch(/still logged\n$/);
  });

  it('stays bounded when a large log cannot be set aside, keeping its newest lines', () => {
    // On Windows main.old.log held open by a log viewer cannot be replaced; here a folder holds its place, so the
    // rename fails the same way. main.log grew past the bound at every start for as long as that lasted.
    const folder = join(dir, 'held-at-every-start');
    mkdirSync(join(folder, OLD_LOG_FILE, 'in-the-way'), { recursive: true });
    const entry = (n: number) => `2026-01-02T03:04:05.000Z info  line ${String(n).padStart(7, '0')}\n    its continuation\n`;
    const count = Math.ceil((MAX_LOG_BYTES + 1) / entry(0).length);
    writeFileSync(join(folder, LOG_FILE), Array.from({ length: count }, (_, n) => entry(n)).join(''));
    for (let start = 1; start <= 3; start += 1) {
      const log = new MainLog(folder, () => new Date('2026-01-03T00:00:00.000Z'));
      log.info(`start ${start}`);
      const text = readFileSync(log.file, 'utf8');
      expect(statSync(log.file).size).toBeLessThanOrEqual(MAX_LOG_BYTES);
      expect(text).toMatch(new RegExp(`start ${start}\n$`));
      // The newest lines before it are there, and the first kept is a whole entry under a line saying why.
      expect(text).toContain(entry(count - 1));
      const [note, first] = text.split('\n');
      expect(note).toMatch(/^2026-01-03T00:00:00.000Z warn {2}main\.log could not become main\.old\.log \(E\w+\): kept its newest \d+ bytes, dropped the \d+ before them$/);
      expect(first).toMatch(/^2026-01-02T03:04:05.000Z info {2}line \d{7}$/);
      // Fill it past the bound again for the next start.
      appendFileSync(log.file, entry(count - 1).repeat(Math.ceil(MAX_LOG_BYTES / entry(0).length)));
    }
    expect(statSync(join(folder, OLD_LOG_FILE, 'in-the-way')).isDirectory()).toBe(true);
  });

  it('stays bounded in a long session: a line that would pass the bound sets the log aside first', () => {
    // Set aside only at start, the log of a desk left running for weeks grew for as long as it ran.
    const folder = join(dir, 'long-session');
    const log = new MainLog(folder);
    const padding = 'x'.repeat(1000);
    const lines = Math.ceil((MAX_LOG_BYTES * 3) / 2 / padding.length);
    for (let n = 0; n < lines; n += 1) log.info(`line ${n} ${padding}`);
    expect(statSync(log.file).size).toBeLessThanOrEqual(MAX_LOG_BYTES);
    expect(statSync(join(folder, OLD_LOG_FILE)).size).toBeLessThanOrEqual(MAX_LOG_BYTES);
    const current = readFileSync(log.file, 'utf8');
    const old = readFileSync(join(folder, OLD_LOG_FILE), 'utf8');
    expect(current).toMatch(new RegExp(`line ${lines - 1} x+\n$`));
    // Nothing lost where one ends and the other begins.
    const lastOld = Number(/line (\d+) x+\n$/.exec(old)?.[1]);
    expect(current).toMatch(new RegExp(`^\\S+ info {2}line ${lastOld + 1} x+\n`));
  });

  it('cuts a line too long to log whole, after taking out the secrets in it', () => {
    const folder = join(dir, 'long-line');
    const log = new MainLog(folder);
    const secret = 'c2VjcmV0LWtleS1tYXRlcmlhbA==';
    log.scrubWith((text) => redact(text, [secret]));
    // The secret straddles the cut: cut first, its first half would be logged, which the scrub does not know.
    const answer = `${'y'.repeat(MAX_LINE_CHARS - 'the venue answered: '.length - 10)}${secret}${'y'.repeat(MAX_LOG_BYTES * 2)}`;
    log.error('the venue answered', answer);
    log.info('still logging');
    const text = readFileSync(log.file, 'utf8');
    expect(statSync(log.file).size).toBeLessThanOrEqual(MAX_LOG_BYTES);
    expect(text).not.toContain(secret.slice(0, 10));
    expect(text).toMatch(/ … \(\d+ more characters not logged\)\n/);
    expect(text).toMatch(/still logging\n$/);
  });
});
