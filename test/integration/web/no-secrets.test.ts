// A whole session over browser mode's bridge, every frame recorded both ways: the local user's bootstrap
// secret, a key created on the venue and a key imported by the trader never appear in any frame, except the
// one inbound import call that carries the typed secret into main. The server's own record of its frames is
// checked as well as the client's.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueRestClient } from '../../../src-main/connection/rest-client';
import { startWebBridge, type WebBridge } from '../../../src-main/web/web-bridge';
import { eventually, openTestDesk, type TestDesk } from '../desk/open-desk';
import { BridgeClient, exchangeToken } from './web-client';

let t: TestDesk;
let web: WebBridge;
const serverFrames: { direction: 'in' | 'out'; text: string }[] = [];

beforeAll(async () => {
  t = await openTestDesk();
  await t.desk.whenLive();
  web = await startWebBridge({
    desk: t.desk,
    services: t.services,
    rendererDir: resolve(import.meta.dirname, '../../../out/renderer'),
    port: 0,
    onFrame: (direction, text) => serverFrames.push({ direction, text }),
  });
});

afterAll(async () => {
  await web.close();
  await t.close();
});

describe('a recorded session over the bridge', () => {
  it('never carries a secret, except the one inbound import', async () => {
    const { origin, cookie } = await exchangeToken(web.url);
    const client = await BridgeClient.open(origin, { cookie, origin });
    const boot = await t.bootstrap();

    expect((await client.value('connection.status')).state).toBe('live');
    await client.value('environments.list');
    await client.value('market.watch', { product_id: 'BTC-VND' });

    // A key created on the venue: its secret goes from the venue's answer into the keychain.
    const created = await client.value('keys.create', { environment: 'local', name: 'desk key', use: false });
    const createdSecret = await t.secrets.get(`local:${created.key.apiKey}`);
    expect(createdSecret).toBeTruthy();

    // A key the trader brings: a second user of the local venue, made with the admin key outside the desk.
    const admin = new VenueRestClient({ baseUrl: t.desk.venueStatus().baseUrl, credentials: { apiKey: boot.api_key, apiSecret: boot.api_secret } });
    const other = await admin.createSimUser({ BTC: '1', VND: '10000000000' });
    admin.dispose();
    const importedSecret = other.api_key.api_secret ?? '';
    expect(importedSecret).not.toBe('');
    const imported = await client.value('keys.import', { api_key: other.api_key.api_key, api_secret: importedSecret, user_id: other.user_id, name: 'second user' });
    expect(imported.key.userId).toBe(other.user_id);

    // Trade with the bootstrap key, then with the imported one.
    const placed = await client.value('orders.place', { environment: 'local', product_id: 'BTC-VND', side: 'BUY', limit_price: '2400000000', base_size: '0.001', override_checks: true });
    await client.value('orders.cancel', { environment: 'local', order_id: placed.order.order_id });
    await client.value('account.get');
    await client.value('keys.use', { environment: 'local', api_key: other.api_key.api_key });
    await eventually(async () => ((await client.value('connection.status')).state === 'live' ? true : undefined), 'the imported key live');
    const second = await client.value('orders.place', { environment: 'local', product_id: 'BTC-VND', side: 'SELL', limit_price: '2600000000', base_size: '0.001', override_checks: true });
    expect(second.order.user_id).toBe(other.user_id);
    await client.value('orders.cancelAll', { environment: 'local' });
    expect((await client.value('account.get')).id).toBe(other.user_id);
    await client.value('keys.list');
    // A refusal's message travels too: make one that involves a key.
    expect((await client.call('keys.use', { environment: 'local', api_key: 'nk_unknown' })).ok).toBe(false);
    await eventually(() => (client.events.some((e) => e.name === 'orders.changed') && client.events.some((e) => e.name === 'book.changed') ? true : undefined), 'order and book events');
    client.close();

    const secrets = { bootstrap: boot.api_secret, created: createdSecret ?? '', imported: importedSecret };
    for (const frames of [client.frames, serverFrames.map((f) => ({ direction: f.direction === 'in' ? 'out' : 'in', text: f.text }))]) {
      const importCalls = frames.filter((f) => f.direction === 'out' && f.text.includes('"keys.import"'));
      expect(importCalls).toHaveLength(1);
      expect(importCalls[0]?.text).toContain(secrets.imported);
      for (const frame of frames) {
        expect(frame.text).not.toContain(secrets.bootstrap);
        expect(frame.text).not.toContain(secrets.created);
        if (frame !== importCalls[0]) expect(frame.text).not.toContain(secrets.imported);
      }
      expect(frames.length).toBeGreaterThan(20);
    }

    // Nor are they written anywhere on disk in plaintext: not the desk's file, not the venue's bootstrap.json,
    // not the venue's database, WAL or anything else in the data folder.
    const deskFile = readFileSync(join(t.dataDir, 'desk.json'), 'utf8');
    for (const secret of Object.values(secrets)) expect(deskFile).not.toContain(secret);
    expect(Object.keys(JSON.parse(readFileSync(join(t.dataDir, 'local-venue', 'bootstrap.json'), 'utf8')) as object).sort()).toEqual(['api_key', 'base_url', 'user_id', 'ws_url']);
    for (const file of filesUnder(t.dataDir)) {
      const bytes = readFileSync(file);
      for (const secret of Object.values(secrets)) expect(bytes.includes(Buffer.from(secret)), `${secret.slice(0, 4)}… in ${file}`).toBe(false);
    }
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.isFile() ? [join(dir, entry.name)] : [],
  );
}
