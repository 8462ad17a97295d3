// Fill notifications from main: one per fill, never twice, none for fills from before the app started, and a
// burst as one.
import { describe, expect, it } from 'vitest';
import { FillNotices, MAX_NOTICES_AT_ONCE } from '../../../src-main/app/fill-notices';
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
    expect(notices.take([order('o1', 'BUY', [{ id: 't1', time: START + 1n }])])).toEqual([
      { title: 'Bought 0.001 BTC-VND', body: 'at 2500000000 (taker), order c-o1' },
    ]);
    // The same order again, now with a second fill: only the second is news.
    const again = notices.take([order('o1', 'BUY', [{ id: 't1', time: START + 1n }, { id: 't2', time: START + 2n, size: '0.5' }])]);
    expect(again.map((n) => n.title)).toEqual(['Bought 0.5 BTC-VND']);
    expect(notices.take([order('o1', 'BUY', [{ id: 't1', time: START + 1n }, { id: 't2', time: START + 2n }])])).toEqual([]);
  });

  it('says nothing of fills from before the app started (a reconnect brings them back)', () => {
    const notices = new FillNotices(START);
    expect(notices.take([order('o2', 'SELL', [{ id: 't9', time: START - 1n }])])).toEqual([]);
  });

  it('makes a burst one notice', () => {
    const notices = new FillNotices(START);
    const trades = Array.from({ length: MAX_NOTICES_AT_ONCE + 2 }, (_, i) => ({ id: `b${i}`, time: START + BigInt(i) }));
    const burst = notices.take([order('o3', 'SELL', trades)]);
    expect(burst).toHaveLength(1);
    expect(burst[0]?.title).toBe(`${MAX_NOTICES_AT_ONCE + 2} fills`);
    expect(burst[0]?.body).toMatch(/^the last: Sold 0.001 BTC-VND/);
  });
});
