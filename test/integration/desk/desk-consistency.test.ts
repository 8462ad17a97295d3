// What a window asks the desk stays true to the venue it trades on: a product list read from another venue is
// not kept, a market order's "0" limit does not skip the notional check, an import never stores a secret the
// venue refuses, and a desk closed while it reconnects starts nothing more. Found by a review; each test fails
// on the code before its fix.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskFile } from '../../../src-main/desk/desk-file';
import { dispatch } from '../../../src-main/desk/dispatch';
import { openTestDesk, type TestDesk } from './open-desk';

let t: TestDesk;
const call: TestDesk['call'] = (method, request) => t.call(method, request);

const refusal: TestDesk['refusal'] = (method, request) => t.refusal(method, request);

/** A venue at another address whose product list answers slowly, and lists a product the local venue has not. */
function slowOtherVenue(): Promise<{ server: Server; baseUrl: string; wsUrl: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/products') {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ products: [{ id: 'FAKE-VND', base_asset_id: 'FAKE', quote_asset_id: 'VND', price_increment: '1', size_increment: '1', min_size: '1', max_size: '1000', min_notional: '1', status: 'online' }] }));
      }, 400);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"code":"NotFound","message":"E0105_RouteNotFound: no such route"}}');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, baseUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}/ws` });
    });
  });
}

beforeAll(async () => {
  t = await openTestDesk();
  await t.desk.whenLive();
  await call('settings.update', { preTrade: { maxDeviationPercent: '10', maxNotional: '' } });
});

afterAll(async () => {
  await t.close();
});

