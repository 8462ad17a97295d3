import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate, schemaVersion, type Migration } from '../../../src-main/venue/store/migrations';
import { captureOrder } from '../../../src-main/venue/store/change-set';
import { orderFromRow } from '../../../src-main/venue/store/rows';
import { WIDE_ORDER_COLUMNS, journalRecords, journalText, open, order, tempDir, trade, user, wideOrder } from './fixtures';

function rawDb(file: string): Database.Database {
  const db = new Database(file);
  db.defaultSafeIntegers(true);
  return db;
}

const LATEST = MIGRATIONS.at(-1)?.version ?? 0;

function names(db: Database.Database, type: 'table' | 'index'): string[] {
  return db
    .prepare("SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all(type)
    .map(String);
}

describe('the venue schema', () => {
  it('creates every table, the journal, the query indexes and the partial open-order index on an empty database', () => {
    const file = path.join(tempDir(), 'venue.db');
    const db = rawDb(file);
    expect(migrate(db)).toEqual({ from: 0, to: 5 });

    expect(names(db, 'table')).toEqual(['api_keys', 'balances', 'candles', 'journal', 'journal_position', 'meta', 'orders', 'schema_migrations', 'trades', 'users']);
    expect(names(db, 'index')).toEqual([
      'api_keys_by_user',
      'orders_by_user_client_id',
      'orders_by_user_created',
      'orders_by_user_updated',
      'orders_open',
      'trades_by_maker_order',
      'trades_by_product',
      'trades_by_taker_order',
    ]);
    const openIndex = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'orders_open'").pluck().get();
    expect(openIndex).toContain("WHERE status != 'DONE'");
    const recorded = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
    expect(recorded).toEqual([
      { version: 1n, name: MIGRATIONS[0]?.name },
      { version: 2n, name: MIGRATIONS[1]?.name },
      { version: 3n, name: MIGRATIONS[2]?.name },
      { version: 4n, name: MIGRATIONS[3]?.name },
      { version: 5n, name: MIGRATIONS[4]?.name },
    ]);
    db.close();
  });

  it('adds the journal to a database written before it, keeping its rows', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const db = rawDb(file);
    migrate(db, MIGRATIONS.slice(0, 1));
    db.prepare("INSERT INTO meta (key, value) VALUES ('local_user', 'u1')").run();
    db.close();

    const store = open(file);
    expect(store.getMeta('local_user')).toBe('u1');
    await store.commit({ meta: { later: 'yes' } });
    expect(store.load().meta).toEqual({ local_user: 'u1', later: 'yes' });
  });

  it('applies once the journal rows a build before the journal file left in its table, and goes on after them', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const db = rawDb(file);
    migrate(db, MIGRATIONS.slice(0, 2));
    const owner = user(1);
    // As that build left them after a crash: rows 1 and 2 already applied and deleted, 3 and 4 acknowledged.
    const insert = db.prepare('INSERT INTO journal (seq, batch) VALUES (?, ?)');
    insert.run(3, journalText({ users: [owner] }));
    insert.run(4, journalText({ orders: [order(owner, 1)] }));
    db.close();

    const store = open(file);
    expect(store.load().openOrders).toEqual([order(owner, 1)]);
    const disk = rawDb(file);
    expect(disk.prepare('SELECT count(*) FROM journal').pluck().get()).toBe(0n);
    expect(disk.prepare('SELECT through FROM journal_position').pluck().get()).toBe(4n);
    disk.close();
    await store.commit({ orders: [order(owner, 2)] });
    expect(journalRecords(file).map((r) => r.seq)).toEqual([5]);
    store.close();
    expect(open(file).load().openOrders).toEqual([order(owner, 1), order(owner, 2)]);
  });
});

