// The About box's versions, and the log in the OS's log folder with every secret the desk handled removed.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aboutBox } from '../../../src-main/app/about';
import { LOG_FILE, MainLog, MAX_LOG_BYTES } from '../../../src-main/app/main-log';
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
    // Not set aside (a folder holds its place), and still written to.
    expect(statSync(join(folder, LOG_FILE)).size).toBeGreaterThan(MAX_LOG_BYTES);
    expect(readFileSync(join(folder, LOG_FILE), 'utf8')).toMatch(/still logged\n$/);
  });
});
