// Two connections cancel one order at once (the desk and a script, say): one gets the order's update, the other
// 409 "order already done", never 404 "order not found". The loser's refusal was read from the tables before the
// winner's commit, still in flight, had reached them: a turn with nothing to commit did not wait for it.
import { describe, expect, it } from 'vitest';
import type { Frame } from './ws-client';
import { cid, createOrder, expectErrorEvent, limitData, px, useWsVenue } from './ws-venue';

const venue = useWsVenue();

describe('cancel_order racing another connection’s cancel of the same order', () => {
  it('is an update for one and 409 "order already done" for the other', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const [first, second] = [await v.session(trader), await v.session(trader)];
    for (let round = 0; round < 30; round++) {
      const order = await createOrder(first, limitData('buy', px(-60 - round), '0.001', { client_order_id: cid('race') }), ['open']);
      const [fromFirst, fromSecond] = [first.mark(), second.mark()];
      first.send({ op: 'cancel_order', request_id: `a${round}`, data: { order_id: order.id } });
      // The second lands at once or up to a few milliseconds later: while the first's commit is in flight.
      if (round % 3 !== 0) await new Promise((resolve) => setTimeout(resolve, round % 3));
      second.send({ op: 'cancel_order', request_id: `b${round}`, data: round % 2 === 0 ? { order_id: order.id } : { client_order_id: order.client_order_id.toUpperCase() } });
      const answers: Frame[] = await Promise.all([
        first.next((f) => f['request_id'] === `a${round}` || (Array.isArray(f['data']) && (f['data'] as Frame[]).some((o) => o['request_id'] === `a${round}`)), 5_000, fromFirst),
        second.next((f) => f['request_id'] === `b${round}` || (Array.isArray(f['data']) && (f['data'] as Frame[]).some((o) => o['request_id'] === `b${round}`)), 5_000, fromSecond),
      ]);
      const refused = answers.filter((f) => f['type'] === 'error');
      expect(refused, JSON.stringify(answers)).toHaveLength(1);
      expectErrorEvent(refused[0] as Frame, 409, 'order already done');
      expect(answers.filter((f) => f['type'] === 'update')).toHaveLength(1);
    }
  });
});
