// A commit that fails halts the venue (docs/architecture.md): inside the desk, the halted worker ends itself and
// the desk's supervisor starts it again on the same folder and port, where it resumes from what was committed.
// The fault is injected into the real worker entry (halting-venue-worker.ts); supervisor, worker, venue and
// store are the desk's own.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedVenue, type EmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { eventually } from '../eventually';
import { wireCode } from '../../../src-shared/errors/api-error';
import { HALT_TRIGGER } from './halt-trigger';

let dataDir: string;
let venue: EmbeddedVenue;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'nova-halt-'));
  venue = startEmbeddedVenue(
    { script: resolve(import.meta.dirname, '../../../src-main/venue/ts-worker-loader.mjs'), argv: [resolve(import.meta.dirname, 'halting-venue-worker.ts')] },
    { dataDir, simulate: false },
  );
  await venue.ready();
});

afterAll(async () => {
  await venue.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** POST /api/v1/orders as the local user: the HTTP status and body, or the network error if the answer never came. */
async function place(limitPrice: string, clientOrderId: string): Promise<{ status: number; body: Record<string, unknown> } | Error> {
  const local = venue.localCredentials();
  if (local === undefined) throw new Error('the worker reported no local credentials');
  try {
    const response = await fetch(`${venue.status().baseUrl}/api/v1/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'NOVA-KEY': local.api_key, 'NOVA-SECRET': local.api_secret },
      body: JSON.stringify({ product_id: 'BTC-VND', side: 'BUY', limit_price: limitPrice, base_size: '0.001', client_order_id: clientOrderId }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

async function activeClientIds(): Promise<string[]> {
  const local = venue.localCredentials();
  if (local === undefined) throw new Error('the worker reported no local credentials');
  const response = await fetch(`${venue.status().baseUrl}/api/v1/orders/active`, { headers: { 'NOVA-KEY': local.api_key, 'NOVA-SECRET': local.api_secret } });
  const { orders } = (await response.json()) as { orders: { client_order_id: string }[] };
  return orders.map((o) => o.client_order_id).sort();
}

describe('the embedded venue halted by a failed commit', () => {
  it('ends its worker, comes back on the same port from what was committed, and trades on', async () => {
    const before = venue.status();
    const acknowledged = await place('1200000000', 'kept-1');
    expect(acknowledged).toMatchObject({ status: 200 });

    writeFileSync(join(dataDir, HALT_TRIGGER), '');
    // The order whose commit fails is never acknowledged: the worker ends before any answer (or answers E0901).
    const failed = await place('1100000000', 'lost-1');
    if (!(failed instanceof Error)) expect(failed).toMatchObject({ status: 500, body: { error: { code: wireCode('E0901_InternalError') } } });
    expect(existsSync(join(dataDir, HALT_TRIGGER))).toBe(false);

    const after = await eventually(() => (venue.status().state === 'ready' && venue.status() !== before ? venue.status() : undefined), 'the venue started again');
    expect(after.baseUrl).toBe(before.baseUrl);
    await eventually(async () => ((await activeClientIds().catch(() => undefined)) !== undefined ? true : undefined), 'the restarted venue answering');
    expect(await activeClientIds()).toEqual(['kept-1']);

    expect(await place('1300000000', 'after-1')).toMatchObject({ status: 200 });
    expect(await activeClientIds()).toEqual(['after-1', 'kept-1']);
  });
});
