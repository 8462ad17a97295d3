// A worker thread's entry that runs a TypeScript entry (process.argv[2]) without a build: workers do not
// inherit their parent's tsx loader, so this registers it in the worker's own thread first.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';

register();
const entry = process.argv[2];
if (entry === undefined) throw new Error('ts-worker-loader.mjs needs the entry to run as its argument');
await import(pathToFileURL(entry).href);
