// Messages between the desk and the venue's worker thread.
export interface WorkerOptions {
  dataDir: string;
  simulate: boolean;
  /** Loopback port to listen on; 0 (the default) takes a free one. A restarted venue takes its old one again. */
  port?: number;
  /** Path of better-sqlite3's native module built for this runtime (Electron has its own ABI). */
  nativeBinding?: string;
}

export type WorkerReport =
  /** `local`: the local user's credentials, handed over in memory so they never sit in a file. */
  | { type: 'ready'; baseUrl: string; wsUrl: string; local: LocalCredentials | undefined }
  | { type: 'failed'; reason: string }
  /** `error`: the venue's close failed (its last flush, say); it is stopped all the same. */
  | { type: 'stopped'; error?: string };

export type WorkerCommand = { type: 'stop' };

export interface LocalCredentials {
  user_id: string;
  api_key: string;
  api_secret: string;
}
