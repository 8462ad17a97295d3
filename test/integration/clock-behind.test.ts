// A system clock set back between two runs on one folder (a correction, a machine moved across time zones badly
// configured, a restored backup's clock): the venue's clock stays at or past what the folder holds, so a trade after
// the restart still reaches the chart and the 24-hour figures, and a new order sorts after the old ones.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../src-shared/protocol/orders';
import { Venue } from '../../src-main/venue/venue';

const dir = mkdtempSync(join(tmpdir(), 'nova-clock-behind-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A resting ask and the bid that takes it: one trade of 0.001 BTC. */
async function trade(venue: Venue, seller: string, buyer: string): Promise<void> {
  for (const [user, side] of [[seller, 'SELL'], [buyer, 'BUY']] as const) {
    const request = parseCreateOrder({ product_id: 'BTC-VND', side, limit_price: '2500000000', base_size: '0.001' }, { now: venue.now() });
    if (request instanceof ApiError) throw request;
    await venue.run(() => venue.exchange.place(user, request));
  }
}

it('a folder written by a clock ahead of this one: new trades are stamped after its newest and counted in the candles', async () => {
  // Year 2100: the folder's newest trade is far ahead of the wall clock this machine has now.
  let ahead = 4_102_444_800_000_000_000n;
  const first = await Venue.open({ dataDir: dir, now: () => (ahead += 1_000n) });
  const [seller, buyer] = await first.run(() =>
    [0, 1].map(() => {
      const user = first.exchange.createUser({ isAdmin: false, makerFeeRate: '0', takerFeeRate: '0' });
      first.exchange.deposit(user.id, 'BTC', 10n ** 12n);
      first.exchange.deposit(user.id, 'VND', 10n ** 18n);
      return user.id;
    }),
  );
  await trade(first, seller as string, buyer as string);
  await first.close();

  const again = await Venue.open({ dataDir: dir });
  try {
    const market = again.exchange.markets.get('BTC-VND');
    const before = market?.recentTrades.at(-1)?.time ?? 0n;
    expect(before).toBeGreaterThan(4_102_444_800_000_000_000n);
    await trade(again, seller as string, buyer as string);
    const after = market?.recentTrades.at(-1)?.time ?? 0n;
    expect(after).toBeGreaterThan(before);
    // Both trades are in the candles: the second one was not taken for a late trade and dropped.
    expect(market?.candles.summary(0n)?.volume).toBe('0.002');
    expect(again.now()).toBeGreaterThan(after);
  } finally {
    await again.close();
  }
});

it('a folder whose newest event is a cancel, not a trade: the clock starts past the cancel', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'nova-clock-cancel-'));
  try {
    let ahead = 4_102_444_800_000_000_000n;
    const first = await Venue.open({ dataDir: folder, now: () => (ahead += 1_000n) });
    const user = await first.run(() => {
      const u = first.exchange.createUser({ isAdmin: false, makerFeeRate: '0', takerFeeRate: '0' });
      first.exchange.deposit(u.id, 'VND', 10n ** 18n);
      return u.id;
    });
    const request = parseCreateOrder({ product_id: 'BTC-VND', side: 'BUY', limit_price: '2500000000', base_size: '0.001' }, { now: first.now() });
    if (request instanceof ApiError) throw request;
    const { processed } = await first.run(() => first.exchange.place(user, request));
    // Much later on the same fast clock: the cancel is the folder's newest time, and the order is no longer open.
    ahead += 10n ** 15n;
    await first.run(() => first.exchange.cancel(user, { orderId: processed.row.orderId }));
    const cancelledAt = ahead;
    await first.close();

    const again = await Venue.open({ dataDir: folder });
    try {
      expect(again.now()).toBeGreaterThan(cancelledAt);
    } finally {
      await again.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
