// The renderer's browser-mode bridge (src-renderer/bridge/web-transport.ts) against the real web bridge: the
// same Results as the desk's dispatcher gives Electron's windows, and events through `on`. Node has no
// browser WebSocket, so ws stands in for it, sending the cookie and origin a browser would send by itself.
import { resolve } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src-main/desk/dispatch';
import { startWebBridge, type WebBridge } from '../../../src-main/web/web-bridge';
import { webTransport } from '../../../src-renderer/bridge/web-transport';
import { eventually, openTestDesk, type TestDesk } from '../desk/open-desk';
import { exchangeToken } from './web-client';

let t: TestDesk;
let web: WebBridge;
const globals = globalThis as { WebSocket?: unknown };
const nodeWebSocket = globals.WebSocket;

beforeAll(async () => {
  t = await openTestDesk();
  await t.desk.whenLive();
  web = await startWebBridge({ desk: t.desk, services: t.services, rendererDir: resolve(import.meta.dirname, '../../../out/renderer'), port: 0 });
  const { origin, cookie } = await exchangeToken(web.url);
  globals.WebSocket = class BrowserLikeWebSocket extends WebSocket {
    constructor(address: string) {
      super(address, { headers: { cookie, origin } });
    }
  };
});

afterAll(async () => {
  globals.WebSocket = nodeWebSocket;
  await web.close();
  await t.close();
});

describe('the renderer bridge in browser mode', () => {
  it('answers as the dispatcher does, refusals included', async () => {
    const nova = webTransport(`${web.origin.replace('http', 'ws')}/bridge`);
    expect(await nova['settings.get']({})).toEqual(await dispatch(t.services, 'settings.get', {}));
    expect(await nova['environments.list']()).toEqual(await dispatch(t.services, 'environments.list', {}));
    const refused = await nova['market.book']({ product_id: 'nope' });
    expect(refused).toEqual(await dispatch(t.services, 'market.book', { product_id: 'nope' }));
    expect(refused.ok).toBe(false);
  });

  it('delivers events to `on` listeners until they stop listening', async () => {
    const nova = webTransport(`${web.origin.replace('http', 'ws')}/bridge`);
    const books: number[] = [];
    const stop = nova.on('book.changed', (book) => books.push(book.sequence));
    await nova['market.watch']({ product_id: 'ETH-VND' });
    await eventually(() => (books.length > 0 ? true : undefined), 'a book event');
    stop();
    const count = books.length;
    // Another listener sees the next book; the stopped one does not.
    const later: number[] = [];
    nova.on('book.changed', (book) => later.push(book.sequence));
    await eventually(() => (later.length > 0 ? true : undefined), 'a later book event');
    expect(books).toHaveLength(count);
    expect(() => nova.on('no.such.event' as never, () => undefined)).toThrow(/unknown event/);
  });
});
