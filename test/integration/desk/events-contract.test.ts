// Every event a real desk emits reads with the contract's schema for it: a window's bridge now drops one that does
// not (src-renderer/bridge), so a payload main builds field by field that drifted from its schema would be lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEvent } from '../../../src-shared/ipc/contract';
import type { DeskEvent } from '../../../src-main/desk/desk-events';
import { eventually, openTestDesk, type TestDesk } from './open-desk';

let t: TestDesk;

beforeAll(async () => {
  t = await openTestDesk();
  await t.desk.whenLive();
});

afterAll(async () => {
  await t.close();
});

describe("the desk's events", () => {
  it('each read with its schema, of every kind a trading session emits', async () => {
    const emitted: DeskEvent[] = [];
    const listening = t.desk.events.onDidEmit((event) => void emitted.push(event));
    try {
      await t.call('market.watch', { product_id: 'BTC-VND' });
      const placed = await t.call('orders.place', { environment: 'local', product_id: 'BTC-VND', side: 'BUY', limit_price: '2400000000', base_size: '0.001', override_checks: true });
      if (placed.status !== 'placed') throw new Error('held');
      await t.call('orders.cancel', { environment: 'local', order_id: placed.order.order_id });
      await t.call('environments.switch', { id: 'local' });
      const kinds = ['book.changed', 'trades.received', 'ticker.changed', 'candles.changed', 'orders.changed', 'connection.changed', 'environments.changed', 'account.changed'];
      await eventually(() => (kinds.every((kind) => emitted.some((e) => e.name === kind)) ? true : undefined), `events of every kind (${kinds.join(', ')})`);
    } finally {
      listening.dispose();
    }
    const refused = emitted.flatMap((event) => {
      const parsed = parseEvent(event.name, event.payload);
      return parsed.ok ? [] : [parsed.reason];
    });
    expect(refused).toEqual([]);
  });
});
