// The venue's real worker entry with one fault injected: once the file HALT_TRIGGER names appears in the data
// folder, the next journal append fails (as a full disk would fail it) and the file is removed, so the
// worker the supervisor starts again runs clean. Used by venue-halt.test.ts through ts-worker-loader.mjs.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { workerData } from 'node:worker_threads';
import { JournalWriter } from '../../../src-main/venue/store/journal-writer';
import type { WorkerOptions } from '../../../src-main/venue/worker-protocol';
import { HALT_TRIGGER } from './halt-trigger';

const trigger = join((workerData as WorkerOptions).dataDir, HALT_TRIGGER);
const { append } = Object.getOwnPropertyDescriptors(JournalWriter.prototype);
const appendFirst = append?.value as JournalWriter['append'];
JournalWriter.prototype.append = function (this: JournalWriter, ...args: Parameters<JournalWriter['append']>): Promise<void> {
  if (!existsSync(trigger)) return appendFirst.apply(this, args);
  rmSync(trigger);
  return Promise.reject(new Error('injected: no space left on device'));
};

await import('../../../src-main/venue/worker');
