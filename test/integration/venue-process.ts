/**
 * `npm run venue` as its own process (tsx on src-main/venue/cli.ts), for the tests that need what only a process
 * shows: its exit code, its one line on stderr, a SIGKILL, a file size limit. Killed when its test finishes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

const CLI = join(import.meta.dirname, '../../src-main/venue/cli.ts');

export interface VenueRun {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exit: Promise<number | null>;
}

export interface VenueRunOptions {
  uid?: number;
  gid?: number;
  /** No file the venue writes may grow past this many KiB (ulimit -f: what a full disk does to it). */
  fileLimitKib?: number;
}

export function runVenue(args: string[], options: VenueRunOptions = {}): VenueRun {
  const venue = [process.execPath, '--import', 'tsx', CLI, ...args];
  const user = { ...(options.uid === undefined ? {} : { uid: options.uid }), ...(options.gid === undefined ? {} : { gid: options.gid }) };
  const child =
    options.fileLimitKib === undefined
      ? spawn(venue[0] as string, venue.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], ...user })
      : spawn('bash', ['-c', `ulimit -f ${options.fileLimitKib} && exec "$@"`, 'bash', ...venue], { stdio: ['ignore', 'pipe', 'pipe'], ...user });
  const run: VenueRun = { child, stdout: '', stderr: '', exit: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
  // A test that fails half-way must not leave its venue running.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  child.stdout?.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  return run;
}

/** The venue's base URL once it says it listens; throws if it exits first or never does. */
export async function listening(run: VenueRun): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const match = /venue listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(run.stdout);
    if (match?.[1] !== undefined) return match[1];
    if (run.child.exitCode !== null) throw new Error(`venue exited: ${run.stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`venue never listened: ${run.stderr}`);
}
