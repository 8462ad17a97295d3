// The thread's side of a store thread's channel to the core (see store-thread.ts for the core's side). Kept apart
// from the core's side so a thread's bundle does not share a chunk with it: the core finds the built thread
// scripts beside its own module.
import type { MessagePort } from 'node:worker_threads';

/** What every store thread receives in workerData, besides its own fields. */
export interface ThreadData {
  port: MessagePort;
  signal: Int32Array;
}

/** The thread's side: post an answer and wake the core if it sleeps on the signal. */
export function answerCore<Answer>(data: ThreadData, answer: Answer): void {
  data.port.postMessage(answer);
  Atomics.add(data.signal, 0, 1);
  Atomics.notify(data.signal, 0);
}
