// Messages between the desk and the venue's worker thread.
export interface WorkerOptions {
  dataDir: string;
  simulate: boolean;
  /** Path of better-sqlite3's native module built for this runtime (Electron has its own ABI). */
  nativeBinding?: string;
}

export type WorkerReport =
  | { type: 'ready'; baseUrl: string; wsUrl: string }
  | { type: 'failed'; reason: string }
  | { type: 'stopped' };

export type WorkerCommand = { type: 'stop' };
