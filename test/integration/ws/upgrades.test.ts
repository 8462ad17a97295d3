// Upgrade requests the venue's WebSocket does not take. Node hands every request with an Upgrade header to the
// server's 'upgrade' listener, so no Fastify route or not-found handler sees it: the venue must answer it itself,
// with the interface's error object (7.1) like any other request it refuses, and close the connection.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useVenue } from '../harness';
import { type RawReply, rawRequest } from '../raw-http';

const venue = useVenue();

const HANDSHAKE = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nHost: 127.0.0.1\r\n';

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
    const reply = await rawRequest(v.baseUrl, `${line} HTTP/1.1\r\n${HANDSHAKE}\r\n`, { halfClose: false });
    expectErrorObject(reply, 404, 'E0105_RouteNotFound', new RegExp(`^E0105_RouteNotFound: ${message} .*/ws`));
    expect((reply.body as { error: { code: string } }).error.code).toBe('NotFound');
    await expectWsServes(v.baseUrl.replace('http', 'ws') + '/ws');
  });

  it('the query string is not part of the path named', async () => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, `GET /nope?secret=1 HTTP/1.1\r\n${HANDSHAKE}\r\n`, { halfClose: false });
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
    const reply = await rawRequest(v.baseUrl, `GET /ws HTTP/1.1\r\n${headers}\r\n`, { halfClose: false });
    expectErrorObject(reply, 400, 'E0101_InvalidArgument', message);
    // RFC 6455 4.4: a version the server does not speak is answered with the versions it does.
    if (what.includes('Version')) expect(reply.headers).toMatch(/\r\nsec-websocket-version: 13/i);
  });
});
