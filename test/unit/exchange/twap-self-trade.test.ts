// A TWAP slice is an IOC order (venue contract): self-trade prevention ends the slice that meets the trader's own
// resting order, and the TWAP goes on slicing. It is DONE when its window ends or it is filled.
import { describe, expect, it } from 'vitest';
import type { OrderRow } from '../../../src-main/venue/store';
import { world, type Command, type Stp, type World } from './model-world';

const P = '2500000000';

function place(user: number, body: Record<string, unknown>, stp: Stp = 'CANCEL_TAKER', expireInMs = 0): Command {
  return { kind: 'place', user, body, stp, cid: -1, upper: 0, scheduleInMs: 0, expireInMs };
}

function run(w: World, c: Command): void {
  const { refused } = w.run(c);
  expect(refused, JSON.stringify(c)).toBeUndefined();
}

function rowsOf(w: World, user: number): OrderRow[] {
  return [...w.store.orders.values()].filter((o) => o.userId === w.users[user]).sort((a, b) => (a.createdAt === b.createdAt ? a.seq - b.seq : a.createdAt < b.createdAt ? -1 : 1));
}

describe('a TWAP whose slice meets the trader’s own resting order', () => {
  it('CANCEL_BOTH: the own ask is cancelled and the slice ends there; the TWAP slices on and ends when its window does', () => {
    const w = world();
    run(w, place(0, { type: 'LIMIT', side: 'SELL', limit_price: P, base_size: '0.0001' }));
    // Two slices of 0.0001, at 0 and 1 s; the first meets the trader's own ask.
    run(w, place(0, { type: 'TWAP', side: 'BUY', limit_price: P, base_size: '0.0002', time_in_force: 'GTT' }, 'CANCEL_BOTH', 2000));
    const [ownAsk, first] = rowsOf(w, 0);
    expect(ownAsk).toMatchObject({ status: 'DONE', doneReason: 'CANCELED', rejectReason: 'E0204_SelfTradePrevented' });
    expect(first).toMatchObject({ type: 'TWAP', status: 'ACTIVE', filledBaseSize: '0' });

    run(w, place(1, { type: 'LIMIT', side: 'SELL', limit_price: P, base_size: '0.0002' }));
    run(w, { kind: 'tick', ms: 1000 });
    let [, twap] = rowsOf(w, 0);
    expect(twap).toMatchObject({ status: 'ACTIVE', filledBaseSize: '0.0001' });
    run(w, { kind: 'tick', ms: 1000 });
    [, twap] = rowsOf(w, 0);
    expect(twap).toMatchObject({ status: 'DONE', doneReason: 'EXPIRED', rejectReason: '', filledBaseSize: '0.0001' });
  });

  it('CANCEL_TAKER: the slice stops at the own ask, trading nothing; the next, once the ask is gone, trades', () => {
    const w = world();
    run(w, place(0, { type: 'LIMIT', side: 'SELL', limit_price: P, base_size: '0.0001' }));
    run(w, place(1, { type: 'LIMIT', side: 'SELL', limit_price: P, base_size: '0.0002' }));
    run(w, place(0, { type: 'TWAP', side: 'BUY', limit_price: P, base_size: '0.0002', time_in_force: 'GTT' }, 'CANCEL_TAKER', 2000));
    let [ownAsk, twap] = rowsOf(w, 0);
    expect(ownAsk?.status).toBe('ACTIVE');
    expect(twap).toMatchObject({ type: 'TWAP', status: 'ACTIVE', filledBaseSize: '0' });
    // The oldest of the trader's orders: the ask.
    run(w, { kind: 'cancel', user: 0, pick: 0 });
    run(w, { kind: 'tick', ms: 1000 });
    [ownAsk, twap] = rowsOf(w, 0);
    expect(ownAsk).toMatchObject({ status: 'DONE', doneReason: 'CANCELED', rejectReason: '' });
    expect(twap).toMatchObject({ status: 'ACTIVE', filledBaseSize: '0.0001' });
    run(w, { kind: 'tick', ms: 1000 });
    [, twap] = rowsOf(w, 0);
    expect(twap).toMatchObject({ status: 'DONE', doneReason: 'EXPIRED', rejectReason: '', filledBaseSize: '0.0001' });
  });
});
