// The embedded local venue runs in a worker thread on a free loopback port, so matching and SQLite writes
// never stall the windows. The desk reaches it over HTTP/WS like any other environment.
import { Worker } from 'node:worker_threads';
import type { VenueStatus } from '../../src-shared/ipc/contract';
import type { LocalCredentials, WorkerReport, WorkerOptions } from '../venue/worker-protocol';

export interface EmbeddedVenue {
  /** Where the worker is given to write its data. */
  readonly dataDir: string;
  status(): VenueStatus;
  /** The local user's key and secret, as the ready worker handed them over (never read from a file). */
  localCredentials(): LocalCredentials | undefined;
  /** Resolves once the venue listens; rejects with the worker's reason if it could not start. */
  ready(): Promise<VenueStatus>;
  stop(): Promise<void>;
}

/** How to start the worker: a built .js entry (Electron), or a loader entry with its argument (browser mode, tests). */
export interface WorkerScript {
  readonly script: string;
  readonly argv?: readonly string[];
}

export function startEmbeddedVenue(entry: WorkerScript, options: WorkerOptions): EmbeddedVenue {
  let status: VenueStatus = { state: 'starting', baseUrl: '', wsUrl: '', simulate: options.simulate, detail: '' };
  let local: LocalCredentials | undefined;
  let settle: { resolve: (s: VenueStatus) => void; reject: (e: Error) => void } | undefined;
  const started = new Promise<VenueStatus>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // A failure nobody awaited yet must not crash the process; ready() still reports it.
  started.catch(() => undefined);
  const worker = new Worker(entry.script, { workerData: options, argv: [...(entry.argv ?? [])] });
  worker.on('message', (report: WorkerReport) => {
    switch (report.type) {
      case 'ready':
        status = { ...status, state: 'ready', baseUrl: report.baseUrl, wsUrl: report.wsUrl };
        local = report.local;
        settle?.resolve(status);
        break;
      case 'failed':
        status = { ...status, state: 'failed', detail: report.reason };
        settle?.reject(new Error(`the local venue did not start: ${report.reason}`));
        break;
      case 'stopped':
        status = { ...status, state: 'stopped' };
        break;
    }
  });
  worker.on('error', (err) => {
    status = { ...status, state: 'failed', detail: err.message };
    settle?.reject(new Error(`the local venue failed: ${err.message}`));
  });
  worker.on('exit', () => {
    if (status.state !== 'failed') status = { ...status, state: 'stopped' };
    settle?.reject(new Error('the local venue stopped'));
  });
  return {
    dataDir: options.dataDir,
    status: () => status,
    localCredentials: () => local,
    ready: () => started,
    stop: () =>
      new Promise<void>((resolve) => {
        if (status.state === 'stopped' || status.state === 'failed') return resolve();
        worker.once('exit', () => resolve());
        worker.postMessage({ type: 'stop' });
      }),
  };
}
