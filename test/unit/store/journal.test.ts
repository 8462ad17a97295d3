import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { crc32 } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import type { ChangeSet, VenueStore } from '../../../src-main/venue/store';
import { journalFolder, JournalAppender, readJournal } from '../../../src-main/venue/store/journal-file';
import { apiKey, balance, journalRecords, journalText, open, order, tempDir, trade, user, wideOrder } from './fixtures';

/** The journal is applied to the tables only when a test reads, closes or hits the bound, never on a timer. */
const NOT_ON_A_TIMER = { materializeDelayMs: 3_600_000 };

/** The tables and the journal records on disk that they do not hold yet, as a second process sees them. */
function inspector(file: string): { journalRows(): number; rows(table: string): bigint; close(): void } {
  const db = new Database(file, { readonly: true });
  db.defaultSafeIntegers(true);
  return {
    journalRows: () => {
      const position = Number(db.prepare('SELECT through FROM journal_position').pluck().get());
      return readJournal(journalFolder(file), { repair: false, after: position }).length;
    },
    rows: (table) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as bigint,
    close: () => db.close(),
  };
}

/**
 * A store whose tables hold nothing and whose journal holds three appends, as a crash would leave them: user 1,
 * then user 1's order 1, then order 2. Returns the database file, the owner and the segment files, oldest first.
 */
function journalOnly(segmentBytes?: number): { file: string; owner: ReturnType<typeof user>; segments: string[] } {
  const file = path.join(tempDir(), 'venue.db');
  open(file).close();
  const owner = user(1);
  const appender = new JournalAppender(journalFolder(file), segmentBytes);
  appender.append([{ seq: 1, text: journalText({ users: [owner] }) }]);
  appender.append([{ seq: 2, text: journalText({ orders: [order(owner, 1)] }) }]);
  appender.append([{ seq: 3, text: journalText({ orders: [order(owner, 2)] }) }]);
  appender.close();
  const segments = fs.readdirSync(journalFolder(file)).sort().map((name) => path.join(journalFolder(file), name));
  return { file, owner, segments };
}

