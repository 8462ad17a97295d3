/**
 * Orders durably committed per second through exchange + store, without the network: many orders in flight,
 * each acknowledged only after its group commit, as the REST and WebSocket handlers do.
 *
 *   npx tsx bench/committed-orders.ts [--orders N]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import { SeededRandom } from '../src-shared/seeded-random';
import { ApiError } from '../src-shared/errors/api-error';
import { parseCreateOrder } from '../src-shared/protocol/orders';
import { Venue } from '../src-main/venue/venue';

export interface CommittedOrdersResult {
  ordersPerSec: number;
  orders: number;
  batches: number;
  /** Per order: CPU of the whole process (every thread: core, journal, writer, GC), and the writer thread's busy time. */
  cpuMicros: number;
  writerMicros: number;
  /**
   * Per order: CPU of the core's thread (the process's main thread, where the exchange runs; Linux only, else
   * undefined) and the time it spent paused in garbage collection. The rest of cpuMicros is the journal and writer
   * threads and V8's helpers.
   */
  coreMicros: number | undefined;
  coreGcMicros: number;
}

/** CPU of the process's main thread so far, in µs, from /proc (clock ticks of 10 ms); undefined off Linux. */
function mainThreadCpuMicros(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}


/** `started`: awaited once the orders are built, just before the timed run (a probe starts its profiler there). */
export async function benchCommittedOrders(opts: { orders: number; inFlight?: number; seed?: number; started?: () => Promise<void> }): Promise<CommittedOrdersResult> {
  const dir = mkdtempSync(join(tmpdir(), 'nova-bench-committed-'));
  const venue = await Venue.open({ dataDir: dir, maxOpenOrders: 10_000_000 });
  try {
    const rng = new SeededRandom(opts.seed ?? 7);
    const users = [0, 1].map(() => {
      const user = venue.exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
      venue.exchange.deposit(user.id, 'BTC', 10n ** 15n);
      venue.exchange.deposit(user.id, 'VND', 10n ** 18n);
      return user.id;
    });
    await venue.run(() => undefined);
    // Orders are parsed up front: this measures the exchange and the store, not JSON validation.
    const requests = Array.from({ length: opts.orders }, (_, i) => {
      const side = rng.next() < 0.5 ? 'BUY' : 'SELL';
      const offset = Math.floor(rng.next() * 20) - (side === 'BUY' ? 12 : 8);
      const request = parseCreateOrder(
        { product_id: 'BTC-VND', side, limit_price: String((250_000 + offset) * 10_000), base_size: ((1 + Math.floor(rng.next() * 50)) / 10_000).toFixed(4), client_order_id: `b${i}` },
        { now: venue.now() },
      );
      if (request instanceof ApiError) throw request;
      return { user: users[i % 2] as string, request };
    });
    const inFlight = opts.inFlight ?? 2_000;
    await opts.started?.();
    const before = venue.store.stats();
    const start = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    const coreBefore = mainThreadCpuMicros();
    let gcMs = 0;
    const gc = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) gcMs += entry.duration;
    });
    gc.observe({ entryTypes: ['gc'] });
    // A sliding window, as a busy client keeps it: each acknowledgement sends the next order, so the core
    // matches the next batch while the writer thread makes the last one durable.
    let next = 0;
    const client = async (): Promise<void> => {
      for (let i = next++; i < requests.length; i = next++) {
        const { user, request } = requests[i] as (typeof requests)[number];
        await venue.run(() => venue.exchange.place(user, request));
      }
    };
    await Promise.all(Array.from({ length: inFlight }, client));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const cpu = process.cpuUsage(cpuBefore);
    const coreAfter = mainThreadCpuMicros();
    gc.disconnect();
    const after = venue.store.stats();
    return {
      ordersPerSec: opts.orders / seconds,
      orders: opts.orders,
      batches: after.batches - before.batches,
      cpuMicros: (cpu.user + cpu.system) / opts.orders,
      writerMicros: ((after.writerBusyMs - before.writerBusyMs) * 1000) / opts.orders,
      coreMicros: coreBefore === undefined || coreAfter === undefined ? undefined : (coreAfter - coreBefore) / opts.orders,
      coreGcMicros: (gcMs * 1000) / opts.orders,
    };
  } finally {
    await venue.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Where an order's CPU went, as the bench and `npm run bench` print it. */
export function cpuShares(result: CommittedOrdersResult): string {
  const core = result.coreMicros === undefined ? '' : `the core's thread ${result.coreMicros.toFixed(1)} us (paused in GC ${result.coreGcMicros.toFixed(1)}), `;
  return `${core}the writer thread busy ${result.writerMicros.toFixed(1)} us`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--orders');
  const orders = at > 0 ? Number(process.argv[at + 1]) : 200_000;
  const result = await benchCommittedOrders({ orders });
  console.log(
    `${result.orders} orders durably committed through exchange + store: ${Math.round(result.ordersPerSec)} orders/s in ${result.batches} group commits; ` +
      `per order, ${result.cpuMicros.toFixed(1)} us of CPU in all threads, of which ${cpuShares(result)}`,
  );
}

