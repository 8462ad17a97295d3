// The IPC handler: a call from one of our pages reaches the desk; a call from any other frame (a page that
// navigated away, a frame that is gone, a file that is not ours) is refused before it is even parsed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeHandler, NOT_OUR_PAGE, serveBridge } from '../../../src-main/app/ipc';
import { isOwnPage, ownPages } from '../../../src-main/app/window-options';
import { deskServices } from '../../../src-main/desk/services';
import { IPC_CHANNEL } from '../../../src-shared/ipc/methods';
import { openLocalDesk, type LocalDesk } from './local-desk';

const pages = ownPages(undefined, 'file:///opt/Nova%20Desk/resources/app.asar/out/renderer/index.html');
let t: LocalDesk;
let handle: ReturnType<typeof bridgeHandler>;

const from = (url: string | undefined) => ({ senderFrame: url === undefined ? null : ({ url } as Electron.WebFrameMain), sender: { id: 1 } });

beforeAll(async () => {
  t = await openLocalDesk();
  handle = bridgeHandler(deskServices(t.desk), (text) => t.desk.keys.scrub(text), (url) => isOwnPage(url, pages));
});

afterAll(async () => {
  await t.close();
});

describe('the bridge handler', () => {
  it('answers our own page, a popped-out panel included', async () => {
    expect(await handle(from(pages.rendererPage), 'venue.status', {})).toMatchObject({ ok: true, value: { state: 'ready' } });
    expect(await handle(from(`${pages.rendererPage}?panel=ladder&kind=ladder`), 'connection.status', {})).toMatchObject({ ok: true });
  });

  it.each([
    ['a frame that is gone', undefined],
    ['another file on disk', 'file:///home/trader/Downloads/page.html'],
    ['a web page', 'https://example.com/'],
    ['the dev server address in a packaged app', 'http://localhost:5173/'],
  ])('refuses %s, and the call changes nothing', async (_name, url) => {
    const before = t.desk.settings();
    const answer = await handle(from(url), 'settings.update', { confirmOrders: { local: !before.confirmOrders.local } });
    expect(answer).toEqual(NOT_OUR_PAGE);
    expect(t.desk.settings()).toEqual(before);
  });

  it('still parses what our page sends', async () => {
    const answer = await handle(from(pages.rendererPage), 'orders.place', { product_id: 'BTC-VND', side: 'SIDEWAYS' });
    expect(answer).toMatchObject({ ok: false, error: { ref: 'E0101_InvalidArgument' } });
  });

  it('is served on the bridge channel and removed when the bridge stops', () => {
    const handlers = new Map<string, unknown>();
    const ipc = {
      handle: (channel: string, listener: unknown) => void handlers.set(channel, listener),
      removeHandler: (channel: string) => void handlers.delete(channel),
    };
    const bridge = serveBridge(ipc, handle);
    expect(handlers.get(IPC_CHANNEL)).toBe(handle);
    bridge.stop();
    expect(handlers.size).toBe(0);
  });
});
