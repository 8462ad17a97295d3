/**
 * A feasibility probe, not the venue: how many orders a second this machine can durably commit with a store
 * built for it. The real engine matches on the core; each order event becomes one compact binary record with a
 * UUIDv7 id; a journal thread makes each batch durable (writev + fdatasync) before its orders are acknowledged;
 * a writer thread inserts compact SQLite rows (integer key, unique binary id, two more indexes, a blob) in
 * ~1,000-order transactions, held within 20,000 orders of the acknowledgements. Left out, so an upper bound:
 * holds, fees and balances, client order ids, the full order record, the journal's checks. docs/performance.md
 * ("What a store built for the target would cost") has its figures.
 *
 * `--history-indexes` gives the tables every index the venue's reads use: orders by user and created time, by user
 * and updated time, by user and client order id, the open orders, and trades by maker, taker and product.
 *
 *   npx tsx bench/lean-pipeline/pipeline.ts [orders] [--history-indexes]
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderBook } from '../../src-main/venue/engine';
import { newUuidV7 } from '../../src-main/venue/ids';

const N = Number(process.argv[2] ?? 300_000);
const HISTORY_INDEXES = process.argv.includes('--history-indexes');
const IN_FLIGHT = 2_000;
const BATCH = 64;
const MAX_LAG = 20_000;
const dir = mkdtempSync(join(tmpdir(), 'lean-'));

// Record layout (Float64 slots): kind(1=order,2=trade), seq, user, side, ticks, lots, filled, status, created, 0
const SLOTS = 10;
const journal = new Worker(new URL('./journal.mjs', import.meta.url), { workerData: { file: join(dir, 'journal.bin') } });
const writer = new Worker(new URL('./writer.mjs', import.meta.url), { workerData: { file: join(dir, 'venue.sqlite'), historyIndexes: HISTORY_INDEXES } });
const channel = new MessageChannel();
journal.postMessage({ port: channel.port1 }, [channel.port1]);
writer.postMessage({ port: channel.port2 }, [channel.port2]);

const book = new OrderBook('BTC-VND', 1);
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);

let buf = new Float64Array(BATCH * 8 * SLOTS);
let ids = Buffer.alloc(BATCH * 16 * 4);
let idsUsed = 0;
let used = 0;
let batchOrders = 0;
let pendingResolves: (() => void)[] = [];
const waiting = new Map<number, (() => void)[]>();
let batchSeq = 0;
let applied = 0;
let journaled = 0;
let lagWaiters: (() => void)[] = [];

function put(kind: number, a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number): void {
  if (used + SLOTS > buf.length) {
    const bigger = new Float64Array(buf.length * 2);
    bigger.set(buf);
    buf = bigger;
  }
  buf[used] = kind; buf[used + 1] = a; buf[used + 2] = b; buf[used + 3] = c; buf[used + 4] = d;
  buf[used + 5] = e; buf[used + 6] = f; buf[used + 7] = g; buf[used + 8] = h; buf[used + 9] = 0;
  used += SLOTS;
}

function flush(): void {
  if (batchOrders === 0) return;
  batchSeq += 1;
  waiting.set(batchSeq, pendingResolves);
  pendingResolves = [];
  const out = buf.slice(0, used);
  used = 0;
  const idOut = new Uint8Array(ids.subarray(0, idsUsed));
  idsUsed = 0;
  journal.postMessage({ seq: batchSeq, orders: batchOrders, data: out.buffer, ids: idOut.buffer }, [out.buffer, idOut.buffer]);
  batchOrders = 0;
}

journal.on('message', (m: { seq: number }) => {
  journaled = m.seq;
  const list = waiting.get(m.seq);
  waiting.delete(m.seq);
  if (list !== undefined) for (const r of list) r();
});
writer.on('message', (m: { appliedOrders: number }) => {
  applied = m.appliedOrders;
  const ws = lagWaiters;
  lagWaiters = [];
  for (const w of ws) w();
});

let seq = 0;
let placed = 0;
let flushScheduled = false;
async function place(): Promise<void> {
  // Back-pressure: the tables may lag the acknowledgements by at most MAX_LAG orders.
  while (placed - applied > MAX_LAG) await new Promise<void>((r) => lagWaiters.push(r));
  const side = rnd() < 0.5 ? 'BUY' : 'SELL';
  const offset = Math.floor(rnd() * 20) - (side === 'BUY' ? 12 : 8);
  const ticks = 250_000 + offset;
  const lots = 1 + Math.floor(rnd() * 50);
  const user = seq % 2;
  const s = ++seq;
  const r = book.submit({ seq: s, owner: user, side, limitTicks: ticks, lots, quoteBudget: Number.POSITIVE_INFINITY, tif: 'GTC', postOnly: false, stp: 'CANCEL_TAKER' });
  const now = Date.now() * 1e6;
  for (const f of r.fills) {
    put(2, f.makerSeq, f.takerSeq, f.priceTicks, f.lots, f.notional, 0, 0, now);
  }
  put(1, s, user, side === 'BUY' ? 1 : 2, ticks, lots, r.filledLots, r.outcome === 'RESTED' ? 1 : 2, now);
  if (idsUsed + 16 > ids.length) { const b = Buffer.alloc(ids.length * 2); ids.copy(b); ids = b; }
  ids.write(newUuidV7().replace(/-/g, ''), idsUsed, 16, 'hex');
  idsUsed += 16;
  placed += 1;
  batchOrders += 1;
  const done = new Promise<void>((resolve) => pendingResolves.push(resolve));
  if (batchOrders >= BATCH) flush();
  else if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      flush();
    });
  }
  await done;
}

const start = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
let next = 0;
await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
  for (let i = next++; i < N; i = next++) await place();
}));
const secs = Number(process.hrtime.bigint() - start) / 1e9;
const cpu = process.cpuUsage(cpu0);
// Let the tables catch up, then report both rates.
while (applied < N) await new Promise<void>((r) => lagWaiters.push(r));
const secsAll = Number(process.hrtime.bigint() - start) / 1e9;
console.log(`${N} orders acknowledged after fdatasync: ${Math.round(N / secs)} orders/s; all in the tables after ${secsAll.toFixed(2)} s (${Math.round(N / secsAll)} orders/s); process CPU ${(((cpu.user + cpu.system) / N)).toFixed(1)} us/order; journaled batches ${journaled}`);
await journal.terminate();
await writer.terminate();
