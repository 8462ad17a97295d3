// The tables' disk full (or failing) while the journal's is not: the venue must stop acknowledging orders as soon as
// its writer thread meets the fault, rather than go on for seconds while every read of the tables fails. A real venue
// process whose files may not grow past a size (ulimit -f: writes past it fail with EFBIG, which SQLite reports as a
// full disk), so the write-ahead log of the tables hits it long before the journal's small segments do.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { listening, runVenue as runCli, type VenueRun as Run } from './venue-process';

const runVenue = (data: string, fileLimitKib?: number): Run =>
  runCli(['--port', '0', '--data', data, '--order-rate', '0', '--request-rate', '0'], fileLimitKib === undefined ? {} : { fileLimitKib });

function admin(data: string): Record<string, string> {
  const boot = JSON.parse(readFileSync(join(data, 'bootstrap.json'), 'utf8')) as Record<string, string>;
  return { 'nova-key': boot['api_key'] ?? '', 'nova-secret': boot['api_secret'] ?? '' };
}

/** The order's id if it was acknowledged; its status (0: no answer) otherwise. */
async function placeSell(baseUrl: string, headers: Record<string, string>, i: number): Promise<string | number> {
  try {
    const reply = await fetch(`${baseUrl}/api/v1/orders`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ product_id: 'BTC-VND', type: 'LIMIT', side: 'SELL', limit_price: String(3_000_000_000 + i * 10_000), base_size: '0.001' }),
    });
    if (reply.status !== 200) return reply.status;
    return ((await reply.json()) as { order: { order_id: string } }).order.order_id;
  } catch {
    return 0;
  }
}

async function archivedStatus(baseUrl: string, headers: Record<string, string>): Promise<number> {
  try {
    return (await fetch(`${baseUrl}/api/v1/orders/archived?limit=1`, { headers })).status;
  } catch {
    return 0;
  }
}

describe('a venue whose tables cannot be written', () => {
  it('halts at the first failure to write them: no order is acknowledged after it, and none acknowledged before is lost', async () => {
    const data = mkdtempSync(join(tmpdir(), 'nova-tables-full-'));
    onTestFinished(() => rmSync(data, { recursive: true, force: true }));
    const first = runVenue(data);
    await listening(first);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);

    const limit = Math.ceil(statSync(join(data, 'venue.sqlite')).size / 1024) + 256;
    const limited = runVenue(data, limit);
    const baseUrl = await listening(limited);
    const headers = admin(data);
    const acknowledged: string[] = [];
    let readStatus = 200;
    // Each read makes the writer thread apply what was acknowledged, one transaction an order: the tables' write-
    // ahead log passes the limit within a few dozen, the journal (about 500 bytes an order) long after.
    for (let i = 0; i < 2_000 && readStatus === 200; i++) {
      const placed = await placeSell(baseUrl, headers, i);
      expect(typeof placed, `order ${i} before any read failed: ${placed}`).toBe('string');
      acknowledged.push(placed as string);
      readStatus = await archivedStatus(baseUrl, headers);
    }
    expect(readStatus, 'a read of the tables failed').not.toBe(200);

    const after = await placeSell(baseUrl, headers, 2_000);
    expect(typeof after, `no order is acknowledged once the tables could not be written: ${after}`).toBe('number');
    expect(await limited.exit, limited.stderr).toBe(1);
    expect(limited.stderr).toMatch(/venue: the venue halted: .*(database or disk is full|disk I\/O error)/);

    const restarted = runVenue(data);
    const restartedUrl = await listening(restarted);
    const active = await fetch(`${restartedUrl}/api/v1/orders/active`, { headers });
    const ids = ((await active.json()) as { orders: { order_id: string }[] }).orders.map((o) => o.order_id);
    expect(ids.sort()).toEqual([...acknowledged].sort());
    restarted.child.kill('SIGTERM');
    expect(await restarted.exit).toBe(0);
  });
});
