// Upgrade requests the venue's WebSocket does not take. Node hands every request with an Upgrade header to the
// server's 'upgrade' listener, so no Fastify route or not-found handler sees it: the venue must answer it itself,
// with the interface's error object (7.1) like any other request it refuses, and close the connection.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useVenue } from '../harness';

const venue = useVenue();

const HANDSHAKE = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nHost: 127.0.0.1\r\n';

interface RawReply {
  readonly status: number;
  readonly headers: string;
  readonly body: unknown;
}

/**
 * One request written byte for byte, and everything the venue sends until it closes the connection. The client
 * half-closes only after the answer is in, as a WebSocket client waiting for its 101 does, so a venue that waits
 * for the client to close first would fail on the timeout.
 */
function rawRequest(baseUrl: string, request: string): Promise<RawReply> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the venue did not close the connection; it sent ${JSON.stringify(Buffer.concat(chunks).toString('utf8').slice(0, 300))}`));
    }, 3_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(text);
      if (split < 0 || status === null) {
        reject(new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`));
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(text.slice(split + 4));
      } catch {
        reject(new Error(`the body is not JSON: ${JSON.stringify(text.slice(0, 300))}`));
        return;
      }
      resolve({ status: Number(status[1]), headers: text.slice(0, split), body });
    });
    socket.write(request);
  });
}

function expectErrorObject(reply: RawReply, status: number, ref: string, message: RegExp): void {
  const what = JSON.stringify(reply);
  expect(reply.status, what).toBe(status);
  expect(reply.headers, what).toMatch(/\r\ncontent-type: application\/json/i);
  expect(reply.headers, what).toMatch(/\r\nconnection: close/i);
  const body = reply.body as { error: { code: string; message: string } };
  expect(Object.keys(body), what).toEqual(['error']);
  expect(Object.keys(body.error).sort(), what).toEqual(['code', 'message']);
  expect(body.error.message, what).toMatch(new RegExp(`^${ref}: `));
  expect(body.error.message, what).toMatch(message);
}

async function expectWsServes(wsUrl: string): Promise<void> {
  const ws = new WebSocket(wsUrl);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.close();
}

describe('a WebSocket upgrade the venue does not take gets the error object and a closed connection', () => {
  it.each([
    ['an unknown path', 'GET /nope', 'no route GET /nope'],
    ['a REST path', 'GET /products', 'no route GET /products'],
    ['/ws with a trailing slash', 'GET /ws/', 'no route GET /ws/'],
    ['/ws with a method other than GET', 'POST /ws', 'no route POST /ws'],
  ])('%s is 404 E0105', async (_what, line, message) => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, `${line} HTTP/1.1\r\n${HANDSHAKE}\r\n`);
    expectErrorObject(reply, 404, 'E0105_RouteNotFound', new RegExp(`^E0105_RouteNotFound: ${message} .*/ws`));
    expect((reply.body as { error: { code: string } }).error.code).toBe('NotFound');
    await expectWsServes(v.baseUrl.replace('http', 'ws') + '/ws');
  });

  it('the query string is not part of the path named', async () => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, `GET /nope?secret=1 HTTP/1.1\r\n${HANDSHAKE}\r\n`);
    expectErrorObject(reply, 404, 'E0105_RouteNotFound', /^E0105_RouteNotFound: no route GET \/nope /);
    expect(JSON.stringify(reply.body)).not.toContain('secret');
  });

  it('the ws client sees the 404 as an unexpected response, not a dropped connection', async () => {
    const v = venue();
    const ws = new WebSocket(v.baseUrl.replace('http', 'ws') + '/not-ws');
    const status = await new Promise<number>((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        ws.terminate();
      });
      ws.once('error', reject);
      ws.once('open', () => reject(new Error('opened')));
    });
    expect(status).toBe(404);
  });

  it.each([
    ['no Sec-WebSocket-Key', 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nHost: x\r\n', /Sec-WebSocket-Key/],
    ['an Upgrade other than websocket', 'Upgrade: h2c\r\nConnection: Upgrade\r\nHost: x\r\n', /Upgrade/],
    ['an unsupported Sec-WebSocket-Version', 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 7\r\nHost: x\r\n', /Sec-WebSocket-Version/],
  ])('a handshake to /ws with %s is 400 E0101 naming what is wrong', async (what, headers, message) => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, `GET /ws HTTP/1.1\r\n${headers}\r\n`);
    expectErrorObject(reply, 400, 'E0101_InvalidArgument', message);
    // RFC 6455 4.4: a version the server does not speak is answered with the versions it does.
    if (what.includes('Version')) expect(reply.headers).toMatch(/\r\nsec-websocket-version: 13/i);
  });
});
