// Browser mode's server against requests no browser sends: a request target that is not a URL the server can
// read (an absolute form with a broken host) on the page and on the bridge's upgrade. Any process on the machine
// can send one; the answer is a refusal, and the desk serves on.
import net from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebBridge, type WebBridge } from '../../../src-main/web/web-bridge';
import { openTestDesk, type TestDesk } from '../desk/open-desk';
import { exchangeToken } from './web-client';

let t: TestDesk;
let web: WebBridge;

beforeAll(async () => {
  t = await openTestDesk();
  web = await startWebBridge({ desk: t.desk, services: t.services, rendererDir: resolve(import.meta.dirname, '../../../out/renderer'), port: 0 });
});

afterAll(async () => {
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
