/**
 * A venue data folder with a long history: `orders` orders in all, `resting` of them on the BTC-VND book,
 * spread over 200 traders. The resting orders (and a tenth as many small takers that part-fill some of them)
 * go through the exchange and the store, so their rows, holds and balances are exactly what the venue writes;
 * the done history before them (filled pairs with their trades, cancels, rejections) is written with the
 * store's own INSERT statements, 50,000 rows to a transaction, which is far faster than trading it.
 *
 * Built once per schema version, generator version and size under the system's temp folder, and reused: a
 * caller gets a fresh copy (`copyHistory`) because opening a venue writes to its folder.
 *
 *   npx tsx bench/history.ts <orders> <resting>
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { ApiError } from '../src-shared/errors/api-error';
import { formatUnits } from '../src-shared/protocol/decimal';
import { parseCreateOrder } from '../src-shared/protocol/orders';
import { SeededRandom } from '../src-shared/seeded-random';
import { newUuidV7 } from '../src-main/venue/ids';
import { captureChangeSet, insertSql, ORDER_COLUMNS, TRADE_COLUMNS } from '../src-main/venue/store/change-set';
import { MIGRATIONS } from '../src-main/venue/store/migrations';
import type { OrderRow, TradeRow } from '../src-main/venue/store';
import { Venue } from '../src-main/venue/venue';

/** Bump when what is generated changes, so an old cached folder is not reused. */
const GENERATOR = 3;
const TRADERS = 200;
const MID = 250_000;
const SIZE_STEP = '0.0001';
const ROWS_PER_TRANSACTION = 50_000;
const IN_FLIGHT = 2_000;
const DAY_NS = 86_400_000_000_000n;

export interface History {
  dir: string;
  orders: number;
  resting: number;
  trades: number;
  seconds: number;
}

const schemaVersion = (): number => MIGRATIONS.at(-1)?.version ?? 0;

