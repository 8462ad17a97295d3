/**
 * The venue database's schema, as an ordered list of migrations. A migration is never edited once released:
 * a change is a new entry with the next version. Each runs in its own transaction together with its row in
 * `schema_migrations`, so a failed migration leaves the database at the previous version.
 */
import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
  /**
   * It drops and rebuilds a table that others refer to: foreign keys are switched off while it runs (SQLite's
   * way of changing a table's columns) and every one is checked before it commits.
   */
  rebuildsTables?: true;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'venue state: users, api keys, balances, orders, trades, meta',
    up(db) {
      // STRICT tables so a value of the wrong type is refused on write instead of being read back as garbage.
      // orders.seq and trades.seq are the rowid: rows arrive in seq order, so the table B-tree only ever appends,
      // and the open-order scan at start-up comes out in priority order. order_id and trades.id stay the keys
      // that upserts and lookups use. Upserts must never be INSERT OR REPLACE: that deletes the parent row, which
      // the foreign keys below refuse.
      db.exec(`
        CREATE TABLE meta (
          key   TEXT PRIMARY KEY,
          value TEXT NOT NULL
        ) STRICT;

        CREATE TABLE users (
          id                    TEXT PRIMARY KEY,
          number                INTEGER NOT NULL UNIQUE,
          is_admin              INTEGER NOT NULL CHECK (is_admin IN (0, 1)),
          maker_fee_rate        TEXT NOT NULL,
          taker_fee_rate        TEXT NOT NULL,
          created_at            INTEGER NOT NULL,
          total_orders          INTEGER NOT NULL,
          total_done_orders     INTEGER NOT NULL,
          total_accepted_orders INTEGER NOT NULL,
          trading_volume        TEXT NOT NULL
        ) STRICT;

        CREATE TABLE api_keys (
          api_key      TEXT PRIMARY KEY,
          user_id      TEXT NOT NULL REFERENCES users (id),
          secret_hash  BLOB NOT NULL CHECK (length(secret_hash) = 32),
          secret_nonce BLOB NOT NULL,
          name         TEXT NOT NULL,
          created_at   INTEGER NOT NULL,
          expired_at   INTEGER,
          is_read_only INTEGER NOT NULL CHECK (is_read_only IN (0, 1)),
          revoked      INTEGER NOT NULL CHECK (revoked IN (0, 1))
        ) STRICT;
        CREATE INDEX api_keys_by_user ON api_keys (user_id);

        CREATE TABLE balances (
          user_id TEXT NOT NULL REFERENCES users (id),
          asset   TEXT NOT NULL,
          free    INTEGER NOT NULL,
          locked  INTEGER NOT NULL,
          PRIMARY KEY (user_id, asset)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE orders (
          seq                 INTEGER PRIMARY KEY,
          order_id            TEXT NOT NULL UNIQUE,
          user_id             TEXT NOT NULL REFERENCES users (id),
          client_order_id     TEXT NOT NULL,
          product_id          TEXT NOT NULL,
          side                TEXT NOT NULL,
          type                TEXT NOT NULL,
          time_in_force       TEXT NOT NULL,
          post_only           INTEGER NOT NULL CHECK (post_only IN (0, 1)),
          stp                 TEXT NOT NULL,
          stop_type           TEXT NOT NULL,
          limit_price         TEXT NOT NULL,
          base_size           TEXT NOT NULL,
          quote_size          TEXT NOT NULL,
          exact_quote_size    TEXT NOT NULL,
          stop_trigger_price  TEXT NOT NULL,
          status              TEXT NOT NULL,
          done_reason         TEXT NOT NULL,
          reject_reason       TEXT NOT NULL,
          filled_base_size    TEXT NOT NULL,
          filled_quote_size   TEXT NOT NULL,
          fee_total           TEXT NOT NULL,
          maker_fee_rate      TEXT NOT NULL,
          taker_fee_rate      TEXT NOT NULL,
          resting_lots        INTEGER NOT NULL,
          hold_asset          TEXT NOT NULL,
          hold_remaining      INTEGER NOT NULL,
          created_at          INTEGER NOT NULL,
          updated_at          INTEGER NOT NULL,
          cancel_requested_at INTEGER,
          expired_at          INTEGER,
          scheduled_at        INTEGER,
          twap_state          TEXT NOT NULL
        ) STRICT;
        CREATE INDEX orders_by_user_created ON orders (user_id, created_at);
        CREATE INDEX orders_by_user_updated ON orders (user_id, updated_at);
        -- Client order ids are ASCII (alphanumerics, ':', '-', '_') and compared case-insensitively, so NOCASE
        -- is exact; created_at last serves "newest with this client order id" straight from the index.
        CREATE INDEX orders_by_user_client_id ON orders (user_id, client_order_id COLLATE NOCASE, created_at);
        -- Start-up reads only the open orders: with a long history this index is a small fraction of the table.
        CREATE INDEX orders_open ON orders (seq) WHERE status != 'DONE';

        CREATE TABLE trades (
          seq            INTEGER PRIMARY KEY,
          id             TEXT NOT NULL UNIQUE,
          product_id     TEXT NOT NULL,
          price          TEXT NOT NULL,
          size           TEXT NOT NULL,
          taker_side     TEXT NOT NULL,
          maker_order_id TEXT NOT NULL REFERENCES orders (order_id),
          taker_order_id TEXT NOT NULL REFERENCES orders (order_id),
          maker_user_id  TEXT NOT NULL,
          taker_user_id  TEXT NOT NULL,
          maker_fee      TEXT NOT NULL,
          taker_fee      TEXT NOT NULL,
          time           INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX trades_by_maker_order ON trades (maker_order_id);
        CREATE INDEX trades_by_taker_order ON trades (taker_order_id);
        CREATE INDEX trades_by_product ON trades (product_id, seq);
      `);
    },
  },
  {
    version: 2,
    name: 'write-ahead journal of acknowledged change sets',
    up(db) {
      // One row per group commit, deleted in the transaction that applies it to the tables (see journal.ts).
      db.exec(`
        CREATE TABLE journal (
          seq   INTEGER PRIMARY KEY,
          batch TEXT NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    version: 3,
    name: 'the journal moves to its own file; the tables record how far they hold it',
    up(db) {
      // The journal is now a folder of append-only files beside the database (journal-file.ts), and a record
      // is applied to the tables in a transaction that also moves journal_position, so a record at or below it
      // is never applied twice. Rows a previous build left in `journal` are applied on open and deleted; the
      // table stays (empty) because a migration cannot apply them itself.
      db.exec(`
        CREATE TABLE journal_position (
          id      INTEGER PRIMARY KEY CHECK (id = 1),
          through INTEGER NOT NULL
        ) STRICT;
        INSERT INTO journal_position (id, through) VALUES (1, 0);
      `);
    },
  },
  {
    version: 4,
    name: 'one-minute candles, so a restart has the day of them',
    up(db) {
      // Written from the candles each commit changed; a restart reads the last day's. A folder from before has
      // none, and its first restart rebuilds them from the restored tape as it did then.
      db.exec(`
        CREATE TABLE candles (
          product_id TEXT NOT NULL,
          start      INTEGER NOT NULL,
          open       TEXT NOT NULL,
          high       TEXT NOT NULL,
          low        TEXT NOT NULL,
          close      TEXT NOT NULL,
          volume     TEXT NOT NULL,
          PRIMARY KEY (product_id, start)
        ) STRICT, WITHOUT ROWID;
      `);
    },
  },
  {
    version: 5,
    name: 'order rows keep the columns reads use, and the rest in one details array',
    rebuildsTables: true,
    up(db) {
      // Binding 33 values was most of what an order row cost the writer thread. The columns that reads filter,
      // sort and look up by stay; the others go into one JSON array, in the order of ORDER_DETAIL_COLUMNS
      // (change-set.ts), int64 values as decimal text. The indexes are the same as before.
      db.exec(`
        CREATE TABLE orders_v5 (
          seq             INTEGER PRIMARY KEY,
          order_id        TEXT NOT NULL UNIQUE,
          user_id         TEXT NOT NULL REFERENCES users (id),
          client_order_id TEXT NOT NULL,
          product_id      TEXT NOT NULL,
          status          TEXT NOT NULL,
          created_at      INTEGER NOT NULL,
          updated_at      INTEGER NOT NULL,
          details         TEXT NOT NULL
        ) STRICT;
        INSERT INTO orders_v5
          SELECT seq, order_id, user_id, client_order_id, product_id, status, created_at, updated_at,
                 json_array(side, type, time_in_force, post_only, stp, stop_type, limit_price, base_size, quote_size,
                            exact_quote_size, stop_trigger_price, done_reason, reject_reason, filled_base_size,
                            filled_quote_size, fee_total, maker_fee_rate, taker_fee_rate, resting_lots, hold_asset,
                            CAST(hold_remaining AS TEXT), CAST(cancel_requested_at AS TEXT), CAST(expired_at AS TEXT),
                            CAST(scheduled_at AS TEXT), twap_state)
          FROM orders ORDER BY seq;
        DROP TABLE orders;
        ALTER TABLE orders_v5 RENAME TO orders;
        CREATE INDEX orders_by_user_created ON orders (user_id, created_at);
        CREATE INDEX orders_by_user_updated ON orders (user_id, updated_at);
        CREATE INDEX orders_by_user_client_id ON orders (user_id, client_order_id COLLATE NOCASE, created_at);
        CREATE INDEX orders_open ON orders (seq) WHERE status != 'DONE';
      `);
    },
  },
];

const CREATE_SCHEMA_MIGRATIONS = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`;

/** The highest version recorded in the database, 0 for a new one. */
export function schemaVersion(db: Database.Database): number {
  db.exec(CREATE_SCHEMA_MIGRATIONS);
  const version: unknown = db.prepare('SELECT max(version) FROM schema_migrations').pluck().safeIntegers(true).get();
  if (version === null) return 0;
  if (typeof version !== 'bigint') throw new Error('malformed row in schema_migrations: column version should be an integer');
  return Number(version);
}

/**
 * Brings the database up to the last of `migrations` and returns the versions it went from and to. A database
 * written by a newer build is refused rather than guessed at.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): { from: number; to: number } {
  migrations.forEach((m, i) => {
    const previous = i === 0 ? 0 : (migrations[i - 1]?.version ?? 0);
    if (!Number.isSafeInteger(m.version) || m.version <= previous) {
      throw new Error(`migration "${m.name}" has version ${m.version}; versions must increase from 1`);
    }
  });
  const latest = migrations.at(-1)?.version ?? 0;
  const from = schemaVersion(db);
  if (from > latest) {
    throw new Error(
      `the venue database is at schema version ${from}, newer than this build understands (${latest}); ` +
        'open it with a newer Nova Desk or choose another data folder',
    );
  }
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of migrations) {
    if (m.version <= from) continue;
    // The pragma is a no-op inside a transaction, so it is switched around it.
    const foreignKeys: unknown = db.pragma('foreign_keys', { simple: true });
    if (m.rebuildsTables === true) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        m.up(db);
        if (m.rebuildsTables === true && db.prepare('PRAGMA foreign_key_check').all().length > 0) {
          throw new Error(`migration "${m.name}" would leave rows whose foreign keys name nothing`);
        }
        record.run(m.version, m.name, BigInt(Date.now()) * 1_000_000n);
      }).immediate();
    } finally {
      if (m.rebuildsTables === true) db.pragma(`foreign_keys = ${foreignKeys === 1n || foreignKeys === 1 ? 'ON' : 'OFF'}`);
    }
  }
  return { from, to: Math.max(from, latest) };
}
