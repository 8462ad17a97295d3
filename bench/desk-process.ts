/**
 * The desk in browser mode, as `npm run web` starts it (the embedded venue in a worker thread of the same
 * process, with its simulated market), run straight under node with tsx's loader so that the process measured
 * is the desk itself and not npm or tsx's launcher (tsx/esm: with all of tsx imported, the venue's worker thread
 * loads nothing and exits). The renderer is built first when its sources are newer, as
 * the preweb script does.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

export interface DeskProcess {
  /** The ready line's address, with its one-time token. */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export function ensureRenderer(): void {
  const built = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src-main/web/ensure-renderer.ts')], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (built.status !== 0) throw new Error('the renderer did not build (see above)');
}

/** `probes`: modules to load into the desk's process first (node --import), with `env` for them. */
export function startDesk(dataDir: string, opts: { probes?: string[]; env?: Record<string, string> } = {}): Promise<DeskProcess> {
  // BENCH_DESK_ARGS: node options for the desk's process, e.g. --cpu-prof to profile it.
  const extra = process.env['BENCH_DESK_ARGS']?.split(' ').filter(Boolean) ?? [];
  const probes = (opts.probes ?? []).flatMap((probe) => ['--import', probe]);
  const child = spawn(process.execPath, [...extra, '--import', 'tsx/esm', ...probes, join(ROOT, 'src-main/web/cli.ts'), '--port', '0', '--data', dataDir], {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolveReady, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the desk printed no ready line in 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const ready = /desk ready at (\S+)/.exec(output);
      if (ready?.[1] === undefined) return;
      clearTimeout(timer);
      resolveReady({
        url: ready[1],
        pid: child.pid ?? 0,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the desk exited with ${code}:\n${output}`));
    });
  });
}