/** The cached folder for this size, built first if missing. */
export async function historyFolder(orders: number, resting: number): Promise<History> {
  const dir = join(tmpdir(), 'nova-bench-history', `schema${schemaVersion()}-gen${GENERATOR}-${orders}-${resting}`);
  const done = join(dir, 'built.json');
  if (!existsSync(done)) {
    const building = `${dir}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    const built = await build(building, orders, resting);
    writeFileSync(join(building, 'built.json'), JSON.stringify(built));
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
  }
  return { dir, ...(JSON.parse(readFileSync(done, 'utf8')) as Omit<History, 'dir'>) };
}

/** A throwaway copy of the cached folder, to open a venue on. */
export function copyHistory(history: History): string {
  const copy = mkdtempSync(join(tmpdir(), 'nova-bench-restart-'));
  cpSync(history.dir, copy, { recursive: true });
  rmSync(join(copy, 'built.json'));
  return copy;
}

async function build(dir: string, orders: number, resting: number): Promise<Omit<History, 'dir'>> {
  const start = performance.now();
  const rng = new SeededRandom(17);
  // 1. The accounts, through the venue (it also makes the local user, its key and bootstrap.json).
  let venue = await Venue.open({ dataDir: dir, maxOpenOrders: 10_000_000 });
  const { traders, taker } = await venue.run(() => {
    const make = (): string => {
      const user = venue.exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
      // Plenty for any order here, and 200 of them stay far below the most all accounts may hold (2^63 - 1 atoms).
      venue.exchange.deposit(user.id, 'BTC', 10n ** 14n);
      venue.exchange.deposit(user.id, 'VND', 10n ** 16n);
      return user.id;
    };
    return { traders: Array.from({ length: TRADERS }, make), taker: make() };
  });
  venue.writeBootstrap('http://127.0.0.1:0', 'ws://127.0.0.1:0/ws');
  await venue.close();

  // 2. The done history, with the store's INSERTs, dated over the last 30 days.
  const takers = Math.floor(resting / 10);
  const historical = Math.max(0, orders - resting - takers);
  const trades = writeDoneHistory(join(dir, 'venue.sqlite'), historical, traders, rng);

  // 3. What rests, through the exchange: orders a few hundred ticks either side of the middle, and small
  // takers that part-fill the best bids; then more resting orders until exactly `resting` rest.
  venue = await Venue.open({ dataDir: dir, maxOpenOrders: 10_000_000 });
  let placed = 0;
  const order = (user: string, body: Record<string, unknown>): { user: string; request: Exclude<ReturnType<typeof parseCreateOrder>, ApiError> } => {
    const request = parseCreateOrder({ product_id: 'BTC-VND', type: 'LIMIT', ...body }, { now: venue.now() });
    if (request instanceof ApiError) throw request;
    return { user, request };
  };
  const restingOrder = (): ReturnType<typeof order> => {
    const buy = rng.next() < 0.5;
    const away = 1 + Math.floor(rng.next() * 500);
    placed += 1;
    return order(traders[placed % TRADERS] ?? '', {
      side: buy ? 'BUY' : 'SELL',
      limit_price: String((buy ? MID - away : MID + away) * 10_000),
      base_size: formatUnits(2 + Math.floor(rng.next() * 49), SIZE_STEP),
    });
  };
  const place = async (batch: ReturnType<typeof order>[]): Promise<void> => {
    const v = venue;
    await Promise.all(batch.map(({ user, request }) => v.run(() => v.exchange.place(user, request))));
  };
  for (let i = 0; i < resting + takers; i += IN_FLIGHT) {
    const batch = Array.from({ length: Math.min(IN_FLIGHT, resting + takers - i) }, (_, k) =>
      (i + k) % 11 === 10 ? order(taker, { side: 'SELL', limit_price: String((MID - 500) * 10_000), base_size: '0.0001', time_in_force: 'IOC' }) : restingOrder(),
    );
    await place(batch);
  }
  const open = (): number => traders.reduce((n, user) => n + venue.exchange.orderCounts(user).open, 0);
  for (let missing = resting - open(); missing > 0; missing = resting - open()) {
    await place(Array.from({ length: Math.min(IN_FLIGHT, missing) }, restingOrder));
  }
  const total = historical + placed + takers;
  await venue.close();
  return { orders: total, resting, trades: trades + takers, seconds: (performance.now() - start) / 1000 };
}

/**
 * `count` done orders: three in five filled in maker/taker pairs (one trade each), a third cancelled unfilled,
 * the rest rejected for their balance. Returns the trades written.
 */
function writeDoneHistory(file: string, count: number, traders: readonly string[], rng: SeededRandom): number {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -262144');
  db.defaultSafeIntegers(true);
  const insertOrder = db.prepare(insertSql('orders', ORDER_COLUMNS));
  const insertTrade = db.prepare(insertSql('trades', TRADE_COLUMNS));
  const write = db.transaction((orders: OrderRow[], trades: TradeRow[]) => {
    const captured = captureChangeSet({ orders, trades });
    for (const row of captured.orders) insertOrder.run(row);
    for (const row of captured.trades) insertTrade.run(row);
  });
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  const first = nowNs - 30n * DAY_NS;
  const step = (30n * DAY_NS) / BigInt(Math.max(1, count));
  let seq = 0;
  let tradeSeq = 0;
  let orders: OrderRow[] = [];
  let trades: TradeRow[] = [];
  const user = (): string => traders[Math.floor(rng.next() * traders.length)] ?? '';
  const row = (side: 'BUY' | 'SELL', ticks: number, lots: number, owner: string, end: 'FILLED' | 'CANCELED' | 'REJECTED'): OrderRow => {
    seq += 1;
    const createdAt = first + BigInt(seq) * step;
    const filled = end === 'FILLED';
    const quote = BigInt(ticks) * BigInt(lots);
    return {
      orderId: newUuidV7(Number(createdAt / 1_000_000n)),
      seq,
      userId: owner,
      clientOrderId: rng.next() < 0.3 ? `h${seq}` : '',
      productId: 'BTC-VND',
      side,
      type: 'LIMIT',
      timeInForce: 'GTC',
      postOnly: false,
      stp: 'CANCEL_TAKER',
      stopType: 'STOP_NONE',
      limitPrice: String(ticks * 10_000),
      baseSize: formatUnits(lots, SIZE_STEP),
      quoteSize: '0',
      exactQuoteSize: '0',
      stopTriggerPrice: '0',
      status: 'DONE',
      doneReason: end,
      rejectReason: end === 'REJECTED' ? 'E0201_InsufficientBalance' : '',
      filledBaseSize: filled ? formatUnits(lots, SIZE_STEP) : '0',
      filledQuoteSize: filled ? String(quote) : '0',
      feeTotal: filled ? String(quote / 1000n) : '0',
      makerFeeRate: '0.001',
      takerFeeRate: '0.002',
      restingLots: 0,
      holdAsset: side === 'BUY' ? 'VND' : 'BTC',
      holdRemaining: 0n,
      createdAt,
      updatedAt: createdAt + 1_000_000n,
      cancelRequestedAt: end === 'CANCELED' ? createdAt + 1_000_000n : null,
      expiredAt: null,
      scheduledAt: null,
      twapState: '',
    };
  };
  const flush = (): void => {
    write(orders, trades);
    orders = [];
    trades = [];
  };
  while (seq < count) {
    const side = rng.next() < 0.5 ? 'BUY' : 'SELL';
    const ticks = MID - 200 + Math.floor(rng.next() * 400);
    const lots = 1 + Math.floor(rng.next() * 50);
    const pick = rng.next();
    if (pick < 0.6 && seq + 2 <= count) {
      const maker = row(side, ticks, lots, user(), 'FILLED');
      const taker = row(side === 'BUY' ? 'SELL' : 'BUY', ticks, lots, user(), 'FILLED');
      tradeSeq += 1;
      const quote = BigInt(ticks) * BigInt(lots);
      trades.push({
        id: newUuidV7(Number(taker.createdAt / 1_000_000n)),
        seq: tradeSeq,
        productId: 'BTC-VND',
        price: maker.limitPrice,
        size: maker.baseSize,
        takerSide: taker.side,
        makerOrderId: maker.orderId,
        takerOrderId: taker.orderId,
        makerUserId: maker.userId,
        takerUserId: taker.userId,
        makerFee: String(quote / 1000n),
        takerFee: String(quote / 500n),
        time: taker.createdAt,
      });
      orders.push(maker, taker);
    } else {
      orders.push(row(side, ticks, lots, user(), pick < 0.95 ? 'CANCELED' : 'REJECTED'));
    }
    if (orders.length >= ROWS_PER_TRANSACTION) flush();
  }
  flush();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return tradeSeq;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const h = await historyFolder(Number(process.argv[2] ?? 100_000), Number(process.argv[3] ?? 10_000));
  console.log(JSON.stringify(h));
}
