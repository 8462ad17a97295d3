// A browser window whose link to the desk drops and comes back reads what it missed once: its account and the
// watched product's tape were read by the link's 'back' and again by the return to live that the status read then
// brings. The window's real feed and bridge against the real desk and web bridge; the reads counted are the frames
// the desk received.
import { resolve } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWebBridge, type WebBridge } from '../../../src-main/web/web-bridge';
import { call, on } from '../../../src-renderer/bridge';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { loadEverything, startFeed } from '../../../src-renderer/stores/feed';
import { openTestDesk, type TestDesk } from '../desk/open-desk';
import { exchangeToken } from './web-client';

let t: TestDesk;
let web: WebBridge;
const globals = globalThis as { WebSocket?: unknown; window?: unknown };
const nodeWebSocket = globals.WebSocket;
/** The methods of the calls the desk received, in order. */
const received: string[] = [];
const sockets: WebSocket[] = [];

beforeAll(async () => {
  t = await openTestDesk();
  await t.desk.whenLive();
  web = await startWebBridge({
    desk: t.desk, services: t.services, rendererDir: resolve(import.meta.dirname, '../../../out/renderer'), port: 0,
    onFrame: (direction, text) => {
      if (direction === 'in') received.push((JSON.parse(text) as { method: string }).method);
    },
  });
  const { origin, cookie } = await exchangeToken(web.url);
  globals.WebSocket = class BrowserLikeWebSocket extends WebSocket {
    constructor(address: string) {
      super(address, { headers: { cookie, origin } });
      sockets.push(this);
    }
  };
  globals.window = { location: { protocol: 'http:', host: new URL(web.origin).host } };
});

afterAll(async () => {
  globals.WebSocket = nodeWebSocket;
  delete globals.window;
  await web?.close();
  await t?.close();
});

const count = (method: string): number => received.filter((m) => m === method).length;

describe('a browser window whose link to the desk comes back', () => {
  it('reads its account and its tape once', async () => {
    useDesk.getState().setLayout({ ...useDesk.getState().layout, productId: 'BTC-VND', panels: [] });
    const loaded = await loadEverything();
    // The feed's own polls are held: each reads the account, and one landing while the link comes back would be
    // counted with the reads this is about. The desk's timers are its own, set before.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stop = startFeed(on, loaded);
    try {
      await vi.waitFor(() => expect(useDesk.getState().connection?.state).toBe('live'));
      sockets.at(-1)?.close();
      await vi.waitFor(() => expect(useDesk.getState().connection?.state).toBe('unavailable'));
      received.length = 0;
      // Any call dials again, as the next poll would.
      await call('settings.get', {});
      await vi.waitFor(() => expect(useDesk.getState().connection?.state).toBe('live'));
      await vi.waitFor(() => expect(count('orders.active')).toBe(1));
      // One more round trip: every read asked for by then has reached the desk.
      await call('settings.get', {});
      // The new link watches nothing: the product is watched again, and what the link missed is read once.
      expect(count('market.watch')).toBe(1);
      expect(count('market.trades')).toBe(1);
      expect(count('account.get')).toBe(1);
      expect(count('orders.fills')).toBe(1);
    } finally {
      stop();
      vi.useRealTimers();
    }
  });

  it('reads its account once when its own poll is what dials again', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stop = startFeed(on);
    try {
      await vi.waitFor(() => expect(useDesk.getState().connection?.state).toBe('live'));
      sockets.at(-1)?.close();
      await vi.waitFor(() => expect(useDesk.getState().connection?.state).toBe('unavailable'));
      received.length = 0;
      // The status poll comes round while the window says the desk cannot be reached.
      vi.advanceTimersByTime(2000);
      await vi.waitFor(() => expect(useDesk.getState().connection?.state).toBe('live'));
      await vi.waitFor(() => expect(count('orders.active')).toBe(1));
      await call('settings.get', {});
      expect(count('account.get')).toBe(1);
      expect(count('market.trades')).toBe(1);
    } finally {
      stop();
      vi.useRealTimers();
    }
  });
});
