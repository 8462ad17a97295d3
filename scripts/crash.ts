/**
 * `npm run test:crash -- --cycles 200 [--seed 7]`: the long crash-recovery run. Prints one line per cycle and a
 * summary with restart-to-ready figures; exits 1 if any check failed.
 */
import { parseArgs } from 'node:util';
import { runCrashCycles } from '../test/reliability/crash-harness';

const { values } = parseArgs({ options: { cycles: { type: 'string', default: '200' }, seed: { type: 'string' } }, strict: true });
const cycles = Number(values.cycles);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
if (!Number.isInteger(cycles) || cycles < 1 || !Number.isInteger(seed)) {
  process.stderr.write('usage: tsx scripts/crash.ts [--cycles N] [--seed S]\n');
  process.exit(2);
}

const started = performance.now();
const report = await runCrashCycles({ cycles, seed, log: (line) => process.stdout.write(`${line}\n`) });
const ready = report.cycles.map((c) => c.readyMs).sort((a, b) => a - b);
const at = (q: number): string => (ready[Math.min(ready.length - 1, Math.floor(q * ready.length))] ?? 0).toFixed(0);
process.stdout.write(
  [
    `seed ${seed}: ${report.cycles.length} cycles in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    `orders acknowledged ${report.acknowledged} (${report.acknowledgedOverWebSocket} over WebSocket), unanswered ${report.unanswered} (${report.resent} absent and resent)`,
    `restart to ready (ms): first start ${report.firstStartMs.toFixed(0)}, median ${at(0.5)}, p95 ${at(0.95)}, max ${at(1)}`,
    `failures ${report.failures.length}`,
  ].join('\n') + '\n',
);
process.exit(report.failures.length === 0 ? 0 : 1);
