// What bounds the WebSocket connections a venue holds: each holds a file descriptor, and the heartbeat keeps an
// idle one alive, so a local process opening connections and sending nothing took every descriptor: no client
// could connect, and the journal could not open its next file, which halted the venue (review-b probe8, probe10).
// A connection that neither authenticates nor subscribes in time is closed, and there is a most held at once.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually } from '../harness';
import { rawRequest } from '../raw-http';
import type { TestSocket } from './ws-client';
import { BTC, useWsVenue, type WsVenue } from './ws-venue';

const HANDSHAKE = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nHost: 127.0.0.1\r\n';

/** The code and reason of the close frame the venue sends the socket. */
function closing(socket: TestSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
}

describe('a connection that neither authenticates nor subscribes', () => {
  const IDLE_MS = 300;
  const venue = useWsVenue({ idleTimeoutMs: IDLE_MS });

  it('is closed with 1008 once the time is up, pings or not; one that authenticated or subscribed stays', async () => {
    const v = venue();
    const trader = await v.newTrader();
    // Opened first, so their time would be up before the idle one's.
    const authenticated = await v.session(trader);
    const listening = await v.connect();
    await listening.request({ op: 'sub', channel: 'ticker', product_ids: [BTC] });
    const idle = await v.connect();
    const closed = closing(idle);
    await idle.barrier();

    expect(await closed).toEqual({ code: 1008, reason: `no auth or subscription within ${IDLE_MS / 1000} s` });
    await authenticated.barrier();
    await listening.barrier();
    expect([authenticated.closeCode, listening.closeCode]).toEqual([undefined, undefined]);
  });
});

describe('the most connections held at once', () => {
  const MAX = 3;
  const venue = useWsVenue({ maxConnections: MAX });

  async function fill(v: WsVenue): Promise<TestSocket[]> {
    const held: TestSocket[] = [];
    for (let i = 0; i < MAX; i += 1) held.push(await v.connect());
    return held;
  }

  it('an upgrade beyond them is 503 E0902 in the error object, and one is taken again once a connection closes', async () => {
    const v = venue();
    const held = await fill(v);
    const baseUrl = baseUrlOf(held[0] as TestSocket);
    const reply = await rawRequest(baseUrl, `GET /ws HTTP/1.1\r\n${HANDSHAKE}\r\n`, { halfClose: false });
    const what = JSON.stringify(reply);
    expect(reply.status, what).toBe(503);
    expect(reply.headers, what).toMatch(/\r\nconnection: close/i);
    expect((reply.body as { error: { message: string } }).error.message, what).toBe(
      `E0902_ServiceUnavailable: the venue holds ${MAX} WebSocket connections, its most: close one, or try again later`,
    );

    // The ws client sees the refusal as the response it is, not as a dropped connection.
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`);
    const status = await new Promise<number>((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        ws.terminate();
      });
      ws.once('error', reject);
      ws.once('open', () => reject(new Error('opened beyond the most')));
    });
    expect(status).toBe(503);

    // REST still answers.
    expect((await v.call('GET', '/products')).status).toBe(200);

    (held[0] as TestSocket).close();
    const again = await eventually(() => v.connect().catch(() => undefined), 'a connection to be taken again');
    expect((await again.request({ op: 'ping' }))['type']).toBe('pong');
  });
});

/** http://127.0.0.1:<port> of the venue a socket is connected to. */
function baseUrlOf(socket: TestSocket): string {
  return socket.ws.url.replace(/^ws/, 'http').replace(/\/ws$/, '');
}
