/**
 * Loaded into the desk's process by the click-to-acknowledgement bench (node --import): times each
 * POST /api/v1/orders the desk sends to its venue, from the fetch call to the response, and writes the times
 * (ms, one JSON array) to $BENCH_ORDER_FETCH_TIMES when the process exits. That splits the wait outside the
 * page into the venue's share (HTTP, engine, commit) and the desk's own. Plain JavaScript: worker threads
 * inherit the --import before they can load TypeScript; only the main thread, where the desk runs, is timed.
 */
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env['BENCH_ORDER_FETCH_TIMES'];
if (file !== undefined && isMainThread) {
  const times = [];
  const fetchFirst = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (init?.method !== 'POST' || !url.endsWith('/api/v1/orders')) return fetchFirst(input, init);
    const start = performance.now();
    const response = await fetchFirst(input, init);
    times.push(performance.now() - start);
    return response;
  };
  process.on('exit', () => writeFileSync(file, JSON.stringify(times)));
}
