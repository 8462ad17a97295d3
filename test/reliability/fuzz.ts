/**
 * `npm run test:fuzz -- --runs 50000`: the long form of the hostile-input properties, REST and WebSocket. Runs
 * their test files with FUZZ_RUNS inputs per property and no per-test timeout; exits as vitest does.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';

const FILES = ['test/reliability/hostile-rest.test.ts', 'test/reliability/hostile-ws.test.ts'];

// FUZZ_RUNS=N still works, as the hostile-rest file's comment has it; --runs wins over it.
const { values } = parseArgs({ options: { runs: { type: 'string', default: process.env['FUZZ_RUNS'] ?? '5000' } }, strict: true });
const runs = Number(values.runs);
if (!Number.isSafeInteger(runs) || runs < 1) {
  process.stderr.write('usage: tsx test/reliability/fuzz.ts [--runs N]\n');
  process.exit(2);
}

const vitest = path.resolve('node_modules/vitest/vitest.mjs');
const started = performance.now();
const result = spawnSync(process.execPath, [vitest, 'run', '--testTimeout', '0', ...FILES], { stdio: 'inherit', env: { ...process.env, FUZZ_RUNS: String(runs) } });
process.stdout.write(`fuzz: ${runs} inputs per property in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
process.exit(result.status ?? 1);
