/**
 * The venue store's write path against its floor: what SQLite itself does with the same order rows, batched
 * 1,000 to a transaction through one prepared insert, with the same schema and pragmas. The store's figures are
 * what the core sees: one commit() per order (the order plus its two balances), many in flight, group-committed.
 * Two of them, because commit() resolves once the batch is in the journal and the tables are written later:
 * "acknowledged" stops the clock when the last commit() resolves, "in the tables" when a materialize() after it
 * has written everything to the tables (the sustained rate). Order ids are UUIDv7, as the venue makes them.
 *
 *   npx tsx bench/store.ts [orders]
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { openStore } from '../src-main/venue/store';
import type { BalanceRow, OrderRow, UserRow } from '../src-main/venue/store';
import { ORDER_INSERT_SQL, captureOrder } from '../src-main/venue/store/change-set';
import { migrate } from '../src-main/venue/store/migrations';
import { newUuidV7 } from '../src-main/venue/ids';

const USERS = 100;
const BASELINE_TRANSACTION_ROWS = 1_000;
/** Commits issued per turn of the event loop: the burst the core would produce under load. */
const IN_FLIGHT_PER_TURN = 1_000;
const T0 = 1_800_000_000_000_000_000n;

function makeUsers(): UserRow[] {
  return Array.from({ length: USERS }, (_, i) => ({
    id: randomUUID(),
    number: i + 1,
    isAdmin: false,
    makerFeeRate: '0.001',
    takerFeeRate: '0.002',
    createdAt: T0,
    totalOrders: 0n,
    totalDoneOrders: 0n,
    totalAcceptedOrders: 0n,
    tradingVolume: 0n,
  }));
}

interface Work {
  order: OrderRow;
  balances: [BalanceRow, BalanceRow];
}

function makeWork(users: readonly UserRow[], count: number): Work[] {
  return Array.from({ length: count }, (_, i) => {
    const owner = users[i % users.length];
    if (owner === undefined) throw new Error('no users');
    const seq = i + 1;
    const buy = i % 2 === 0;
    const time = T0 + BigInt(seq) * 1_000n;
    const order: OrderRow = {
      orderId: newUuidV7(),
      seq,
      userId: owner.id,
      clientOrderId: `bench-${seq}`,
      productId: 'BTC-VND',
      side: buy ? 'BUY' : 'SELL',
      type: 'LIMIT',
      timeInForce: 'GTC',
      postOnly: false,
      stp: 'CANCEL_TAKER',
      stopType: '',
      limitPrice: String(2_500_000_000 + (i % 200) * 10_000),
      baseSize: '0.01',
      quoteSize: '0',
      exactQuoteSize: '0',
      stopTriggerPrice: '0',
      status: 'ACTIVE',
      doneReason: '',
      rejectReason: '',
      filledBaseSize: '0',
      filledQuoteSize: '0',
      feeTotal: '0',
      makerFeeRate: '0.001',
      takerFeeRate: '0.002',
      restingLots: 100,
      holdAsset: buy ? 'VND' : 'BTC',
      holdRemaining: buy ? 25_050_000n : 1_000_000n,
      createdAt: time,
      updatedAt: time,
      cancelRequestedAt: null,
      expiredAt: null,
      scheduledAt: null,
      twapState: '',
    };
    const balances: [BalanceRow, BalanceRow] = [
      { userId: owner.id, asset: 'VND', free: 10_000_000_000n - BigInt(i), locked: BigInt(i) },
      { userId: owner.id, asset: 'BTC', free: 1_000_000_000n - BigInt(i), locked: BigInt(i) },
    ];
    return { order, balances };
  });
}

function baseline(file: string, users: readonly UserRow[], work: readonly Work[]): number {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -65536');
  db.defaultSafeIntegers(true);
  migrate(db);
  const addUser = db.prepare('INSERT INTO users VALUES (?, ?, 0, ?, ?, ?, 0, 0, 0, ?)');
  db.transaction(() => {
    for (const u of users) addUser.run(u.id, u.number, u.makerFeeRate, u.takerFeeRate, u.createdAt, '0');
  })();
  const insert = db.prepare(ORDER_INSERT_SQL);
  const insertMany = db.transaction((rows: readonly Work[]) => {
    for (const w of rows) insert.run(captureOrder(w.order));
  });
  const start = performance.now();
  for (let i = 0; i < work.length; i += BASELINE_TRANSACTION_ROWS) insertMany(work.slice(i, i + BASELINE_TRANSACTION_ROWS));
  const seconds = (performance.now() - start) / 1_000;
  db.close();
  return work.length / seconds;
}

async function groupCommitted(file: string, users: readonly UserRow[], work: readonly Work[]): Promise<{ acknowledged: number; applied: number; materializations: number }> {
  const store = openStore(file);
  await store.commit({ users: [...users] });
  store.materialize();
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < work.length; i += 1) {
    const w = work[i];
    if (w === undefined) break;
    pending.push(store.commit({ orders: [w.order], balances: w.balances }));
    if ((i + 1) % IN_FLIGHT_PER_TURN === 0) await turn();
  }
  await Promise.all(pending);
  const acknowledged = (performance.now() - start) / 1_000;
  const duringRun = store.stats().materializations;
  store.materialize();
  const applied = (performance.now() - start) / 1_000;
  store.close();
  return { acknowledged: work.length / acknowledged, applied: work.length / applied, materializations: duringRun - 1 };
}

export async function benchStore(opts: { orders: number; dir: string }): Promise<{ rows: { name: string; perSec: number }[] }> {
  const users = makeUsers();
  const work = makeWork(users, opts.orders);
  const base = baseline(path.join(opts.dir, 'baseline.db'), users, work);
  const store = await groupCommitted(path.join(opts.dir, 'store.db'), users, work);
  return {
    rows: [
      { name: `SQLite: order inserts, ${BASELINE_TRANSACTION_ROWS} per transaction (baseline)`, perSec: base },
      { name: 'store.commit(), order + 2 balances per change set: acknowledged', perSec: store.acknowledged },
      { name: `  ... and in the tables (${store.materializations} applications during the run, 1 at the end)`, perSec: store.applied },
    ],
  };
}

async function main(): Promise<void> {
  const orders = Number(process.argv[2] ?? 100_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-bench-store-'));
  try {
    const { rows } = await benchStore({ orders, dir });
    console.log(`venue store, ${orders} orders`);
    for (const row of rows) console.log(`  ${row.name.padEnd(72)} ${Math.round(row.perSec).toLocaleString('en-US').padStart(10)} /s`);
    const [base, acknowledged, applied] = rows;
    if (base !== undefined && acknowledged !== undefined && applied !== undefined) {
      console.log(`  store / baseline: ${(acknowledged.perSec / base.perSec).toFixed(2)} acknowledged, ${(applied.perSec / base.perSec).toFixed(2)} in the tables`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