describe('migration runner', () => {
  it('gathers the order rows of a database from before migration 5 into the compact row, keeping every value and the trades that refer to them', () => {
    const file = path.join(tempDir(), 'venue.db');
    const db = rawDb(file);
    migrate(db, MIGRATIONS.slice(0, 4));
    const owner = user(1);
    db.prepare('INSERT INTO users VALUES (?, ?, 0, ?, ?, ?, 0, 0, 0, ?)').run(owner.id, owner.number, owner.makerFeeRate, owner.takerFeeRate, owner.createdAt, '0');
    // Every kind of value: int64s past 2^53, nulls and set timestamps, post_only, a TWAP's JSON with quotes.
    const resting = order(owner, 1, {
      clientOrderId: 'Mixed:Case-1',
      postOnly: true,
      holdRemaining: 9_007_199_254_740_993n,
      expiredAt: 1_900_000_000_000_000_001n,
      scheduledAt: 1_800_000_000_000_000_003n,
      type: 'TWAP',
      timeInForce: 'GTT',
      twapState: '{"lotsLeft":3,"note":"a \\"quoted\\" word"}',
    });
    const done = order(owner, 2, { side: 'SELL', status: 'DONE', doneReason: 'FILLED', filledBaseSize: '0.01', filledQuoteSize: '25000000', feeTotal: '25000', restingLots: 0, holdAsset: 'BTC', holdRemaining: 0n, cancelRequestedAt: 1_750_000_000_000_000_007n });
    const insert = db.prepare(`INSERT INTO orders (${WIDE_ORDER_COLUMNS.join(', ')}) VALUES (${WIDE_ORDER_COLUMNS.map(() => '?').join(', ')})`);
    for (const o of [resting, done]) insert.run(wideOrder(o));
    const fill = trade(1, resting, done);
    db.prepare('INSERT INTO trades VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      fill.seq, fill.id, fill.productId, fill.price, fill.size, fill.takerSide, fill.makerOrderId, fill.takerOrderId, fill.makerUserId, fill.takerUserId, fill.makerFee, fill.takerFee, fill.time,
    );
    db.pragma('foreign_keys = ON');

    expect(migrate(db)).toEqual({ from: 4, to: LATEST });
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1n);
    const rows = db.prepare('SELECT * FROM orders ORDER BY seq').all();
    expect(rows.map(orderFromRow)).toEqual([resting, done]);
    // The migration writes the details array exactly as the store does.
    expect(rows.map((r) => JSON.parse((r as { details: string }).details) as unknown)).toEqual([resting, done].map((o) => JSON.parse(captureOrder(o)[8]) as unknown));
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    expect(() => db.prepare("UPDATE trades SET maker_order_id = 'no-such-order'").run()).toThrow(/FOREIGN KEY constraint failed/);
    expect(names(db, 'index')).toContain('orders_open');
    db.close();
  });

  it('applies nothing to a database that is up to date', () => {
    const file = path.join(tempDir(), 'venue.db');
    const db = rawDb(file);
    migrate(db);
    expect(migrate(db)).toEqual({ from: LATEST, to: LATEST });
    expect(db.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(BigInt(MIGRATIONS.length));
    db.close();
  });

  it('refuses a database written by a newer build, naming both versions', () => {
    const file = path.join(tempDir(), 'venue.db');
    open(file).close();
    const db = rawDb(file);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (7, 'from the future', 0)").run();
    db.close();

    expect(() => open(file)).toThrow(`schema version 7, newer than this build understands (${LATEST})`);
  });

  it('rolls a failing migration back whole and stays at the previous version', () => {
    const file = path.join(tempDir(), 'venue.db');
    const db = rawDb(file);
    const broken: Migration = {
      version: LATEST + 1,
      name: 'half done',
      up(d) {
        d.exec('CREATE TABLE half_done (x INTEGER)');
        throw new Error('disk said no');
      },
    };
    expect(() => migrate(db, [...MIGRATIONS, broken])).toThrow('disk said no');
    expect(schemaVersion(db)).toBe(LATEST);
    expect(names(db, 'table')).not.toContain('half_done');
    db.close();
  });

  it('applies only the migrations newer than the database, in order', () => {
    const file = path.join(tempDir(), 'venue.db');
    const db = rawDb(file);
    migrate(db);
    const applied: number[] = [];
    const later = (version: number): Migration => ({
      version,
      name: `step ${version}`,
      up: () => applied.push(version),
    });
    expect(migrate(db, [...MIGRATIONS, later(LATEST + 1), later(LATEST + 2)])).toEqual({ from: LATEST, to: LATEST + 2 });
    expect(applied).toEqual([LATEST + 1, LATEST + 2]);
    expect(db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all()).toEqual(
      Array.from({ length: LATEST + 2 }, (_, i) => BigInt(i + 1)),
    );
    db.close();
  });

  it('refuses a list whose versions do not increase', () => {
    const db = rawDb(path.join(tempDir(), 'venue.db'));
    const step: Migration = { version: 1, name: 'again', up: () => undefined };
    expect(() => migrate(db, [...MIGRATIONS, step])).toThrow(/versions must increase/);
    db.close();
  });
});
