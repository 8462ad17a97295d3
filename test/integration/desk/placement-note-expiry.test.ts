// What the lookup of an in-doubt placement found stays in the connection status for its minute, and then goes. The
// desk dropped it only when it next built the status for another reason, so with nothing else changing a window
// kept showing "was not placed" long past its minute. The status is now sent again as the note runs out.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { deskServices } from '../../../src-main/desk/services';
import { MemorySecretStore } from '../../../src-main/secrets';
import { BTC, LocalVenue, px } from '../connection/local-venue';
import { GATEWAY_TIMEOUT, openHttpGateway, type HttpGateway } from './http-gateway';
import { eventually, noLocalVenue, removeFolder } from './open-desk';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-note-expiry-'));
let venue: LocalVenue;
let gateway: HttpGateway;
let desk: Desk;
let toLose = 0;

beforeAll(async () => {
  venue = await LocalVenue.start();
  gateway = await openHttpGateway(venue.port);
  gateway.rule = ({ method, path }) => {
    if (method === 'POST' && path === '/api/v1/orders' && toLose > 0) {
      toLose--;
      return { instead: GATEWAY_TIMEOUT };
    }
    return 'pass';
  };
  desk = await Desk.open({
    dataDir,
    secrets: new MemorySecretStore('test: secrets in memory'),
    launchLocalVenue: noLocalVenue,
    // No heartbeat while the test waits: its latency would send the status again and hide what is tested.
    session: { rest: { timeoutMs: 5_000, settleMs: 50, maxRetries: 0 }, placementLookupMs: 50, socket: { heartbeatIntervalMs: 600_000 } },
    noteShownMs: 1_000,
  });
  await desk.configureEnvironment({ id: 'development', baseUrl: gateway.baseUrl, wsUrl: venue.wsUrl });
  await desk.switchEnvironment('development');
  const { admin } = venue;
  await desk.importKey({ environment: 'development', api_key: admin.credentials.apiKey, api_secret: admin.credentials.apiSecret, user_id: admin.userId, use: true });
  await desk.whenLive();
});

afterAll(async () => {
  await desk.close();
  await gateway.close();
  await venue.dispose();
  removeFolder(dataDir);
});

it('sends the status again when an in-doubt placement\'s note runs out', async () => {
  const sent: string[] = [];
  const sub = desk.events.onDidEmit((e) => {
    if (e.name === 'connection.changed') sent.push(e.payload.detail);
  });
  try {
    toLose = 1;
    const lost = await dispatch(deskServices(desk), 'orders.place', { environment: 'development', product_id: BTC, side: 'BUY', limit_price: px(-400), base_size: '0.001', client_order_id: 'lost-then-expired', override_checks: true });
    expect(lost.ok ? 'placed' : lost.error.message).toMatch(/^E0802_OrderOutcomeUnknown: /);
    const note = /the order lost-then-expired, whose outcome was unknown, was not placed/;
    const shownAt = await eventually(() => {
      const at = sent.findIndex((detail) => note.test(detail));
      return at === -1 ? undefined : at;
    }, 'the lookup sent in the status');
    // Its minute (a second here) over, a status without it is sent, with nothing else happening.
    await eventually(() => (sent.slice(shownAt + 1).some((detail) => !note.test(detail)) ? true : undefined), 'a status sent without the note');
    expect(desk.status().detail).not.toMatch(note);
  } finally {
    sub.dispose();
  }
});
