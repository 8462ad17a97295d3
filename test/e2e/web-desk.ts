/**
 * The desk in browser mode (`npm run web`) for an end-to-end test file of its own: started on a temporary data folder
 * and stopped with its whole process group, so the folder is free when the test removes it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The desk on `dir`, once it prints its address (with the one-time token). */
export function startDesk(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn('npm', ['run', 'web', '--', '--port', '0', '--data', dir], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolveReady, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`npm run web printed no ready line:\n${output}`)), 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const ready = /desk ready at (\S+)/.exec(output);
      if (ready?.[1] !== undefined) {
        clearTimeout(timer);
        resolveReady({ child, url: ready[1] });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`npm run web exited with ${code}:\n${output}`))));
  });
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function stopDesk(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || !groupAlive(pid)) return;
  process.kill(-pid, 'SIGTERM');
  for (let waited = 0; groupAlive(pid); waited += 100) {
    if (waited > 30_000) throw new Error(`npm run web (group ${pid}) is still running 30 s after SIGTERM`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

