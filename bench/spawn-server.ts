// Start a benchmark server in its own process (so load and server do not share an event loop) and wait for
// its "ready ..." line.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Server {
  words: string[];
  pid: number;
  /** CPU time (user + system, every thread) the server process has used so far, in microseconds (Linux only). */
  cpuMicros(): number;
  stop(): Promise<void>;
}

let ticksPerSecond: number | undefined;

/** utime + stime of a process from /proc: fields 14 and 15 after the command name, in clock ticks. */
function processCpuMicros(pid: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
}

export function spawnServer(script: string, args: readonly string[] = []): Promise<Server> {
  const child: ChildProcess = spawn(process.execPath, [...(process.env['BENCH_SERVER_ARGS']?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', join(import.meta.dirname, 'servers', script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // A bench that dies mid-run must not leave its server running (and loading the next run).
  const orphan = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', orphan);
  child.once('exit', () => process.off('exit', orphan));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^ready (.*)$/m.exec(out);
      if (line?.[1] === undefined) return;
      resolve({
        words: line[1].trim().split(' '),
        pid: child.pid ?? 0,
        cpuMicros: () => processCpuMicros(child.pid ?? 0),
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
}
