/**
 * `npm run bench [-- --quick]`: every benchmark in one report. Each figure stands beside a baseline or peer
 * measured in the same run on the same machine, with the ratio and the target; nothing here is asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchCommittedOrders } from './committed-orders';
import { benchEngine } from './engine';
import { benchRenderer, FRAME_60HZ_MS, withinOneFrame } from './renderer';
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

const engineOps = quick ? 200_000 : 1_000_000;
const engine = await benchEngine({ operations: engineOps, seed: 42 });
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
  const store = await benchStore({ orders, dir });
  const committed = await benchCommittedOrders({ orders });
  const baseline = store.rows[0]?.perSec ?? Number.NaN;
  figures.push({
    name: 'Orders durably committed per second through exchange + store, no network',
    value: fmt(committed.ordersPerSec),
    baseline: `batched SQLite inserts of order rows ${fmt(baseline)}`,
    ratio: committed.ordersPerSec / baseline,
    target: '>= 0.5x and >= 100,000/s',
    met: committed.ordersPerSec / baseline >= 0.5 && committed.ordersPerSec >= 100_000,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const ws = await benchWs({ orders: quick ? 10_000 : 40_000 });
figures.push({
  name: 'WebSocket create_order, one connection, 256 in flight, each answered after commit',
  value: `${fmt(ws.venuePerSec)}/s`,
  baseline: `bare ws echo server ${fmt(ws.echoPerSec)}/s`,
  ratio: ws.venuePerSec / ws.echoPerSec,
  target: '>= 0.5x',
  met: ws.venuePerSec / ws.echoPerSec >= 0.5,
});

// Frame times are measured in Chromium against one 60 Hz frame; a gap under 1.5 frames counts as one frame
// (rAF timestamps wobble by tenths of a millisecond: an idle page has p99 16.8 ms).
const renderer = await benchRenderer({ quick });
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

const date = new Date().toISOString().slice(0, 10);
console.log(`\nNova Desk benchmarks, ${date}${quick ? ' (quick)' : ''}\n`);
console.log('| Figure | Ours | Baseline in the same run | Ratio | Target | Verdict |');
console.log('|---|---|---|---|---|---|');
for (const f of figures) {
  console.log(`| ${f.name} | ${f.value} | ${f.baseline} | ${f.ratio.toFixed(2)}x | ${f.target} | ${f.met ? 'met' : 'short'} |`);
}
