// An uncapped TWAP buy holds slice by slice, so it is accepted (Account stats total_accepted_orders: those whose
// hold was taken) when its first slice's hold is taken, not when it arrives.
import { describe, expect, it } from 'vitest';
import type { Command, World } from './model-world';
import { world } from './model-world';

const P = '2500000000';
/** User 3 of model-world has 100,000,000 VND: 0.04 BTC at P with fee, not 0.1. */
const POOR = 3;

function place(user: number, body: Record<string, unknown>, scheduleInMs = 0, expireInMs = 0): Command {
  return { kind: 'place', user, body, stp: 'CANCEL_TAKER', cid: -1, upper: 0, scheduleInMs, expireInMs };
}

const uncappedBuy = (size: string): Record<string, unknown> => ({ type: 'TWAP', side: 'BUY', limit_price: '0', base_size: size, time_in_force: 'GTT' });

function accepted(w: World, user: number): bigint | undefined {
  return w.exchange.user(w.users[user] as string)?.totalAcceptedOrders;
}

function run(w: World, c: Command): void {
  const { refused } = w.run(c);
  expect(refused, JSON.stringify(c)).toBeUndefined();
}

describe('an uncapped TWAP buy counts as accepted when its first slice is held', () => {
  it('is not accepted when its first slice cannot be funded', () => {
    const w = world();
    run(w, place(0, { type: 'LIMIT', side: 'SELL', limit_price: P, base_size: '0.2' }));
    // Two slices of 0.1 BTC, each 250,000,000 VND: the first is beyond the trader's funds.
    run(w, place(POOR, uncappedBuy('0.2'), 0, 2000));
    const row = [...w.store.orders.values()].find((o) => o.type === 'TWAP');
    expect(row).toMatchObject({ status: 'DONE', doneReason: 'CANCELED', rejectReason: 'E0201_InsufficientBalance', filledBaseSize: '0' });
    expect(accepted(w, POOR)).toBe(0n);
    expect(w.store.users.get(w.users[POOR] as string)?.totalAcceptedOrders).toBe(0n);
  });

  it('is accepted when its first slice is held, though a later one cannot be', () => {
    const w = world();
    run(w, place(0, { type: 'LIMIT', side: 'SELL', limit_price: P, base_size: '0.1' }));
    // Two slices of 0.03 BTC (75,187,500 VND with fee): the first is funded, the second is not.
    run(w, place(POOR, uncappedBuy('0.06'), 0, 2000));
    expect(accepted(w, POOR)).toBe(1n);
    run(w, { kind: 'tick', ms: 1000 });
    const row = [...w.store.orders.values()].find((o) => o.type === 'TWAP');
    expect(row).toMatchObject({ status: 'DONE', doneReason: 'CANCELED', rejectReason: 'E0201_InsufficientBalance', filledBaseSize: '0.03' });
    expect(accepted(w, POOR)).toBe(1n);
  });

  it('scheduled, is accepted when it starts and its first slice is held, and not while it waits', () => {
    const w = world();
    run(w, place(0, { type: 'LIMIT', side: 'SELL', limit_price: P, base_size: '0.1' }));
    run(w, place(POOR, uncappedBuy('0.01'), 500, 2000));
    expect(accepted(w, POOR)).toBe(0n);
    run(w, { kind: 'tick', ms: 500 });
    expect(accepted(w, POOR)).toBe(1n);
  });
});
