/**
 * Probe, not part of `npm run bench`: the least CPU an order SQLite's table writes can cost on this machine, with
 * the rows of one bench/committed-orders.ts run (the journal records writer-replay.ts caches; run it first). It
 * writes the same order and trade rows in ~1,000-order transactions (WAL, synchronous FULL) in two layouts and
 * prints CPU µs an order:
 *
 * - `text`: today's keys: 36-character order, trade and user ids in the rows and indexes;
 * - `int`: the keys a rebuilt store would use: user numbers, order seqs for a trade's orders, 16-byte ids;
 *
 * each with every index the REST history reads use, and with none (`bare`, a floor no venue with a history could
 * reach). The records are turned into rows before the clock starts, so JSON, merging, users and balances are not
 * in the figures: this is SQLite alone, the part of the writer thread no change to our code removes.
 *
 *   npx tsx bench/probes/row-ceiling.ts [rounds]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const cache = '/tmp/nova-writer-replay.json';
if (!existsSync(cache)) throw new Error(`${cache} is missing: run npx tsx bench/probes/writer-replay.ts 1 first`);
const ORDERS = 200_000;
const records = (JSON.parse(readFileSync(cache, 'utf8')) as { text: string }[]).map(
  (r) => JSON.parse(r.text) as { o: unknown[][]; t?: unknown[][] },
);

type Layout = 'text' | 'int';

function rows(layout: Layout): { orders: unknown[][]; trades: unknown[][] }[] {
  const users = new Map<string, number>();
  const orderSeqs = new Map<string, number>();
  const user = (id: string): number => users.get(id) ?? (users.set(id, users.size + 1), users.size);
  const bytes = (uuid: string): Buffer => Buffer.from(uuid.replaceAll('-', ''), 'hex');
  return records.map((rec) => ({
    orders: rec.o.map((o) => {
      const [seq, id, userId, ...rest] = o as [number, string, string, ...unknown[]];
      orderSeqs.set(id, seq);
      return layout === 'text' ? o : [seq, bytes(id), user(userId), ...rest];
    }),
    trades: (rec.t ?? []).map((t) => {
      if (layout === 'text') return t;
      const [seq, id, product, price, size, side, maker, taker, makerUser, takerUser, ...rest] = t as [number, string, ...string[]];
      return [seq, bytes(id), product, price, size, side, orderSeqs.get(maker!), orderSeqs.get(taker!), user(makerUser!), user(takerUser!), ...rest];
    }),
  }));
}

function schema(layout: Layout, indexes: boolean): string {
  const key = layout === 'text' ? 'TEXT' : 'BLOB';
  const ref = layout === 'text' ? 'TEXT' : 'INTEGER';
  const tables = `
    CREATE TABLE orders (seq INTEGER PRIMARY KEY, order_id ${key} NOT NULL UNIQUE, user_id ${ref} NOT NULL,
      client_order_id TEXT NOT NULL, product_id TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL, details TEXT NOT NULL) STRICT;
    CREATE TABLE trades (seq INTEGER PRIMARY KEY, id ${key} NOT NULL UNIQUE, product_id TEXT NOT NULL, price TEXT NOT NULL,
      size TEXT NOT NULL, taker_side TEXT NOT NULL, maker_order ${ref} NOT NULL, taker_order ${ref} NOT NULL,
      maker_user ${ref} NOT NULL, taker_user ${ref} NOT NULL, maker_fee TEXT NOT NULL, taker_fee TEXT NOT NULL,
      time INTEGER NOT NULL) STRICT;`;
  const history = `
    CREATE INDEX orders_by_user_created ON orders (user_id, created_at);
    CREATE INDEX orders_by_user_updated ON orders (user_id, updated_at);
    CREATE INDEX orders_by_user_client_id ON orders (user_id, client_order_id COLLATE NOCASE, created_at);
    CREATE INDEX orders_open ON orders (seq) WHERE status != 'DONE';
    CREATE INDEX trades_by_maker_order ON trades (maker_order);
    CREATE INDEX trades_by_taker_order ON trades (taker_order);
    CREATE INDEX trades_by_product ON trades (product_id, seq);`;
  return indexes ? tables + history : tables;
}

function run(layout: Layout, indexes: boolean): number {
  const batches = rows(layout);
  const dir = mkdtempSync(join(tmpdir(), 'nova-row-ceiling-'));
  const db = new Database(join(dir, 'venue.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('wal_autocheckpoint = 10000');
    db.exec(schema(layout, indexes));
    const order = db.prepare(
      'INSERT INTO orders VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (order_id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at, details = excluded.details',
    );
    const trade = db.prepare('INSERT INTO trades VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)');
    const write = db.transaction((chunk: typeof batches) => {
      for (const batch of chunk) {
        for (const o of batch.orders) order.run(o);
        for (const t of batch.trades) trade.run(t);
      }
    });
    const before = process.cpuUsage();
    // The venue's batches hold 64 commands; its writer thread applies about 1,000 orders a transaction.
    for (let i = 0; i < batches.length; i += 16) write(batches.slice(i, i + 16));
    const cpu = process.cpuUsage(before);
    return (cpu.user + cpu.system) / ORDERS;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const rounds = Number(process.argv[2] ?? 2);
for (let r = 0; r < rounds; r++) {
  const figures = (['text', 'int'] as const).flatMap((layout) => [
    `${layout} ${run(layout, true).toFixed(2)}`,
    `${layout} bare ${run(layout, false).toFixed(2)}`,
  ]);
  console.log(`${figures.join(' | ')} us of CPU an order`);
}