describe('write-ahead journal', () => {
  it('acknowledges from the journal, and every read first applies it to the tables', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file, NOT_ON_A_TIMER);
    const disk = inspector(file);
    const alice = user(1);
    const bob = user(2);
    await store.commit({ users: [alice, bob] });
    store.materialize();

    // Each read, right after a commit that only the journal holds, must see that commit.
    let seq = 0;
    const unapplied = async (changes: ChangeSet): Promise<void> => {
      await store.commit(changes);
      expect(disk.journalRows()).toBe(1);
    };
    const reads: [string, () => Promise<void>][] = [
      ['orderById', async () => {
        const o = order(alice, ++seq);
        await unapplied({ orders: [o] });
        expect(store.orderById(alice.id, o.orderId)).toEqual(o);
      }],
      ['newestOrderByClientId', async () => {
        const o = order(alice, ++seq, { clientOrderId: 'mine' });
        await unapplied({ orders: [o] });
        expect(store.newestOrderByClientId(alice.id, 'MINE')).toEqual(o);
      }],
      ['archivedOrders', async () => {
        const o = order(bob, ++seq);
        await unapplied({ orders: [o] });
        expect(store.archivedOrders(bob.id, { limit: 10, sort: '-created_at' })).toEqual([o]);
      }],
      ['tradesOfOrders and recentTrades', async () => {
        const maker = order(alice, ++seq);
        const taker = order(bob, ++seq, { status: 'DONE', doneReason: 'FILLED', restingLots: 0 });
        const fill = trade(1, maker, taker);
        await unapplied({ orders: [maker, taker], trades: [fill] });
        expect(store.tradesOfOrders([taker.orderId])).toEqual([fill]);
        await unapplied({ trades: [trade(2, maker, taker)] });
        expect(store.recentTrades('BTC-VND', 10).map((t) => t.seq)).toEqual([2, 1]);
      }],
      ['getMeta', async () => {
        await unapplied({ meta: { phase: 'journalled' } });
        expect(store.getMeta('phase')).toBe('journalled');
      }],
      ['load', async () => {
        await unapplied({ balances: [balance(alice, 'VND', 5n, 1n)], apiKeys: [apiKey(alice, 'desk')] });
        const snapshot = store.load();
        expect(snapshot.balances).toEqual([balance(alice, 'VND', 5n, 1n)]);
        expect(snapshot.apiKeys).toEqual([apiKey(alice, 'desk')]);
      }],
      ['integrityCheck', async () => {
        await unapplied({ orders: [order(bob, ++seq)] });
        expect(store.integrityCheck()).toBe('ok');
        expect(disk.rows('orders')).toBe(BigInt(seq));
      }],
    ];
    for (const [name, read] of reads) {
      await read();
      expect(disk.journalRows(), `after ${name}`).toBe(0);
    }
    disk.close();
  });

  it('writes a row committed in several batches to its table once, in its last state', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file, NOT_ON_A_TIMER);
    const owner = user(1);
    await store.commit({ users: [owner] });
    store.materialize();
    // Counts every write SQLite makes to the orders table, whichever connection makes it.
    const audit = new Database(file);
    audit.exec(`
      CREATE TABLE order_writes (kind TEXT NOT NULL);
      CREATE TRIGGER count_order_inserts AFTER INSERT ON orders BEGIN INSERT INTO order_writes VALUES ('insert'); END;
      CREATE TRIGGER count_order_updates AFTER UPDATE ON orders BEGIN INSERT INTO order_writes VALUES ('update'); END;
    `);

    const placed = order(owner, 1, { status: 'SUBMITTED' });
    await store.commit({ orders: [placed], balances: [balance(owner, 'VND', 60n, 40n)] });
    await store.commit({ orders: [{ ...placed, status: 'ACTIVE' }] });
    const done = { ...placed, status: 'DONE' as const, doneReason: 'CANCELED' as const, restingLots: 0 };
    await store.commit({ orders: [done], balances: [balance(owner, 'VND', 100n, 0n)] });
    expect(store.stats()).toMatchObject({ journalRows: 3, pendingRows: 2 + 1 + 2 });
    const busyBefore = store.stats().writerBusyMs;

    expect(store.orderById(owner.id, placed.orderId)).toEqual(done);
    expect(audit.prepare('SELECT kind FROM order_writes').pluck().all()).toEqual(['insert']);
    expect(store.stats()).toMatchObject({ journalRows: 0, pendingRows: 0, materializations: 2, rowsMaterialized: 1 + 2 });
    // The writer thread reports the time it spent writing the tables (the committed-orders bench prints it).
    expect(store.stats().writerBusyMs).toBeGreaterThan(busyBefore);

    // A row already in its table is updated in place.
    await store.commit({ orders: [{ ...done, feeTotal: '12' }] });
    expect(store.orderById(owner.id, placed.orderId)?.feeTotal).toBe('12');
    expect(audit.prepare('SELECT kind FROM order_writes').pluck().all()).toEqual(['insert', 'update']);
    audit.close();
  });

  it('applies the journal before a batch once it holds the bound of pending rows, so it stays bounded', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file, { ...NOT_ON_A_TIMER, maxPendingRows: 100 });
    const owner = user(1);
    await store.commit({ users: [owner] });
    const perCommit = 11;
    let highest = 0;
    let highestLookups = 0;
    for (let c = 0; c < 60; c += 1) {
      const orders = Array.from({ length: perCommit - 1 }, (_, i) => order(owner, c * 10 + i + 1));
      await store.commit({ orders, balances: [balance(owner, 'VND', BigInt(c))] });
      highest = Math.max(highest, store.stats().pendingRows);
      highestLookups = Math.max(highestLookups, store.stats().pendingLookups);
    }
    // At most the bound, less one row, plus one batch; and what the checks remember of the pending journal
    // shrinks with it, although the journal is never empty (it once grew by every order until it was).
    expect(highest).toBeLessThan(100 + perCommit);
    expect(highestLookups).toBeLessThan(100 + perCommit);
    expect(store.stats().journalRows).toBeGreaterThan(0);
    expect(store.stats().materializations).toBeGreaterThanOrEqual(5);
    expect(store.load().openOrders).toHaveLength(600);
  });

  it('applies the journal by itself once commits stop', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file, { materializeDelayMs: 0 });
    const disk = inspector(file);
    const owner = user(1);
    await store.commit({ users: [owner], orders: [order(owner, 1)] });
    await vi.waitFor(() => expect(disk.journalRows()).toBe(0));
    expect(disk.rows('orders')).toBe(1n);
    // The writer thread's word that it applied reaches the core a moment after the tables show it.
    await vi.waitFor(() => expect(store.stats()).toMatchObject({ materializations: 1, journalRows: 0 }));
    disk.close();
  });

  it('leaves the journal empty on close, everything in the tables', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file, NOT_ON_A_TIMER);
    const owner = user(1);
    await store.commit({ users: [owner] });
    await store.commit({ orders: [order(owner, 1)] });
    const queued = store.commit({ orders: [order(owner, 2)], meta: { closing: 'yes' } });
    store.close();
    await queued;

    const disk = inspector(file);
    expect(disk.journalRows()).toBe(0);
    expect(disk.rows('orders')).toBe(2n);
    expect(disk.rows('meta')).toBe(1n);
    disk.close();
  });

  it('loses nothing when the process dies between the journal commit and applying it', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const child = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
    const run = spawn(process.execPath, ['--import', 'tsx', child, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    run.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => run.on('exit', (_code, sig) => resolve(sig)));
    expect(stderr).toBe('');
    expect(stdout).toBe('acknowledged\n');
    expect(signal).toBe('SIGKILL');

    // The tables hold only the first batch; the journal holds the other two.
    const disk = inspector(file);
    expect(disk.rows('users')).toBe(1n);
    expect(disk.rows('orders')).toBe(0n);
    expect(disk.journalRows()).toBe(2);
    disk.close();

    const owner = user(1);
    const placed = order(owner, 1);
    const store = open(file);
    const snapshot = store.load();
    expect(snapshot.users).toEqual([owner]);
    expect(snapshot.balances).toEqual([balance(owner, 'VND', 750n, 250n)]);
    expect(snapshot.openOrders).toEqual([order(owner, 2)]);
    expect(snapshot.meta).toEqual({ last: 'acknowledged before the crash' });
    expect(store.orderById(owner.id, placed.orderId)).toEqual({ ...placed, status: 'DONE', doneReason: 'CANCELED', restingLots: 0 });
    expect(store.integrityCheck()).toBe('ok');
    const after = inspector(file);
    expect(after.journalRows()).toBe(0);
    after.close();
  });

  it('keeps the journal, and says why, when the tables refuse it; applies it once they accept', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file, NOT_ON_A_TIMER);
    const owner = user(1);
    await store.commit({ users: [owner] });
    store.materialize();
    const mine = order(owner, 1);
    await store.commit({ orders: [mine] });
    // Another connection, without foreign keys, takes the order's owner away behind the store's back.
    const intruder = new Database(file);
    intruder.exec('CREATE TEMP TABLE taken AS SELECT * FROM users; DELETE FROM users;');

    expect(() => store.load()).toThrow(`could not write orders row ${mine.orderId}: FOREIGN KEY constraint failed`);
    expect(store.stats()).toMatchObject({ journalRows: 1, pendingRows: 1 });
    intruder.exec('INSERT INTO users SELECT * FROM taken;');
    intruder.close();
    expect(store.load().openOrders).toEqual([mine]);
  });

  it('deletes the segments the tables durably hold, keeps the one being written, and leaves none after close', async () => {
    const file = path.join(tempDir(), 'venue.db');
    // Every record starts a segment of its own.
    const store = open(file, { ...NOT_ON_A_TIMER, journalSegmentBytes: 1 });
    const owner = user(1);
    await store.commit({ users: [owner] });
    for (let seq = 1; seq <= 3; seq += 1) await store.commit({ orders: [order(owner, seq)] });
    const segments = (): string[] => fs.readdirSync(journalFolder(file)).sort();
    expect(segments()).toHaveLength(4);
    // The tables hold records 1 to 4 durably: segments 1 to 3 go; 4 goes too if the journal thread has moved on
    // to segment 5 by the time it hears, and stays if it is still the one being written.
    store.materialize();
    await store.commit({ orders: [order(owner, 4)] });
    await vi.waitFor(() => expect(segments().filter((name) => name < '0000000000000004.log')).toEqual([]));
    expect(segments().at(-1)).toBe('0000000000000005.log');
    store.close();
    expect(fs.existsSync(journalFolder(file)) ? segments() : []).toEqual([]);
    expect(open(file).load().openOrders).toHaveLength(4);
  });

  it('refuses to open a database whose journal it cannot read, and leaves the journal as it was', () => {
    const file = path.join(tempDir(), 'venue.db');
    open(file).close();
    const appender = new JournalAppender(journalFolder(file));
    appender.append([{ seq: 1, text: JSON.stringify({ v: 99, u: [], k: [], b: [], o: [], t: [], m: [] }) }]);
    appender.close();

    expect(() => open(file)).toThrow('the journal could not be applied to the tables, and keeps everything: journal record 1 is unreadable: format 99, this build reads formats 1 and 2');
    const disk = inspector(file);
    expect(disk.journalRows()).toBe(1);
    disk.close();
  });

  it('applies a record an older build wrote with the wide order tuple (format 1), keeping every value', () => {
    const file = path.join(tempDir(), 'venue.db');
    open(file).close();
    const owner = user(1);
    const placed = order(owner, 1, { clientOrderId: 'Old-1', holdRemaining: 9_007_199_254_740_993n, expiredAt: 1_900_000_000_000_000_001n, timeInForce: 'GTT', postOnly: true });
    const bigints = (values: unknown[]): unknown[] => values.map((v) => (typeof v === 'bigint' ? v.toString() : v));
    const entry = JSON.parse(journalText({ users: [owner] })) as Record<string, unknown>;
    const text = JSON.stringify({ ...entry, v: 1, o: [bigints(wideOrder(placed))] });
    const appender = new JournalAppender(journalFolder(file));
    appender.append([{ seq: 1, text }]);
    appender.close();

    const store = open(file);
    expect(store.load().openOrders).toEqual([placed]);
    expect(store.orderById(owner.id, placed.orderId)).toEqual(placed);
    store.close();
  });

  it('applies records an older build wrote, which have no candles, and candles a newer one wrote', () => {
    const file = path.join(tempDir(), 'venue.db');
    open(file).close();
    const owner = user(1);
    const withoutCandles = JSON.parse(journalText({ users: [owner] })) as Record<string, unknown>;
    delete withoutCandles['c'];
    const candle = { productId: 'BTC-VND', start: 1_800_000_000_000_000_000n, open: '2500000000', high: '2500010000', low: '2499990000', close: '2500000000', volume: '0.0123' };
    const appender = new JournalAppender(journalFolder(file));
    appender.append([{ seq: 1, text: JSON.stringify(withoutCandles) }]);
    appender.append([{ seq: 2, text: journalText({ candles: [candle] }) }]);
    appender.close();

    const store = open(file);
    expect(store.load().users.map((u) => u.id)).toEqual([owner.id]);
    store.close();
    const disk = new Database(file, { readonly: true });
    disk.defaultSafeIntegers(true);
    expect(disk.prepare('SELECT product_id, start, volume FROM candles').raw().all()).toEqual([['BTC-VND', candle.start, '0.0123']]);
    disk.close();
  });

  it('cuts off a record torn by a crash mid-write (never acknowledged) and applies every whole one', async () => {
    const { file, owner, segments } = journalOnly();
    const [segment = ''] = segments;
    fs.truncateSync(segment, fs.statSync(segment).size - 7);

    const store = open(file);
    expect(store.load().openOrders).toEqual([order(owner, 1)]);
    await store.commit({ orders: [order(owner, 3)] });
    expect(journalRecords(file).map((r) => r.seq)).toEqual([3]);
    store.close();
    expect(open(file).load().openOrders).toEqual([order(owner, 1), order(owner, 3)]);
  });

  it('applies a segment an older build wrote with a frame per record, and cuts off its torn last record', () => {
    const file = path.join(tempDir(), 'venue.db');
    open(file).close();
    const owner = user(1);
    // The layout before one frame per append: u32 text length, u32 CRC-32 of the seq's 8 bytes then the text, u64 seq, text.
    const recordFrame = (seq: number, text: string): Buffer => {
      const body = Buffer.from(text, 'utf8');
      const header = Buffer.alloc(16);
      header.writeUInt32LE(body.length, 0);
      header.writeBigUInt64LE(BigInt(seq), 8);
      header.writeUInt32LE(crc32(body, crc32(header.subarray(8, 16))), 4);
      return Buffer.concat([header, body]);
    };
    const whole = Buffer.concat([
      recordFrame(1, journalText({ users: [owner] })),
      recordFrame(2, journalText({ orders: [order(owner, 1)] })),
      recordFrame(3, journalText({ orders: [order(owner, 2)] })),
    ]);
    fs.mkdirSync(journalFolder(file), { recursive: true });
    const segment = path.join(journalFolder(file), '0000000000000001.log');
    fs.writeFileSync(segment, whole.subarray(0, whole.length - 5));

    const store = open(file);
    expect(store.load().openOrders).toEqual([order(owner, 1)]);
    store.close();
  });

  it('keeps the bytes of a torn last frame beside its segment when it cuts them off', () => {
    const { file, segments } = journalOnly();
    const [segment = ''] = segments;
    const bytes = fs.readFileSync(segment);
    const lastStart = 16 + bytes.readUInt32LE(0) + 16 + bytes.readUInt32LE(16 + bytes.readUInt32LE(0));
    fs.truncateSync(segment, bytes.length - 7);

    open(file).close();
    const kept = fs.readdirSync(path.dirname(segment)).filter((name) => name.startsWith(`${path.basename(segment)}.torn-${lastStart}-`));
    expect(kept).toHaveLength(1);
    expect(fs.readFileSync(path.join(path.dirname(segment), kept[0] ?? ''))).toEqual(bytes.subarray(lastStart, bytes.length - 7));
  });

  it('refuses to open when a damaged record has a whole one after it in the same segment: that is no torn tail', () => {
    const { file, segments } = journalOnly();
    const [segment = ''] = segments;
    const bytes = fs.readFileSync(segment);
    const second = 16 + bytes.readUInt32LE(0);
    bytes[second + 30] = (bytes[second + 30] ?? 0) ^ 0xff;
    fs.writeFileSync(segment, bytes);

    expect(() => open(file)).toThrow(`the journal is damaged: ${segment} is unreadable from byte ${second}, and acknowledged records follow`);
    expect(fs.readFileSync(segment)).toEqual(bytes);
  });

  it('refuses to open a last segment it cannot read that no torn append explains (a newer build’s layout), and keeps it whole', () => {
    const file = path.join(tempDir(), 'venue.db');
    open(file).close();
    const owner = user(1);
    // A layout this build does not know: the same fields and a u32 of flags after the seq, so each header is 20 bytes.
    const newerFrame = (seq: number, text: string): Buffer => {
      const length = Buffer.alloc(4);
      const body = Buffer.from(text, 'utf8');
      length.writeUInt32LE(body.length, 0);
      const records = Buffer.concat([length, body]);
      const header = Buffer.alloc(20);
      header.writeUInt32LE(records.length, 0);
      header.writeUInt32LE(crc32(records), 4);
      header.writeBigUInt64LE(BigInt(seq), 8);
      return Buffer.concat([header, records]);
    };
    const bytes = Buffer.concat([newerFrame(1, journalText({ users: [owner] })), newerFrame(2, journalText({ orders: [order(owner, 1)] }))]);
    const folder = journalFolder(file);
    fs.mkdirSync(folder, { recursive: true });
    const segment = path.join(folder, '0000000000000001.log');
    fs.writeFileSync(segment, bytes);

    // These are acknowledged orders, not the torn end of an append: opening without them would lose them.
    expect(() => open(file)).toThrow(`the journal is damaged, or was written by a newer build: ${segment} is unreadable from byte 0`);
    expect(fs.readdirSync(folder)).toEqual(['0000000000000001.log']);
    expect(fs.readFileSync(segment)).toEqual(bytes);
  });

  it('cuts off a torn last append whose length was never written, as a power cut leaves it', () => {
    const { file, owner, segments } = journalOnly();
    const [segment = ''] = segments;
    const bytes = fs.readFileSync(segment);
    const lastStart = 16 + bytes.readUInt32LE(0) + 16 + bytes.readUInt32LE(16 + bytes.readUInt32LE(0));
    // The file grew, but the page holding the last frame's header came back as zeros.
    bytes.fill(0, lastStart, lastStart + 16);
    fs.writeFileSync(segment, bytes);

    const store = open(file);
    expect(store.load().openOrders).toEqual([order(owner, 1)]);
    store.close();
  });

  it('goes on journaling when a segment it retires cannot be deleted, and opens again', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file, { ...NOT_ON_A_TIMER, journalSegmentBytes: 1 });
    const owner = user(1);
    await store.commit({ users: [owner] });
    // Something holds the first segment: here a folder in its place that a plain delete refuses.
    const first = path.join(journalFolder(file), '0000000000000001.log');
    fs.rmSync(first);
    fs.mkdirSync(path.join(first, 'held'), { recursive: true });
    await store.commit({ orders: [order(owner, 1)] });
    store.materialize();
    await store.commit({ orders: [order(owner, 2)] });
    store.materialize();
    expect(fs.existsSync(first)).toBe(true);
    store.close();
    expect(open(file).load().openOrders).toEqual([order(owner, 1), order(owner, 2)]);
  });

  it('refuses to open when a record before the last segment is damaged, naming the file, and changes nothing', () => {
    // A segment per append.
    const { file, segments } = journalOnly(1);
    const [first = ''] = segments;
    const bytes = fs.readFileSync(first);
    bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 0xff;
    fs.writeFileSync(first, bytes);

    expect(() => open(file)).toThrow(`the journal is damaged: ${first} is unreadable from byte 0, and acknowledged records follow`);
    expect(fs.readFileSync(first)).toEqual(bytes);
    const disk = inspector(file);
    expect(disk.rows('users')).toBe(0n);
    disk.close();
  });
});

