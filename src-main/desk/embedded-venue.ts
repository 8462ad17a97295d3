// The embedded local venue runs in a worker thread on a free loopback port, so matching and SQLite writes
// never stall the windows. The desk reaches it over HTTP/WS like any other environment.
import { Worker } from 'node:worker_threads';
import type { VenueStatus } from '../../src-shared/ipc/contract';
import type { WorkerReport, WorkerOptions } from '../venue/worker-protocol';

export interface EmbeddedVenue {
  status(): VenueStatus;
  stop(): Promise<void>;
}

export function startEmbeddedVenue(workerPath: string, options: WorkerOptions, execArgv: string[] = []): EmbeddedVenue {
  let status: VenueStatus = { state: 'starting', baseUrl: '', wsUrl: '', simulate: options.simulate, detail: '' };
  const worker = new Worker(workerPath, { workerData: options, execArgv });
  worker.on('message', (report: WorkerReport) => {
    switch (report.type) {
      case 'ready':
        status = { ...status, state: 'ready', baseUrl: report.baseUrl, wsUrl: report.wsUrl };
        break;
      case 'failed':
        status = { ...status, state: 'failed', detail: report.reason };
        break;
      case 'stopped':
        status = { ...status, state: 'stopped' };
        break;
    }
  });
  worker.on('error', (err) => {
    status = { ...status, state: 'failed', detail: err.message };
  });
  worker.on('exit', () => {
    if (status.state !== 'failed') status = { ...status, state: 'stopped' };
  });
  return {
    status: () => status,
    stop: () =>
      new Promise<void>((resolve) => {
        if (status.state === 'stopped' || status.state === 'failed') return resolve();
        worker.once('exit', () => resolve());
        worker.postMessage({ type: 'stop' });
      }),
  };
}
