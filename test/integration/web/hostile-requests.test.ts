// Browser mode's server against requests no browser sends: a request target that is not a URL the server can
// read (an absolute form with a broken host) on the page and on the bridge's upgrade, and bridge frames the
// WebSocket itself refuses (past the size limit, text that is not UTF-8). Any process on the machine can send one
// (the last two once it has a session); the answer is a refusal, and the desk serves on.
import net from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES } from '../../../src-main/web/bridge-protocol';
import { startWebBridge, type WebBridge } from '../../../src-main/web/web-bridge';
import { openTestDesk, type TestDesk } from '../desk/open-desk';
import WebSocket from 'ws';
import { BridgeClient, exchangeToken } from './web-client';

let t: TestDesk;
let web: WebBridge;

beforeAll(async () => {
  t = await openTestDesk();
  web = await startWebBridge({ desk: t.desk, services: t.services, rendererDir: resolve(import.meta.dirname, '../../../out/renderer'), port: 0 });
});

const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  await web.close();
  await t.close();
});

/** The status line of the answer to `request`, written byte for byte. */
function statusLine(request: string): Promise<string> {
  return new Promise((resolveLine, reject) => {
    const socket = net.connect(web.port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n');
      if (end >= 0) {
        socket.destroy();
        resolveLine(text.slice(0, end));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolveLine(text));
  });
}

describe('browser mode against a request target it cannot read', () => {
  it('refuses it with 400, on the page and on the upgrade, and serves on', async () => {
    const host = `127.0.0.1:${web.port}`;
    expect(await statusLine(`GET http://[ HTTP/1.1\r\nHost: ${host}\r\n\r\n`)).toBe('HTTP/1.1 400 Bad Request');
    expect(
      await statusLine(`GET http://[ HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`),
    ).toBe('HTTP/1.1 400 Bad Request');
    // Still serving: the token is exchanged for a session.
    const { cookie } = await exchangeToken(web.url);
    expect(cookie).toMatch(/^nova_desk_session=/);
  });
});

describe('browser mode against bridge frames its WebSocket refuses', () => {
  it('closes that connection with the protocol\'s code, and serves the next', async () => {
    // A bridge of its own, for a token of its own (the other test uses this file's).
    const own = await startWebBridge({ desk: t.desk, services: t.services, rendererDir: resolve(import.meta.dirname, '../../../out/renderer'), port: 0 });
    cleanups.push(() => own.close());
    const { origin, cookie } = await exchangeToken(own.url);
    const headers = { origin, cookie };
    const refusedWith = async (send: (ws: WebSocket) => void): Promise<number> => {
      const ws = new WebSocket(`${origin.replace('http', 'ws')}/bridge`, { headers });
      await new Promise((opened, failed) => {
        ws.once('open', opened);
        ws.once('error', failed);
      });
      ws.on('error', () => undefined);
      const closed = new Promise<number>((resolveCode) => ws.once('close', (code) => resolveCode(code)));
      send(ws);
      return closed;
    };
    // Past the bridge's limit: 1009, message too big.
    expect(await refusedWith((ws) => ws.send('x'.repeat(MAX_FRAME_BYTES + 1)))).toBe(1009);
    // A text frame that is not UTF-8: 1007, invalid payload.
    expect(await refusedWith((ws) => ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false }))).toBe(1007);
    // The desk still answers a window.
    const client = await BridgeClient.open(origin, headers);
    expect((await client.call('connection.status', {})).ok).toBe(true);
    client.close();
  });
});
