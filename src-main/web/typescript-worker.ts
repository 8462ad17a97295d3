// The venue's worker under Node without a build (browser mode and tests): ts-worker-loader.mjs registers tsx in
// the worker's thread, then runs the TypeScript entry.
import { resolve } from 'node:path';
import type { WorkerScript } from '../desk/embedded-venue';

export function venueWorkerFromSource(): WorkerScript {
  return {
    script: resolve(import.meta.dirname, '../venue/ts-worker-loader.mjs'),
    argv: [resolve(import.meta.dirname, '../venue/worker.ts')],
  };
}
