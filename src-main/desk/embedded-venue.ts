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
  /** Resolves once the venue first listens; rejects with the worker's reason if it could not start. */
  ready(): Promise<VenueStatus>;
  /**
   * Ends the worker at once, as a crash would: nothing in flight is answered. The supervisor then starts it
   * again on the same folder and port, and the desk's session reconnects and reconciles.
   */
  terminate(): Promise<void>;
  /** Resolves once the worker has ended; rejects, once it has, if the venue's close failed, saying why. */
  stop(): Promise<void>;
}

/** How to start the worker: a built .js entry (Electron), or a loader entry with its argument (browser mode, tests). */
export interface WorkerScript {
  readonly script: string;
  readonly argv?: readonly string[];
}

/** The desk's local venue is a practice market: simulated unless a caller (a test) asks for a quiet one. */
export type EmbeddedVenueOptions = Omit<WorkerOptions, 'simulate'> & { simulate?: boolean };

/** A venue that dies this many times within the window is left failed rather than restarted forever. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

/**
 * Starts the venue's worker and keeps it running: a worker that exits without being asked to (a crash, an
 * out-of-memory kill) is started again on the same data folder and the same port, so what it acknowledged is
 * back (the store's journal) and the desk's connection finds it where it was.
 */
export function startEmbeddedVenue(entry: WorkerScript, given: EmbeddedVenueOptions): EmbeddedVenue {
  const options: WorkerOptions = { ...given, simulate: given.simulate ?? true };
  let status: VenueStatus = { state: 'starting', baseUrl: '', wsUrl: '', simulate: options.simulate, detail: '' };
  let local: LocalCredentials | undefined;
  let settle: { resolve: (s: VenueStatus) => void; reject: (e: Error) => void } | undefined;
  const started = new Promise<VenueStatus>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // A failure nobody awaited yet must not crash the process; ready() still reports it.
  started.catch(() => undefined);
  let stopping = false;
  /** Why the venue's close failed, as its worker reported it stopping. */
  let closeFailure: string | undefined;
  let port = options.port ?? 0;
  const restarts: number[] = [];
  let worker = launch();

  function launch(): Worker {
    const next = new Worker(entry.script, { workerData: { ...options, port } satisfies WorkerOptions, argv: [...(entry.argv ?? [])] });
    next.on('message', (report: WorkerReport) => {
      switch (report.type) {
        case 'ready':
          status = { ...status, state: 'ready', baseUrl: report.baseUrl, wsUrl: report.wsUrl, detail: '' };
          port = Number(new URL(report.baseUrl).port);
          local = report.local;
          settle?.resolve(status);
          break;
        case 'failed': {
          const reason = withRemedy(report.reason);
          status = { ...status, state: 'failed', detail: reason };
          settle?.reject(new Error(`the local venue did not start: ${reason}`));
          break;
        }
        case 'stopped':
          closeFailure = report.error;
          status = { ...status, state: 'stopped', detail: report.error === undefined ? '' : `closing the local venue failed: ${report.error}` };
          break;
      }
    });
    /** Why a running worker ended without being asked to (an exception nothing caught on its thread). */
    let crash: string | undefined;
    next.on('error', (err) => {
      const reason = withRemedy(err.message);
      // A running venue's uncaught exception is a crash like any other: the exit that follows starts it again.
      if (status.state === 'ready' && !stopping) {
        crash = reason;
        return;
      }
      status = { ...status, state: 'failed', detail: reason };
      settle?.reject(new Error(`the local venue failed: ${reason}`));
    });
    next.on('exit', () => {
      if (!stopping && status.state === 'ready' && mayRestart()) {
        status = { ...status, state: 'starting', detail: `the local venue stopped unexpectedly${crash === undefined ? '' : ` (${crash})`} and is starting again` };
        worker = launch();
        return;
      }
      // Ended unasked and not started again (too many ends within the window, or one while starting again): failed,
      // saying why. 'stopped' would read as the desk's own doing, with no reason to act on.
      if (!stopping && status.state === 'ready') status = { ...status, state: 'failed', detail: `the local venue stopped unexpectedly too often${crash === undefined ? '' : `: ${crash}`}; restart the desk to start it again` };
      else if (!stopping && status.state === 'starting' && restarts.length > 0) status = { ...status, state: 'failed', detail: `the local venue stopped unexpectedly while starting again${crash === undefined ? '' : `: ${crash}`}; restart the desk to start it again` };
      else if (status.state !== 'failed') status = { ...status, state: 'stopped' };
      settle?.reject(new Error('the local venue stopped'));
    });
    return next;
  }

  function mayRestart(): boolean {
    const now = Date.now();
    while (restarts.length > 0 && (restarts[0] ?? now) < now - RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length >= MAX_RESTARTS) return false;
    restarts.push(now);
    return true;
  }

  return {
    dataDir: options.dataDir,
    status: () => status,
    localCredentials: () => local,
    ready: () => started,
    terminate: async () => {
      await worker.terminate();
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        stopping = true;
        if (status.state === 'stopped' || status.state === 'failed') return resolve();
        // Said to the one stopping it (the app's shutdown logs it): its last flush may not have reached the disk.
        worker.once('exit', () => (closeFailure === undefined ? resolve() : reject(new Error(`the local venue stopped, but closing it failed: ${closeFailure}`))));
        worker.postMessage({ type: 'stop' });
      }),
  };
}

/**
 * Node's own advice for a native module built for another runtime ("npm rebuild") would build it for Node again:
 * a checkout run under Electron needs the Electron build (scripts/native-electron.mjs).
 */
export function withRemedy(reason: string): string {
  if (!/NODE_MODULE_VERSION/.test(reason)) return reason;
  return `${reason} — better-sqlite3 is not built for Electron here: run \`npm run rebuild:electron\` in the checkout`;
}
