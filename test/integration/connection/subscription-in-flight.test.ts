// A market-data sub or unsub whose fate is open while the connection stands: a sub the venue never answered (lost
// on its way, here at a relay that drops the frame) is sent again rather than left wanted and never in force, and
// an unsub asked for while the connection's subs are still in flight (between auth and open) goes out after them
// rather than being dropped with the channel left streaming. Real VenueSocket, real local venue, real relay.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Level2SnapshotEvent, Level2UpdateEvent } from '../../../src-shared/protocol/ws';
import { nextEvent } from '../../../src-main/connection/events';
import { OutcomeUnknownError } from '../../../src-main/connection/venue-error';
import { VenueSocket } from '../../../src-main/connection/venue-socket';
import { BTC, LocalVenue, eventually, px, type Account } from './local-venue';
import { LoopbackGate } from './loopback-gate';

let venue: LocalVenue;
let gate: LoopbackGate;
let trader: Account;
const sockets: VenueSocket[] = [];

beforeAll(async () => {
  venue = await LocalVenue.start();
  gate = await LoopbackGate.open(venue.port);
  trader = await venue.newAccount();
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  gate.requestRule = undefined;
  await venue.client(trader).cancelAllOrders();
});

afterAll(async () => {
  await gate.close();
  await venue.dispose();
});

function open(): VenueSocket {
  const socket = new VenueSocket({ url: gate.wsUrl, reconnect: { initialMs: 20, maxMs: 200 }, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 300, requestTimeoutMs: 1_000 });
  sockets.push(socket);
  return socket;
}

const isLevel2Sub = (op: 'sub' | 'unsub') => (text: string) => text.includes(`"op":"${op}"`) && text.includes('"channel":"level2"');

describe('a market-data subscription whose answer does not come', () => {
  it('is sent again on the same connection, and the book arrives', async () => {
    const socket = open();
    const snapshots: Level2SnapshotEvent[] = [];
    socket.onDidReceiveBookSnapshot((s) => snapshots.push(s));
    const opened = nextEvent(socket.onDidChangeStatus, (s) => s.state === 'open');
    socket.connect();
    await opened;

    let lost = 0;
    gate.requestRule = (text) => isLevel2Sub('sub')(text) && lost++ === 0;
    const first = await socket.subscribe('level2', [BTC]).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(first).toBeInstanceOf(OutcomeUnknownError);
    expect(lost).toBe(1);
    await eventually(() => snapshots.find((s) => s.product_id === BTC), 'the snapshot of the sub sent again');
    // The same connection throughout: a heartbeat dropping it would have resubscribed it anyway.
    expect(socket.currentStatus).toMatchObject({ state: 'open', sessions: 1 });
  });
});

describe('an unsub asked for while the connection puts its subs back', () => {
  it('is sent after them, and the product no longer streams', async () => {
    const socket = open();
    const updates: Level2UpdateEvent[] = [];
    socket.onDidReceiveBookUpdate((u) => updates.push(u));
    await socket.subscribe('level2', [BTC]);
    let unsubs = 0;
    gate.requestRule = (text) => {
      // The sub is on its way (it reaches the venue right after this): the window that wanted the product goes.
      if (isLevel2Sub('sub')(text)) {
        expect(socket.currentStatus.state).toBe('subscribing');
        void socket.unsubscribe('level2', [BTC]).catch(() => undefined);
      }
      if (isLevel2Sub('unsub')(text)) unsubs++;
      return false;
    };
    const opened = nextEvent(socket.onDidChangeStatus, (s) => s.state === 'open');
    socket.connect();
    await opened;
    await eventually(() => (unsubs === 1 ? true : undefined), 'the unsub at the venue');

    // The venue answers in order: once the ping is answered, an update of the order's book would have come.
    await venue.client(trader).placeOrder({ product_id: BTC, side: 'BUY', limit_price: px(-50), base_size: '0.01', wait: true });
    await socket.ping();
    expect(updates).toEqual([]);
  });
});
