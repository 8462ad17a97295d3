/**
 * `npm run bench [-- --quick]`: every benchmark in one report. Each figure stands beside a baseline or peer
 * measured in the same run on the same machine, with the ratio and the target; nothing here is asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchClickAck } from './click-ack';
import { benchCommittedOrders, cpuShares } from './committed-orders';
import { benchEngine } from './engine';
import { benchMemory } from './memory';
import { benchRenderer, FRAME_60HZ_MS, withinOneFrame } from './renderer';
import { benchRest } from './rest';
import { benchRestart } from './restart';
import { benchStore } from './store';
import { benchWs } from './ws';

interface Figure {
  name: string;
  value: string;
  baseline: string;
  ratio: number;
  target: string;
  met: boolean;
}

const quick = process.argv.includes('--quick');
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const figures: Figure[] = [];

/** Runs one benchmark and says on stderr how long it took, so a slow run shows where its time went. */
async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  console.error(`bench: ${name} took ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

const engineOps = quick ? 200_000 : 1_000_000;
const engine = await timed('engine', () => benchEngine({ operations: engineOps, seed: 42 }));
const [ours, peer] = engine.rows;
if (ours !== undefined && peer !== undefined) {
  figures.push({
    name: `Engine ops/s on the seeded ${fmt(engineOps)}-operation stream (p50/p99 µs)`,
    value: `${fmt(ours.opsPerSec)} (${ours.p50us.toFixed(2)}/${ours.p99us.toFixed(2)})`,
    baseline: `nodejs-order-book ${fmt(peer.opsPerSec)} (${peer.p50us.toFixed(2)}/${peer.p99us.toFixed(2)})`,
    ratio: engine.ratio,
    target: '>= 10x, same final book',
    met: engine.ratio >= 10 && engine.sameFinalBook,
  });
}

const orders = quick ? 50_000 : 200_000;
const dir = mkdtempSync(join(tmpdir(), 'nova-bench-'));
try {
  const store = await timed('store', () => benchStore({ orders, dir }));
  const committed = await timed('committed orders', () => benchCommittedOrders({ orders }));
  const baseline = store.rows[0]?.perSec ?? Number.NaN;
  figures.push({
    name: 'Orders durably committed per second through exchange + store, no network',
    value: `${fmt(committed.ordersPerSec)}; per order ${committed.cpuMicros.toFixed(1)} µs of CPU in all threads (20 µs is two cores at 100,000/s), of which ${cpuShares(committed).replaceAll(' us', ' µs')}`,
    baseline: `batched SQLite inserts of order rows ${fmt(baseline)}`,
    ratio: committed.ordersPerSec / baseline,
    target: '>= 0.5x and >= 100,000/s',
    met: committed.ordersPerSec / baseline >= 0.5 && committed.ordersPerSec >= 100_000,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const rest = await timed('REST', () => benchRest({ seconds: quick ? 3 : 10, connections: 50 }));
const restRatio = rest.venue.perSec / rest.bare.perSec;
const refused = rest.venue.non2xx + rest.venue.errors + rest.venue.timeouts;
figures.push({
  name: `REST POST /api/v1/orders, wait true, ${rest.connections} connections, autocannon from another process (orders/s, p99)`,
  value: `${fmt(rest.venue.perSec)}/s, p99 ${rest.venue.p99ms} ms${refused > 0 ? ` (${fmt(refused)} non-2xx or failed)` : ''}`,
  baseline: `bare node:http, fixed JSON body ${fmt(rest.bare.perSec)}/s, p99 ${rest.bare.p99ms} ms`,
  ratio: restRatio,
  target: '>= 0.5x',
  met: restRatio >= 0.5 && refused === 0,
});

const ws = await timed('WebSocket', () => benchWs({ orders: quick ? 10_000 : 40_000, rounds: quick ? 1 : 3 }));
const wsRounds = ws.ratios.length > 1 ? `, median of ${ws.ratios.length} alternating rounds (ratios ${ws.ratios.map((r) => r.toFixed(2)).join(', ')})` : '';
figures.push({
  name: 'WebSocket create_order, one connection, 256 in flight, each answered after commit',
  value: `${fmt(ws.venuePerSec)}/s${wsRounds}; CPU an answer: the venue process ${ws.venueServerMicros.toFixed(1)} µs, the bench client ${ws.venueClientMicros.toFixed(1)} µs`,
  baseline: `bare ws echo server ${fmt(ws.echoPerSec)}/s; CPU an answer: the server ${ws.echoServerMicros.toFixed(1)} µs, the client ${ws.echoClientMicros.toFixed(1)} µs`,
  ratio: ws.ratio,
  target: '>= 0.5x',
  met: ws.ratio >= 0.5,
});

const clicks = await timed('click to acknowledgement', () => benchClickAck({ orders: quick ? 50 : 200 }));
const extraMs = clicks.venue.p95ms - clicks.stub.p95ms;
figures.push({
  name: `Click to acknowledgement: Buy clicked until its row is in Open orders, browser mode, local venue, p95 (p50) over ${clicks.venue.samples} orders`,
  value: `${clicks.venue.p95ms.toFixed(1)} ms (${clicks.venue.p50ms.toFixed(1)}), +${extraMs.toFixed(1)} ms; bridge round trip ${clicks.venue.bridgeP95ms?.toFixed(1) ?? '?'} (${clicks.venue.bridgeP50ms?.toFixed(1) ?? '?'}), of it desk to venue REST ${clicks.venue.restP95ms?.toFixed(1) ?? '?'} (${clicks.venue.restP50ms?.toFixed(1) ?? '?'})`,
  baseline: `same page, stub bridge ${clicks.stub.p95ms.toFixed(1)} ms (${clicks.stub.p50ms.toFixed(1)})`,
  ratio: clicks.venue.p95ms / clicks.stub.p95ms,
  target: 'p95 <= stub + 30 ms',
  met: extraMs <= 30,
});

// Frame times are measured in Chromium against one 60 Hz frame; a gap under 1.5 frames counts as one frame
// (rAF timestamps wobble by tenths of a millisecond: an idle page has p99 16.8 ms).
const renderer = await timed('renderer', () => benchRenderer({ quick }));
const [idle, ...runs] = renderer.rows;
for (const r of runs) {
  figures.push({
    name: `Renderer frame time p95 (p50/p99 ms), ${r.name}`,
    value: `${r.p95ms.toFixed(1)} ms (${r.p50ms.toFixed(1)}/${r.p99ms.toFixed(1)}), ${r.dropped}/${r.frames} dropped, ${r.mainCpuMsPerFrame.toFixed(1)} ms CPU/frame`,
    baseline: `one 60 Hz frame ${FRAME_60HZ_MS.toFixed(1)} ms (idle page p95 ${idle?.p95ms.toFixed(1) ?? '?'})`,
    ratio: FRAME_60HZ_MS / r.p95ms,
    target: 'p95 <= 16.7 ms',
    met: withinOneFrame(r.p95ms),
  });
}

// The quick form restarts a smaller history (100,000 orders, 10,000 resting); memory always has 100,000 resting.
const restart = await timed('restart', () => benchRestart(quick ? { orders: 100_000, resting: 10_000, runs: 3 } : { orders: 1_000_000, resting: 100_000, runs: 3 }));
const restartRatio = restart.readyMs / restart.selectMs;
figures.push({
  name: `Restart to ready (startVenue to listening), ${fmt(restart.orders)} orders in history, ${fmt(restart.resting)} resting${quick ? ' (quick size)' : ''}`,
  value: `${fmt(restart.readyMs)} ms (${fmt(restart.processReadyMs)} ms from process start)`,
  baseline: `one SELECT of the open orders ${fmt(restart.selectMs)} ms (${fmt(restart.processSelectMs)} ms from process start)`,
  ratio: restartRatio,
  target: '<= 2 s and <= 3x',
  met: restart.readyMs <= 2_000 && restartRatio <= 3,
});

const memory = await timed('memory', () => benchMemory(quick ? { orders: 110_000, resting: 100_000, settleMs: 2_000 } : { orders: 1_000_000, resting: 100_000, settleMs: 3_000 }));
figures.push({
  name: `Memory (RSS) of the desk process, main thread + venue worker, ${fmt(memory.loaded.resting)} orders resting`,
  value: `${fmt(memory.loaded.rssMB)} MB (peak ${fmt(memory.loaded.peakMB)})`,
  baseline: `same process idle ${fmt(memory.idle.rssMB)} MB (peak ${fmt(memory.idle.peakMB)})`,
  ratio: memory.loaded.rssMB / memory.idle.rssMB,
  target: '<= 300 MB',
  met: memory.loaded.rssMB <= 300,
});

const date = new Date().toISOString().slice(0, 10);
console.log(`\nNova Desk benchmarks, ${date}${quick ? ' (quick)' : ''}\n`);
console.log('| Figure | Ours | Baseline in the same run | Ratio | Target | Verdict |');
console.log('|---|---|---|---|---|---|');
for (const f of figures) {
  console.log(`| ${f.name} | ${f.value} | ${f.baseline} | ${f.ratio.toFixed(2)}x | ${f.target} | ${f.met ? 'met' : 'short'} |`);
}
