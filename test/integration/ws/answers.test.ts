// A request the venue took while the connection was authenticated is answered on that connection, whatever
// happens to its authentication before the answer goes out (a failed auth read right behind it, a second auth as
// another user, the key expiring before the commit is published): a client that never hears of an order it
// placed may send it again. Later updates of the order reach the connection only while it is authenticated with
// a key that still works, as the orders subscription does (docs/api.md, WebSocket behaviour).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startVenue } from '../../../src-main/venue/server';
import { callVenue, type Trader } from '../harness';
import { TestSocket, signature, type Frame } from './ws-client';
import { BTC, cid, expectErrorEvent, limitData, orderUpdate, px, updatesOf, useWsVenue, type WsOrder, type WsVenue } from './ws-venue';

type Tagged = WsOrder & { request_id?: string };

/** The updates of this client order id on the socket, as `status request_id`. */
function answered(socket: TestSocket, clientOrderId: string): string[] {
  return updatesOf(socket, clientOrderId).map((u) => `${u.status} ${(u as Tagged).request_id ?? '-'}`);
}

/** Another trader's IOC buy at the price, over REST, processed before this resolves. */
async function takeFrom(v: WsVenue, taker: Trader, price: string, size: string): Promise<void> {
  const reply = await v.call('POST', '/api/v1/orders', { key: taker.creds, body: { product_id: BTC, side: 'BUY', limit_price: price, base_size: size, time_in_force: 'IOC', wait: true } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

describe('a request taken before the connection loses its authentication', () => {
  const venue = useWsVenue();

  it('create_order then an auth with a bad signature in the same burst: the order is answered, its later fills are not sent', async () => {
    const v = venue();
    const [trader, taker] = [await v.newTrader(), await v.newTrader()];
    const socket = await v.session(trader);
    const id = cid('burst');
    const timestamp = Math.floor(Date.now() / 1000);
    socket.send({ op: 'create_order', request_id: 'create', data: limitData('sell', px(700), '0.002', { client_order_id: id }) });
    socket.send({ op: 'auth', request_id: 'bad', data: { key: trader.creds.key, timestamp, signature: signature(trader.creds.key, 'wrong', timestamp) } });

    const refused = await socket.next((f) => f['request_id'] === 'bad');
    expect(refused['channel']).toBe('auth');
    expectErrorEvent(refused, 401);
    const open = await orderUpdate(socket, id, ['open']);
    expect(answered(socket, id)).toEqual(['pending create', 'open create']);
    expect((await v.activeOrders(trader)).map((o) => o.order_id)).toEqual([open.id]);

    // The connection is no longer the trader's: a fill by someone else is not its to hear.
    await takeFrom(v, taker, px(700), '0.001');
    await socket.barrier();
    expect(answered(socket, id)).toEqual(['pending create', 'open create']);
  });

  it('cancel_order then a malformed auth in the same burst: the cancel is answered', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.session(trader);
    const id = cid('cancel-burst');
    socket.send({ op: 'create_order', request_id: 'create', data: limitData('buy', px(-700), '0.001', { client_order_id: id }) });
    const open = await orderUpdate(socket, id, ['open']);
    socket.send({ op: 'cancel_order', request_id: 'cancel', data: { order_id: open.id } });
    socket.send({ op: 'auth', request_id: 'malformed', data: {} });

    const refused = await socket.next((f) => f['request_id'] === 'malformed');
    expect(refused['channel']).toBe('auth');
    expectErrorEvent(refused, 400);
    await orderUpdate(socket, id, ['cancelled']);
    expect(answered(socket, id)).toEqual(['pending create', 'open create', 'cancelled cancel']);
  });

  it('create_order then an auth as another user: the order is answered, and the connection hears no more of it', async () => {
    const v = venue();
    const [trader, other, taker] = [await v.newTrader(), await v.newTrader(), await v.newTrader()];
    const socket = await v.session(trader);
    const id = cid('switch');
    const timestamp = Math.floor(Date.now() / 1000) + 1;
    socket.send({ op: 'create_order', request_id: 'create', data: limitData('sell', px(710), '0.002', { client_order_id: id }) });
    socket.send({ op: 'auth', request_id: 'other', data: { key: other.creds.key, timestamp, signature: signature(other.creds.key, other.creds.secret, timestamp) } });

    expect(await socket.next((f) => f['request_id'] === 'other')).toMatchObject({ channel: 'auth', type: 'authenticated' });
    await orderUpdate(socket, id, ['open']);
    expect(answered(socket, id)).toEqual(['pending create', 'open create']);

    await takeFrom(v, taker, px(710), '0.001');
    await socket.barrier();
    expect(answered(socket, id)).toEqual(['pending create', 'open create']);
  });

  it('a key revoked while its connection has an order working: told 401 E0005 on the auth channel, and no fill of it', async () => {
    const v = venue();
    const [trader, taker] = [await v.newTrader(), await v.newTrader()];
    const key = await v.call<{ api_key: { api_key: string; api_secret: string } }>('POST', '/api-keys', { key: trader.creds, body: { name: 'second' } });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    const second = { key: key.body.api_key.api_key, secret: key.body.api_key.api_secret };
    // Not subscribed to orders: it hears of the order as its creator only.
    const socket = await v.session({ userId: trader.userId, creds: second });
    const id = cid('revoked');
    socket.send({ op: 'create_order', request_id: 'create', data: limitData('sell', px(720), '0.002', { client_order_id: id }) });
    await orderUpdate(socket, id, ['open']);

    const revoked = await v.call('DELETE', `/api-keys/${second.key}`, { key: trader.creds });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    const from = socket.mark();
    await takeFrom(v, taker, px(720), '0.001');
    const told = await socket.next((f) => f['channel'] === 'auth' && f['type'] === 'error', 5_000, from);
    expectErrorEvent(told, 401);
    expect(told['message']).toMatch(/^E0005_ApiKeyRevoked: /);
    await socket.barrier();
    expect(answered(socket, id)).toEqual(['pending create', 'open create']);
  });
});

describe('a key that expires between taking an order and publishing its commit', () => {
  it('the order is answered after the 401 on the auth channel', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-ws-expiry-'));
    // The venue's clock, moved past the key's expiry by hand while the order's commit is published.
    let clock = BigInt(Date.now()) * 1_000_000n;
    const running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0, now: () => clock });
    try {
      const boot = running.venue.localCredentials();
      if (boot === undefined) throw new Error('no local user');
      const expiresAt = clock + 60_000_000_000n;
      const created = await callVenue<{ api_key: { api_key: string; api_secret: string } }>(running.baseUrl, 'POST', '/api-keys', {
        key: { key: boot.api_key, secret: boot.api_secret },
        body: { expiration_time: expiresAt.toString() },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const short = created.body.api_key;
      const id = cid('expiring');
      // Registered before any connection, so it runs ahead of the WebSocket's publishing of the same commit.
      const unfollow = running.venue.onCommitted((batch) => {
        if (batch.orders.some((e) => e.row.clientOrderId === id)) clock = expiresAt + 1n;
      });
      const socket = await TestSocket.open(running.wsUrl);
      try {
        expect(await socket.auth(short.api_key, short.api_secret, Number(clock / 1_000_000_000n))).toMatchObject({ type: 'authenticated' });
        await socket.request({ op: 'sub', channel: 'orders' });
        socket.send({ op: 'create_order', request_id: 'create', data: { type: 'limit', side: 'buy', product_id: BTC, price: '1000000000', size: '0.001', client_order_id: id } });

        const told: Frame = await socket.next((f) => f['channel'] === 'auth' && f['type'] === 'error');
        expectErrorEvent(told, 401);
        expect(told['message']).toMatch(/^E0002_ApiKeyExpired: /);
        await orderUpdate(socket, id, ['open']);
        expect(answered(socket, id)).toEqual(['pending create', 'open create']);
      } finally {
        unfollow();
        socket.terminate();
      }
    } finally {
      await running.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
