// The venue's real worker entry with one fault injected: once the file THROW_TRIGGER names appears in the data
// folder, an exception nothing catches is thrown on the worker's thread (as a bug in a timer would), and the file
// is removed, so the worker the supervisor starts again runs clean. Used by venue-uncaught.test.ts.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { workerData } from 'node:worker_threads';
import type { WorkerOptions } from '../../../src-main/venue/worker-protocol';

const THROW_TRIGGER = 'throw-uncaught';

const trigger = join((workerData as WorkerOptions).dataDir, THROW_TRIGGER);
const watch = setInterval(() => {
  if (!existsSync(trigger)) return;
  rmSync(trigger);
  throw new Error('injected: a bug nothing caught');
}, 20);
watch.unref();

await import('../../../src-main/venue/worker');
