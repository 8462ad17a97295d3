// Fill notifications from main: one per fill, never twice, none for fills from before the app started, a burst
// as one, and each naming the environment it happened on.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FillNotices, MAX_NOTICES_AT_ONCE, tellFills, type FillNotice } from '../../../src-main/app/fill-notices';
import { VenueRestClient } from '../../../src-main/connection/rest-client';
import { Desk } from '../../../src-main/desk/desk';
import { startEmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { secretId } from '../../../src-main/desk/key-vault';
import { MemorySecretStore } from '../../../src-main/secrets';
import { venueWorkerFromSource } from '../../../src-main/web/typescript-worker';
import { eventually } from '../../integration/eventually';
import type { Order } from '../../../src-shared/protocol/records';

const START = 1_700_000_000_000_000_000n;

function order(id: string, side: 'BUY' | 'SELL', trades: { id: string; time: bigint; size?: string }[]): Order {
  return {
    order_id: id,
    client_order_id: `c-${id}`,
    user_id: 'u1',
    product_id: 'BTC-VND',
    side,
    trades: trades.map((t) => ({
      id: t.id,
      price: '2500000000.00',
      size: t.size ?? '0.00100000',
      liquidity_indicator: 'TAKER',
      time: t.time.toString(),
      fee_asset: 'VND',
      fee_amount: '0',
    })),
  } as unknown as Order;
}

describe('fill notices', () => {
  it('tells each new fill once, in plain figures', () => {
    const notices = new FillNotices(START);
    expect(notices.take([order('o1', 'BUY', [{ id: 't1', time: START + 1n }])], 'local')).toEqual([
      { title: 'Local: Bought 0.001 BTC-VND', body: 'at 2500000000 (taker), order c-o1' },
    ]);
    // The same order again, now with a second fill: only the second is news.
    const again = notices.take([order('o1', 'BUY', [{ id: 't1', time: START + 1n }, { id: 't2', time: START + 2n, size: '0.5' }])], 'local');
    expect(again.map((n) => n.title)).toEqual(['Local: Bought 0.5 BTC-VND']);
    expect(notices.take([order('o1', 'BUY', [{ id: 't1', time: START + 1n }, { id: 't2', time: START + 2n }])], 'local')).toEqual([]);
  });

  it('says nothing of fills from before the app started (a reconnect brings them back)', () => {
    const notices = new FillNotices(START);
    expect(notices.take([order('o2', 'SELL', [{ id: 't9', time: START - 1n }])], 'local')).toEqual([]);
  });

  it('makes a burst one notice', () => {
    const notices = new FillNotices(START);
    const trades = Array.from({ length: MAX_NOTICES_AT_ONCE + 2 }, (_, i) => ({ id: `b${i}`, time: START + BigInt(i) }));
    const burst = notices.take([order('o3', 'SELL', trades)], 'local');
    expect(burst).toHaveLength(1);
    expect(burst[0]?.title).toBe(`Local: ${MAX_NOTICES_AT_ONCE + 2} fills`);
    expect(burst[0]?.body).toMatch(/^the last: Sold 0.001 BTC-VND/);
  });
});

describe('fill notices of a real desk', () => {
  it('name the environment the fill happened on, Production unmistakably', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'nova-fill-notices-'));
    const secrets = new MemorySecretStore();
    const desk = await Desk.open({
      dataDir,
      secrets,
      launchLocalVenue: (venueDir) => startEmbeddedVenue(venueWorkerFromSource(), { dataDir: venueDir, simulate: false }),
    });
    const told: FillNotice[] = [];
    const telling = tellFills(desk, BigInt(Date.now()) * 1_000_000n, (notice) => told.push(notice));
    try {
      await desk.whenLive();
      const local = desk.venueStatus();
      const boot = JSON.parse(readFileSync(join(dataDir, 'local-venue', 'bootstrap.json'), 'utf8')) as { api_key: string; user_id: string };
      const bootSecret = (await secrets.get(secretId('local', boot.api_key))) ?? '';
      const admin = new VenueRestClient({ baseUrl: local.baseUrl, credentials: { apiKey: boot.api_key, apiSecret: bootSecret } });
      const seller = await admin.createSimUser({ BTC: '1' });
      admin.dispose();
      const sellerClient = new VenueRestClient({ baseUrl: local.baseUrl, credentials: { apiKey: seller.api_key.api_key, apiSecret: seller.api_key.api_secret ?? '' } });
      /** The other user rests a sell; the desk's user buys it, and the desk's session tells the fill. */
      const buyFilled = async (confirmed?: 'production'): Promise<FillNotice> => {
        const count = told.length;
        await sellerClient.placeOrder({ product_id: 'BTC-VND', side: 'SELL', limit_price: '2500000000', base_size: '0.001' });
        await desk.placeOrder({ product_id: 'BTC-VND', side: 'BUY', limit_price: '2500000000', base_size: '0.001', override_checks: true, environment: confirmed ?? 'local', ...(confirmed === undefined ? {} : { confirmed }) });
        return eventually(() => told[count], 'the fill notice');
      };
      try {
        expect((await buyFilled()).title).toBe('Local: Bought 0.001 BTC-VND');
        // Production stands in at the same venue (localhost, an address of its own), trading as the same user.
        await desk.configureEnvironment({ id: 'production', baseUrl: local.baseUrl.replace('127.0.0.1', 'localhost'), wsUrl: local.wsUrl.replace('127.0.0.1', 'localhost') });
        await desk.switchEnvironment('production');
        await desk.importKey({ environment: 'production', api_key: boot.api_key, api_secret: bootSecret, user_id: boot.user_id, use: true });
        await desk.whenLive();
        expect((await buyFilled('production')).title).toBe('PRODUCTION (real money): Bought 0.001 BTC-VND');
      } finally {
        sellerClient.dispose();
      }
    } finally {
      telling.dispose();
      await desk.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