describe('checks before acknowledging', () => {
  const alice = user(1);
  const bob = user(2);

  /** A store with alice and bob, alice's order 1 in the tables, and her order 2 only in the journal. */
  async function seeded(): Promise<{ store: VenueStore; stored: ReturnType<typeof order>; journalled: ReturnType<typeof order> }> {
    const store = open(path.join(tempDir(), 'venue.db'), NOT_ON_A_TIMER);
    const stored = order(alice, 1);
    const journalled = order(alice, 2);
    await store.commit({ users: [alice, bob], orders: [stored], trades: [trade(1, stored, stored)] });
    store.materialize();
    await store.commit({ orders: [journalled], trades: [trade(2, journalled, stored)] });
    return { store, stored, journalled };
  }

  it('refuses whole a batch that breaks a key the tables enforce, wherever the other row is', async () => {
    const { store, stored, journalled } = await seeded();
    const refused: [ChangeSet, string][] = [
      [{ users: [user(3, { number: alice.number })] }, 'UNIQUE constraint failed: users.number'],
      [{ balances: [balance(user(9), 'VND', 1n)] }, 'FOREIGN KEY constraint failed (user_id names no user)'],
      [{ apiKeys: [apiKey(user(9), 'ghost')] }, 'FOREIGN KEY constraint failed (user_id names no user)'],
      [{ orders: [order(user(9), 50)] }, 'FOREIGN KEY constraint failed (user_id names no user)'],
      [{ orders: [{ ...order(bob, 60), seq: stored.seq }] }, 'UNIQUE constraint failed: orders.seq'],
      [{ orders: [{ ...order(bob, 61), seq: journalled.seq }] }, 'UNIQUE constraint failed: orders.seq'],
      [{ trades: [trade(3, order(bob, 70), stored)] }, 'FOREIGN KEY constraint failed (maker_order_id names no order)'],
      [{ trades: [trade(3, stored, order(bob, 71))] }, 'FOREIGN KEY constraint failed (taker_order_id names no order)'],
      [{ trades: [{ ...trade(3, stored, stored), id: 'trade-1' }] }, 'UNIQUE constraint failed: trades.id'],
      [{ trades: [{ ...trade(3, stored, stored), id: 'trade-2' }] }, 'UNIQUE constraint failed: trades.id'],
      [{ trades: [trade(3, stored, stored), { ...trade(4, stored, stored), id: 'trade-3' }] }, 'UNIQUE constraint failed: trades.id'],
      [{ trades: [{ ...trade(3, stored, stored), seq: 1 }] }, 'UNIQUE constraint failed: trades.seq'],
      [{ trades: [{ ...trade(3, stored, stored), seq: 2 }] }, 'UNIQUE constraint failed: trades.seq'],
    ];
    for (const [changes, reason] of refused) {
      // Each refused batch carries a good change set too, refused with it.
      const good = store.commit({ meta: { good: 'no' } });
      const bad = store.commit(changes);
      const results = await Promise.allSettled([good, bad]);
      for (const r of results) expect(r.status === 'rejected' ? String(r.reason) : 'resolved').toContain(reason);
    }
    expect(store.stats()).toMatchObject({ failedBatches: refused.length, journalRows: 1 });
    // What was acknowledged still applies cleanly, and nothing refused is there.
    expect(store.load().meta).toEqual({});
    expect(store.tradesOfOrders([stored.orderId]).map((t) => t.id)).toEqual(['trade-1', 'trade-2']);
    expect(store.integrityCheck()).toBe('ok');
  });

  it('refuses a change set with a value its table would refuse on its own, and only that one', async () => {
    const { store, stored } = await seeded();
    const neighbour = store.commit({ meta: { neighbour: 'kept' } });
    const tooBig = store.commit({ orders: [{ ...stored, holdRemaining: 2n ** 63n }] });
    const shortHash = store.commit({ apiKeys: [apiKey(alice, 'bad', { secretHash: Buffer.alloc(31) })] });
    const fractional = store.commit({ orders: [{ ...stored, restingLots: 1.5 }] });
    await expect(tooBig).rejects.toThrow(`could not write orders row ${stored.orderId}: column hold_remaining should be an integer that fits in 64 bits`);
    await expect(shortHash).rejects.toThrow(`could not write api_keys row of user ${alice.id}: column secret_hash should be a blob of 32 bytes`);
    await expect(fractional).rejects.toThrow('column resting_lots should be a safe integer');
    await neighbour;
    expect(store.getMeta('neighbour')).toBe('kept');
    expect(store.orderById(alice.id, stored.orderId)).toEqual(stored);
  });

  it('accepts what the engine does: rows referring to rows of the same batch, orders moving to a fresh seq', async () => {
    const { store, stored, journalled } = await seeded();
    const carol = user(3);
    const carols = order(carol, 3);
    // A new user, her order and a trade against it, in separate change sets of one batch.
    await Promise.all([
      store.commit({ trades: [trade(3, carols, journalled)] }),
      store.commit({ users: [carol], balances: [balance(carol, 'VND', 1n)], apiKeys: [apiKey(carol, 'desk')] }),
      store.commit({ orders: [carols] }),
    ]);
    // A triggered stop takes a fresh seq: the old one is free once the tables hold the move. While the move is
    // pending the old seq is still held, more strictly than SQLite would judge; the engine never reuses a seq.
    await store.commit({ orders: [{ ...stored, seq: 10 }, { ...journalled, seq: 11 }] });
    await expect(store.commit({ orders: [{ ...order(bob, 20), seq: 2 }] })).rejects.toThrow('UNIQUE constraint failed: orders.seq');
    store.materialize();
    await store.commit({ orders: [{ ...order(bob, 20), seq: 2 }] });
    await store.commit({ orders: [{ ...order(bob, 21), seq: 1 }] });
    // A user updated in place keeps her number.
    await store.commit({ users: [{ ...alice, totalOrders: 3n }] });

    const snapshot = store.load();
    expect(snapshot.openOrders.map((o) => [o.seq, o.orderId])).toEqual([
      [1, order(bob, 21).orderId],
      [2, order(bob, 20).orderId],
      [3, carols.orderId],
      [10, stored.orderId],
      [11, journalled.orderId],
    ]);
    expect(store.tradesOfOrders([carols.orderId])).toEqual([trade(3, carols, journalled)]);
    expect(snapshot.users.find((u) => u.id === alice.id)?.totalOrders).toBe(3n);
    expect(store.integrityCheck()).toBe('ok');
  });

  it('fails the batch the journal thread could not make durable, and every one after it, rather than run ahead of disk', async () => {
    const file = path.join(tempDir(), 'venue.db');
    // Every record starts a segment file of its own, so the next one needs the folder.
    const store = open(file, { ...NOT_ON_A_TIMER, journalSegmentBytes: 1 });
    const owner = user(1);
    await store.commit({ users: [owner] });
    store.materialize();
    // The folder is gone and a file stands in its place: the next segment cannot be created.
    const folder = journalFolder(file);
    fs.rmSync(folder, { recursive: true });
    fs.writeFileSync(folder, 'not a folder');
    const refused = store.commit({ orders: [order(owner, 1)] });
    await expect(refused).rejects.toThrow(/the journal could not be written: ENOTDIR/);
    // Memory may hold what disk does not: the store stops taking work until the venue restarts.
    await expect(store.commit({ orders: [order(owner, 2)] })).rejects.toThrow(/the journal could not be written/);
    expect(() => store.orderById(owner.id, order(owner, 1).orderId)).toThrow(/the journal could not be written/);
    // Close says so too; a restart reads what disk holds: everything acknowledged, nothing of the refused batches.
    expect(() => store.close()).toThrow(/the journal could not be written/);
    expect(() => open(file)).toThrow(/the journal folder .* cannot be written/);
    fs.rmSync(folder);
    const again = open(file, NOT_ON_A_TIMER);
    expect(again.load().users.map((u) => u.id)).toEqual([owner.id]);
    expect(again.orderById(owner.id, order(owner, 1).orderId)).toBeUndefined();
    await again.commit({ orders: [order(owner, 3)] });
    expect(again.orderById(owner.id, order(owner, 3).orderId)?.seq).toBe(3);
  });
});
