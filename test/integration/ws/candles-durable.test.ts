// A candles snapshot shows no trade before it is durable: it is read as of the commits taken so far and sent once
// they are published, so on one connection it never holds more volume than the trades channel has published. It
// was read when the sub arrived, from candles updated at match time: a trade whose commit a crash could still
// lose was already in it. A trade committed after the read reaches the subscriber as an update after the snapshot.
// The commits are held in flight by making the real store's commit wait for the test's word.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import type { Venue } from '../../../src-main/venue/venue';
import { BTC, atoms, limit, placeOrder, px, useVenue } from '../harness';
import { TestSocket, type Frame } from './ws-client';

const venue = useVenue({ cleanBooks: true });

/**
 * Every commit from now on is written as usual, and its callers hear so (and its events go out) only on release,
 * all in the same turn, as when one group commit held them all: `written` resolves when the writes are done.
 */
function holdCommits(running: Venue): { written(): Promise<unknown>; release(): void; restore(): void } {
  const { store } = running;
  const commit = store.commit.bind(store);
  const writes: Promise<void>[] = [];
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  store.commit = (changes, now) => {
    const write = commit(changes, now);
    writes.push(write);
    return write.then(() => gate);
  };
  return { written: () => Promise.all(writes), release, restore: () => void (store.commit = commit) };
}

function marketBuy(running: Venue, userId: string, size: string): Promise<unknown> {
  const parsed = parseCreateOrder({ product_id: BTC, type: 'MARKET', side: 'BUY', limit_price: '0', base_size: size, time_in_force: 'IOC' }, { now: running.now() });
  if (parsed instanceof ApiError) throw parsed;
  return running.run(() => running.exchange.place(userId, parsed));
}

const minuteOf = (time: string): string => String(BigInt(time) - (BigInt(time) % 60_000_000_000n));

describe('a candles snapshot while trades are being committed', () => {
  it('holds no more volume than the trades published before it, and misses no trade committed after it', async () => {
    const v = venue();
    const [maker, taker] = [await v.newTrader({ BTC: '1', VND: '0' }), await v.newTrader({ BTC: '0', VND: '100000000000' })];
    await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    const { venue: running } = v.running;
    const socket = await TestSocket.open(v.running.wsUrl);
    try {
      expect(await socket.request({ op: 'sub', channel: 'trades', product_ids: [BTC] })).toMatchObject({ channel: 'subscriptions' });

      const held = holdCommits(running);
      let trading: Promise<unknown[]>;
      try {
        // Matched in memory; its commit waits.
        const first = marketBuy(running, taker.userId, '0.003');
        expect(await socket.request({ op: 'sub', channel: 'candles', product_ids: [BTC] })).toMatchObject({ channel: 'subscriptions' });
        // After the snapshot was read: its update must follow the snapshot.
        const second = marketBuy(running, taker.userId, '0.002');
        await socket.barrier();
        trading = Promise.all([first, second]);
        await held.written();
      } finally {
        held.release();
        held.restore();
      }
      await trading;
      await socket.next((f) => f['channel'] === 'candles' && f['type'] === 'snapshot');
      await socket.barrier();

      // Volume per minute, in atoms: as the trades channel published it, and as the candles channel shows it.
      const published = new Map<string, bigint>();
      const shown = new Map<string, bigint>();
      const ahead: string[] = [];
      let snapshots = 0;
      for (const f of socket.frames) {
        if (f['channel'] === 'trades' && f['type'] === 'update') {
          for (const t of f['data'] as Frame[]) published.set(minuteOf(t['time'] as string), (published.get(minuteOf(t['time'] as string)) ?? 0n) + atoms(t['size'] as string, 8));
        }
        if (f['channel'] !== 'candles') continue;
        if (f['type'] === 'snapshot') snapshots += 1;
        for (const c of f['candles'] as Frame[]) {
          const volume = atoms(c['volume'] as string, 8);
          shown.set(c['start'] as string, volume);
          if (f['type'] === 'snapshot' && volume > (published.get(c['start'] as string) ?? 0n)) ahead.push(`${c['start']}: ${c['volume']} shown, ${published.get(c['start'] as string) ?? 0n} atoms published`);
        }
      }
      expect(snapshots).toBe(1);
      expect(ahead).toEqual([]);
      expect([...published.values()].reduce((a, b) => a + b, 0n)).toBe(atoms('0.005', 8));
      expect(shown).toEqual(published);
    } finally {
      socket.close();
    }
  });
});
