// A data folder's venue.lock deleted or replaced while its venue runs (someone "cleaning up a stale lock") must not
// let a second venue open the folder: the two would take orders side by side and a restart would lose some of the
// ones they acknowledged. Real venue processes on one temp folder, ports picked by the OS.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';

const CLI = join(import.meta.dirname, '../../src-main/venue/cli.ts');

interface Run {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exit: Promise<number | null>;
}

function runVenue(data: string): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--data', data, '--order-rate', '0', '--request-rate', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = { child, stdout: '', stderr: '', exit: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  child.stdout?.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  return run;
}

/** The base URL once listening, or undefined if the venue exited first. */
async function listening(run: Run): Promise<string | undefined> {
  const exited = run.exit.then(() => undefined);
  for (;;) {
    const match = /venue listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(run.stdout);
    if (match?.[1] !== undefined) return match[1];
    if (await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 50))])) {
      const late = /venue listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(run.stdout);
      return late?.[1];
    }
  }
}

interface Trader {
  userId: string;
  headers: Record<string, string>;
}

function admin(data: string): Trader {
  const boot = JSON.parse(readFileSync(join(data, 'bootstrap.json'), 'utf8')) as Record<string, string>;
  return { userId: boot['user_id'] ?? '', headers: { 'nova-key': boot['api_key'] ?? '', 'nova-secret': boot['api_secret'] ?? '' } };
}

async function placeSells(baseUrl: string, trader: Trader, count: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const reply = await fetch(`${baseUrl}/api/v1/orders`, {
      method: 'POST',
      headers: { ...trader.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ product_id: 'BTC-VND', type: 'LIMIT', side: 'SELL', limit_price: String(3_000_000_000 + i * 10_000), base_size: '0.001', client_order_id: `${tag}${i}` }),
    });
    expect(reply.status, await reply.clone().text()).toBe(200);
    ids.push(((await reply.json()) as { order: { order_id: string } }).order.order_id);
  }
  return ids;
}

async function activeOrderIds(baseUrl: string, trader: Trader): Promise<string[]> {
  const reply = await fetch(`${baseUrl}/api/v1/orders/active`, { headers: trader.headers });
  expect(reply.status).toBe(200);
  return ((await reply.json()) as { orders: { order_id: string }[] }).orders.map((o) => o.order_id).sort();
}

describe('a venue whose venue.lock was deleted', () => {
  it.each([
    ['deleted', (lock: string) => rmSync(lock)],
    ['replaced by an empty file', (lock: string) => {
      rmSync(lock);
      writeFileSync(lock, '');
    }],
  ])('keeps the folder when its lock is %s: a second venue is refused, and every order the first acknowledged survives a restart', async (_how, tamper) => {
    const data = mkdtempSync(join(tmpdir(), 'nova-lock-deleted-'));
    onTestFinished(() => rmSync(data, { recursive: true, force: true }));
    const first = runVenue(data);
    const firstUrl = await listening(first);
    expect(firstUrl, first.stderr).toBeDefined();
    const trader = admin(data);
    const before = await placeSells(firstUrl as string, trader, 5, 'a');

    tamper(join(data, 'venue.lock'));
    const second = runVenue(data);
    const secondUrl = await listening(second);
    if (secondUrl !== undefined) second.child.kill('SIGKILL');
    expect(secondUrl, 'the second venue must not serve the folder').toBeUndefined();
    expect(await second.exit).toBe(1);
    expect(second.stderr.trim()).toBe(
      `venue: another venue is running on ${data} (it has its database open, though venue.lock was free: was the lock file deleted?): stop it first, or start this one on another folder`,
    );

    const after = await placeSells(firstUrl as string, trader, 5, 'b');
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);

    const restarted = runVenue(data);
    const restartedUrl = await listening(restarted);
    expect(restartedUrl, restarted.stderr).toBeDefined();
    expect(await activeOrderIds(restartedUrl as string, trader)).toEqual([...before, ...after].sort());
    restarted.child.kill('SIGTERM');
    expect(await restarted.exit).toBe(0);
  });
});
