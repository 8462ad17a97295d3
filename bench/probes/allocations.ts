/**
 * Probe, not part of `npm run bench`: where the committed-orders bench allocates, by function and line. Garbage
 * collection is a third of the core thread's CPU an order (docs/performance.md), so bytes allocated an order are
 * what to cut. Samples every allocation of the timed run, including objects already collected, through the inspector.
 * Under tsx every line number is 1, so sites are named by function and file.
 *
 *   npx tsx bench/probes/allocations.ts [orders] [top]
 */
import { Session } from 'node:inspector/promises';
import { benchCommittedOrders } from '../committed-orders';

interface Node {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: Node[];
}

const orders = Number(process.argv[2] ?? 100_000);
const top = Number(process.argv[3] ?? 30);
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
const result = await benchCommittedOrders({
  orders,
  started: async () => {
    await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  },
});
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };
session.disconnect();

const bySite = new Map<string, number>();
let total = 0;
const visit = (node: Node): void => {
  const { functionName, url } = node.callFrame;
  const site = `${functionName || '(anonymous)'} ${url.replace(/^.*\/work\/main\//, '') || '(native)'}`;
  bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  total += node.selfSize;
  for (const child of node.children) visit(child);
};
visit(profile.head);
console.log(`${orders} orders at ${Math.round(result.ordersPerSec)}/s: ${(total / orders / 1024).toFixed(2)} KiB allocated an order (main thread)`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(bytes / orders).toFixed(0).padStart(6)} B  ${site}`);
