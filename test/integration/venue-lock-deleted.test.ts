// A data folder's venue.lock deleted or replaced while its venue runs (someone "cleaning up a stale lock") must not
// let a second venue open the folder: the two would take orders side by side and a restart would lose some of the
// ones they acknowledged. Real venue processes on one temp folder, ports picked by the OS.
// The same check refuses a start while a tool holds the database open (an idle `sqlite3 venue.sqlite`): SQLite's
// locks cannot tell it from a venue, so the refusal names both, where it once said only "another venue is running".
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runVenue as runCli, type VenueRun as Run } from './venue-process';

const runVenue = (data: string): Run => runCli(['--port', '0', '--data', data, '--order-rate', '0', '--request-rate', '0']);

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
      `venue: venue.sqlite in ${data} is open in another process: another venue (was venue.lock deleted?), or a tool such as sqlite3 or a database browser; close it, or start this venue on another folder`,
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

describe('a venue whose venue.sqlite a tool holds open', () => {
  it('is refused with a message naming both causes while a read-only connection is open, and starts once it is closed', async () => {
    const data = mkdtempSync(join(tmpdir(), 'nova-lock-inspector-'));
    onTestFinished(() => rmSync(data, { recursive: true, force: true }));
    const first = runVenue(data);
    const firstUrl = await listening(first);
    expect(firstUrl, first.stderr).toBeDefined();
    const trader = admin(data);
    const placed = await placeSells(firstUrl as string, trader, 3, 'i');
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);

    // What `sqlite3 venue.sqlite` or a database browser holds while it sits idle after a query.
    const inspector = new Database(join(data, 'venue.sqlite'), { readonly: true, fileMustExist: true });
    onTestFinished(() => {
      inspector.close();
    });
    expect(inspector.prepare('SELECT count(*) AS n FROM sqlite_master').get()).toEqual({ n: expect.any(Number) });

    const refused = runVenue(data);
    const refusedUrl = await listening(refused);
    if (refusedUrl !== undefined) refused.child.kill('SIGKILL');
    expect(refusedUrl, 'a venue must not start beside a connection it cannot tell from a venue').toBeUndefined();
    expect(await refused.exit).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `venue: venue.sqlite in ${data} is open in another process: another venue (was venue.lock deleted?), or a tool such as sqlite3 or a database browser; close it, or start this venue on another folder`,
    );

    inspector.close();
    const started = runVenue(data);
    const startedUrl = await listening(started);
    expect(startedUrl, started.stderr).toBeDefined();
    expect(await activeOrderIds(startedUrl as string, trader)).toEqual(placed.sort());
    started.child.kill('SIGTERM');
    expect(await started.exit).toBe(0);
  });
});
