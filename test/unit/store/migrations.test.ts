import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate, schemaVersion, type Migration } from '../../../src-main/venue/store/migrations';
import { open, tempDir } from './fixtures';

function rawDb(file: string): Database.Database {
  const db = new Database(file);
  db.defaultSafeIntegers(true);
  return db;
}

function names(db: Database.Database, type: 'table' | 'index'): string[] {
  return db
    .prepare("SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all(type)
    .map(String);
}

describe('migration 1: venue state', () => {
  it('creates every table, the query indexes and the partial open-order index on an empty database', () => {
    const file = path.join(tempDir(), 'venue.db');
    const db = rawDb(file);
    expect(migrate(db)).toEqual({ from: 0, to: 1 });

    expect(names(db, 'table')).toEqual(['api_keys', 'balances', 'meta', 'orders', 'schema_migrations', 'trades', 'users']);
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
    const recorded = db.prepare('SELECT version, name FROM schema_migrations').all();
    expect(recorded).toEqual([{ version: 1n, name: MIGRATIONS[0]?.name }]);
    db.close();
  });
});

describe('migration runner', () => {
  it('applies nothing to a database that is up to date', () => {
    const file = path.join(tempDir(), 'venue.db');
    const db = rawDb(file);
    migrate(db);
    expect(migrate(db)).toEqual({ from: 1, to: 1 });
    expect(db.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(1n);
    db.close();
  });

  it('refuses a database written by a newer build, naming both versions', () => {
    const file = path.join(tempDir(), 'venue.db');
    open(file).close();
    const db = rawDb(file);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (7, 'from the future', 0)").run();
    db.close();

    expect(() => open(file)).toThrow(/schema version 7, newer than this build understands \(1\)/);
  });

  it('rolls a failing migration back whole and stays at the previous version', () => {
    const file = path.join(tempDir(), 'venue.db');
    const db = rawDb(file);
    const broken: Migration = {
      version: 2,
      name: 'half done',
      up(d) {
        d.exec('CREATE TABLE half_done (x INTEGER)');
        throw new Error('disk said no');
      },
    };
    expect(() => migrate(db, [...MIGRATIONS, broken])).toThrow('disk said no');
    expect(schemaVersion(db)).toBe(1);
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
    expect(migrate(db, [...MIGRATIONS, later(2), later(3)])).toEqual({ from: 1, to: 3 });
    expect(applied).toEqual([2, 3]);
    expect(db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all()).toEqual([1n, 2n, 3n]);
    db.close();
  });

  it('refuses a list whose versions do not increase', () => {
    const db = rawDb(path.join(tempDir(), 'venue.db'));
    const step: Migration = { version: 1, name: 'again', up: () => undefined };
    expect(() => migrate(db, [...MIGRATIONS, step])).toThrow(/versions must increase/);
    db.close();
  });
});
