/**
 * Probe, not part of `npm run bench`: the core thread's share of committing orders, on one thread and without the
 * journal and writer threads, so it measures the same with other work on the machine. The committed-orders bench's
 * orders go through the exchange, and every 64 commands (as Venue commits them) through the store's capture and
 * the journal's merge, checks and JSON; the journal is told the tables hold each record 20,000 rows later, as the
 * writer thread would. Prints µs of CPU an order for each stage added.
 *
 *   npx tsx bench/probes/core-store.ts [orders]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../src-shared/protocol/orders';
import { SeededRandom } from '../../src-shared/seeded-random';
import { Exchange, FEE_ACCOUNT_ID } from '../../src-main/venue/exchange/exchange';
import { newUuidV7 } from '../../src-main/venue/ids';
import { captureChangeSet } from '../../src-main/venue/store/change-set';
import { openDatabase } from '../../src-main/venue/store/database';
import { Journal } from '../../src-main/venue/store/journal';
import { migrate } from '../../src-main/venue/store/migrations';

const orders = Number(process.argv[2] ?? 200_000);
const stages = ['exchange', '+ capture', '+ journal', '+ applied'] as const;

function run(stage: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'nova-core-probe-'));
  const db = openDatabase(join(dir, 'venue.sqlite'), undefined);
  migrate(db);
  const journal = new Journal(db, 0);
  let now = 1_800_000_000_000_000_000n;
  const exchange = new Exchange({ now: () => (now += 1000n), newId: () => newUuidV7(), maxOpenOrders: 10_000_000 });
  exchange.createUser({ isAdmin: false, makerFeeRate: '0', takerFeeRate: '0', id: FEE_ACCOUNT_ID });
  const users = [0, 1].map(() => {
    const user = exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
    exchange.deposit(user.id, 'BTC', 10n ** 15n);
    exchange.deposit(user.id, 'VND', 10n ** 18n);
    return user.id;
  });
  const rng = new SeededRandom(7);
  const requests = Array.from({ length: orders }, (_, i) => {
    const side = rng.next() < 0.5 ? 'BUY' : 'SELL';
    const offset = Math.floor(rng.next() * 20) - (side === 'BUY' ? 12 : 8);
    const request = parseCreateOrder(
      { product_id: 'BTC-VND', side, limit_price: String((250_000 + offset) * 10_000), base_size: ((1 + Math.floor(rng.next() * 50)) / 10_000).toFixed(4), client_order_id: `b${i}` },
      { now },
    );
    if (request instanceof ApiError) throw request;
    return request;
  });
  const pending: { seq: number; rows: number }[] = [];
  let pendingRows = 0;
  const take = (): void => {
    const changes = exchange.takeChanges();
    if (stage < 1) return;
    const captured = captureChangeSet(changes);
    if (stage < 2) return;
    const batch = journal.append([captured]);
    if (batch === undefined || stage < 3) return;
    pending.push(batch);
    pendingRows += batch.rows;
    while (pendingRows > 20_000) {
      const oldest = pending.shift();
      if (oldest === undefined) break;
      pendingRows -= oldest.rows;
      journal.applied(oldest.seq, oldest.rows);
    }
  };
  take();
  const before = process.cpuUsage();
  for (let i = 0; i < requests.length; i++) {
    exchange.place(users[i % 2] as string, requests[i] as (typeof requests)[number]);
    if (i % 64 === 63) take();
  }
  take();
  const cpu = process.cpuUsage(before);
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return (cpu.user + cpu.system) / orders;
}

for (let round = 0; round < 2; round++) {
  console.log(stages.map((name, stage) => `${name} ${run(stage).toFixed(2)}`).join(' | '), 'us of CPU an order');
}