describe('the desk against the venue it trades on', () => {
  it('keeps no product list read from the venue it switched away from, so the price check still holds a far order', async () => {
    // A reference price for the check: quotes on both sides of 2,500,000,000.
    for (const [side, price] of [['BUY', '2400000000'], ['SELL', '2600000000']] as const) {
      await call('orders.place', { environment: 'local', product_id: 'BTC-VND', side, limit_price: price, base_size: '0.001', override_checks: true });
    }
    const far = { environment: 'local' as const, product_id: 'BTC-VND', side: 'BUY' as const, limit_price: '1000000000', base_size: '0.001' };
    expect((await call('orders.place', far)).status).toBe('held');

    const other = await slowOtherVenue();
    try {
      await call('environments.configure', { id: 'development', baseUrl: other.baseUrl, wsUrl: other.wsUrl });
      await call('environments.switch', { id: 'development' });
      const lateList = call('market.products', {});
      await call('environments.switch', { id: 'local' });
      await t.desk.whenLive();
      await lateList;
      expect((await call('market.products', {})).map((p) => p.id)).toContain('BTC-VND');
      expect((await call('orders.place', far)).status).toBe('held');
    } finally {
      other.server.close();
      await call('orders.cancelAll', { environment: 'local' });
    }
  });

  it('holds a market order above the notional limit whether it leaves the limit price out or sends the interface’s "0"', async () => {
    await call('settings.update', { preTrade: { maxDeviationPercent: '', maxNotional: '1000' } });
    try {
      await call('orders.place', { environment: 'local', product_id: 'BTC-VND', side: 'SELL', limit_price: '2600000000', base_size: '0.001', override_checks: true });
      const market = { environment: 'local' as const, product_id: 'BTC-VND', side: 'BUY' as const, type: 'MARKET' as const, base_size: '0.001', time_in_force: 'IOC' as const };
      expect(await call('orders.place', market)).toMatchObject({ status: 'held', issues: [{ check: 'max_notional' }] });
      expect(await call('orders.place', { ...market, limit_price: '0' })).toMatchObject({ status: 'held', issues: [{ check: 'max_notional' }] });
    } finally {
      await call('settings.update', { preTrade: { maxDeviationPercent: '10', maxNotional: '' } });
      await call('orders.cancelAll', { environment: 'local' });
    }
  });

  it('tries an imported key on the venue even when the trader names its user, and keeps the working secret when it is refused', async () => {
    const boot = await t.bootstrap();
    const wrong = await refusal('keys.import', { api_key: boot.api_key, api_secret: `${boot.api_secret}x`, user_id: boot.user_id });
    expect(wrong).toMatch(/^E0001_AuthRequired: Local refused this key/);
    expect(await t.secrets.get(`local:${boot.api_key}`)).toBe(boot.api_secret);
    expect((await call('connection.status', {})).state).toBe('live');
  });

  it('refuses a layout nested deeper than 64 levels, which a cold start could not read back, and keeps one that is not', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1_600; i++) deep = [deep];
    expect(await refusal('layouts.save', { name: 'Deep', layout: deep })).toMatch(/^E0101_InvalidArgument: .*must nest at most 64 levels/);
    let fine: unknown = 'leaf';
    for (let i = 0; i < 60; i++) fine = { panel: fine };
    expect(await call('layouts.save', { name: 'Nested', layout: fine })).toContain('Nested');
    expect(await call('layouts.load', { name: 'Nested' })).toEqual(fine);
    expect(await call('layouts.list', {})).not.toContain('Deep');
  });

  it('names a desk file holding such a layout (written by hand) as one to move aside, rather than crash', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nova-deskfile-'));
    try {
      const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
      const text = `{"active":"local","addresses":{},"keys":[],"activeKeys":{},"settings":{},"layouts":{"Deep":${deep}}}`;
      writeFileSync(join(dir, 'desk.json'), text);
      expect(() => DeskFile.open(dir)).toThrow(/move it aside to start afresh/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes a setting sent as undefined (the bridge keeps such keys) as left unchanged', async () => {
    const before = await call('settings.get', {});
    const result = await dispatch(t.services, 'settings.update', { preTrade: { maxNotional: undefined } });
    expect(result).toMatchObject({ ok: true, value: before });
  });

  it('refuses a pre-trade limit of 0, which would read as on and act as off', async () => {
    expect(await refusal('settings.update', { preTrade: { maxNotional: '0' } })).toMatch(/^E0101_InvalidArgument: .*must be above 0; leave it empty to turn the check off/);
    expect(await refusal('settings.update', { preTrade: { maxDeviationPercent: '0.000' } })).toMatch(/must be above 0/);
    expect((await call('settings.update', { preTrade: { maxNotional: '0.5' } })).preTrade.maxNotional).toBe('0.5');
    await call('settings.update', { preTrade: { maxNotional: '' } });
  });

  it('sends Production its secret only over TLS, except on this machine’s loopback', async () => {
    expect(await refusal('environments.configure', { id: 'production', baseUrl: 'http://venue.example.com', wsUrl: 'wss://venue.example.com/ws' })).toMatch(/^E0101_InvalidArgument: baseUrl: Production must be reached over TLS/);
    expect(await refusal('environments.configure', { id: 'production', baseUrl: 'https://venue.example.com', wsUrl: 'ws://venue.example.com/ws' })).toMatch(/wsUrl: Production must be reached over TLS/);
    const view = await call('environments.configure', { id: 'production', baseUrl: 'https://venue.example.com', wsUrl: 'wss://venue.example.com/ws' });
    expect(view.environments.find((e) => e.id === 'production')?.baseUrl).toBe('https://venue.example.com');
    // Development may be plain HTTP (a test venue), and so may Production on loopback.
    await call('environments.configure', { id: 'development', baseUrl: 'http://dev.example.com', wsUrl: 'ws://dev.example.com/ws' });
    await call('environments.configure', { id: 'production', baseUrl: 'http://127.0.0.1:9', wsUrl: 'ws://127.0.0.1:9/ws' });
  });

  it('starts no session once closed, even when it was reconnecting', async () => {
    const other = await openTestDesk();
    await other.desk.whenLive();
    const boot = await other.bootstrap();
    const reconnecting = other.call('keys.use', { environment: 'local', api_key: boot.api_key }).catch(() => undefined);
    await other.close();
    await reconnecting;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(other.desk.status().state).toBe('no_key');
  });
});
