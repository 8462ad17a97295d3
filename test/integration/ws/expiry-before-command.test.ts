// A GTT order whose expired_at passed since the venue's clock last ticked (it ticks every 50 ms) is ended as the
// next command comes in, before that command runs: its EXPIRED update is the clock's, not the command's answer.
// Ended inside a create_order, the update went out tagged with the create's request_id, first in the frame that
// answered it, and the desk, which reads an order's acknowledgment from that frame, took the old order, EXPIRED,
// for the new one (review-e p9). A cancel of the order in that gap finds it done, as a tick would have left it.
//
// The venue runs on a test clock moved past the order's expired_at right before the frame is sent: the real 50 ms
// tick still runs and may end the order first now and then, so each case runs a few rounds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVenue, type RunningVenue } from '../../../src-main/venue/server';
import { TestSocket, type Frame } from './ws-client';
import { expectErrorEvent, limitData, px } from './ws-venue';

const SECOND = 1_000_000_000n;
const ROUNDS = 5;

let offset = 0n;
const now = (): bigint => BigInt(Date.now()) * 1_000_000n + offset;
let running: RunningVenue | undefined;
let dataDir = '';
let socket: TestSocket | undefined;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-ws-expiry-'));
  running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0, now });
  const credentials = running.venue.localCredentials();
  if (credentials === undefined) throw new Error('no local credentials');
  socket = await TestSocket.open(running.wsUrl);
  const answer = await socket.auth(credentials.api_key, credentials.api_secret, Number(now() / SECOND));
  expect(answer, JSON.stringify(answer)).toMatchObject({ channel: 'auth', type: 'authenticated' });
});

afterAll(async () => {
  socket?.terminate();
  await running?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Order records in the socket's order updates, from `from` on, each with the request_id it carries. */
function records(s: TestSocket, from: number): (Frame & { request_id?: string })[] {
  return s.frames.slice(from).filter((f) => f['channel'] === 'orders' && f['type'] === 'update').flatMap((f) => f['data'] as Frame[]);
}

/** A GTT bid that expires in a second, open on the book. */
async function openGtt(s: TestSocket, clientOrderId: string): Promise<string> {
  const from = s.mark();
  s.send({ op: 'create_order', request_id: `create-${clientOrderId}`, data: limitData('buy', px(-1000), '0.0001', { client_order_id: clientOrderId, time_in_force: 'GTT', expired_at: String(now() + SECOND) }) });
  const frame = await s.next((f) => f['channel'] === 'orders' && (f['data'] as Frame[]).some((o) => o['client_order_id'] === clientOrderId && o['status'] === 'open'), 5_000, from);
  return String((frame['data'] as Frame[]).find((o) => o['client_order_id'] === clientOrderId)?.['id']);
}

describe('an order whose expired_at passed before the clock ticked', () => {
  it('ends as the next create_order comes in, and its EXPIRED update does not answer that create_order', async () => {
    const s = socket as TestSocket;
    for (let round = 0; round < ROUNDS; round++) {
      const [oldId, newId] = [`old-${round}`, `new-${round}`];
      await openGtt(s, oldId);
      const from = s.mark();
      offset += SECOND + 10_000_000n; // past old's expired_at; the venue's clock has (most likely) not ticked since
      s.send({ op: 'create_order', request_id: `create-${newId}`, data: limitData('buy', px(-1001), '0.0001', { client_order_id: newId }) });
      await s.next((f) => f['channel'] === 'orders' && (f['data'] as Frame[]).some((o) => o['client_order_id'] === newId && o['status'] === 'open'), 5_000, from);
      await s.barrier();

      const seen = records(s, from).map((o) => `${String(o['client_order_id'])} ${String(o['status'])} ${o.request_id ?? '-'}`);
      // Observed before: `old-0 expired create-new-0` first, the new order's updates after it.
      expect(seen.filter((line) => line.endsWith(` create-${newId}`)), seen.join(', ')).toEqual([`${newId} pending create-${newId}`, `${newId} open create-${newId}`]);
      // The connection created the old order: its end still reaches it, answering that create.
      expect(seen, seen.join(', ')).toContain(`${oldId} expired create-${oldId}`);
      // No frame as a whole claims to answer the new create with another order's record in it.
      for (const frame of s.frames.slice(from)) {
        if (frame['channel'] !== 'orders' || frame['request_id'] !== `create-${newId}`) continue;
        expect((frame['data'] as Frame[]).map((o) => o['client_order_id'])).toEqual((frame['data'] as Frame[]).map(() => newId));
      }
    }
  });

  it('is done for a cancel_order that comes in after its expired_at: 409 order already done, and its update says EXPIRED', async () => {
    const s = socket as TestSocket;
    for (let round = 0; round < ROUNDS; round++) {
      const clientOrderId = `cancelled-late-${round}`;
      const id = await openGtt(s, clientOrderId);
      const from = s.mark();
      offset += SECOND + 10_000_000n;
      s.send({ op: 'cancel_order', request_id: `cancel-${round}`, data: { order_id: id } });
      const answer = await s.next((f) => f['request_id'] === `cancel-${round}` || (f['channel'] === 'orders' && (f['data'] as Frame[]).some((o) => o['request_id'] === `cancel-${round}`)), 5_000, from);
      await s.barrier();
      const seen = records(s, from).filter((o) => o['client_order_id'] === clientOrderId).map((o) => String(o['status']));
      // Observed before: the cancel was its answer, the order ending `canceled` a second after its expired_at.
      expect(answer['type'], JSON.stringify(answer)).toBe('error');
      expectErrorEvent(answer, 409, 'order already done');
      expect(seen).toEqual(['expired']);
    }
  });
});
