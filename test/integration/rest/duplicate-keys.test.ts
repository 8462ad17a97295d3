// A JSON body naming one key twice (RFC 8259 4: names SHOULD be unique; what a parser then does is left open).
// JSON.parse keeps the last value, so {"side":"BUY",...,"side":"SELL"} placed a SELL: the venue guessed which one
// the client meant. Like a single-valued query parameter given twice, it is E0101 and nothing happens.
import { describe, expect, it } from 'vitest';
import { BTC, activeOrders, expectError, expectOk, placeOrder, px, useVenue } from '../harness';

const venue = useVenue({ cleanBooks: true });

const ORDER = `"product_id":"${BTC}","limit_price":"${px(-100)}","base_size":"0.001","wait":true`;

describe('a request body with a key given twice', () => {
  it('places no order: 400 E0101 naming the key, however the second spelling is escaped', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000', BTC: '1' });
    for (const [raw, name] of [
      [`{"side":"BUY",${ORDER},"side":"SELL"}`, 'side'],
      [`{"side":"BUY",${ORDER},"s\\u0069de":"BUY"}`, 'side'],
      [`{"side":"BUY",${ORDER},"base_size":"0.002"}`, 'base_size'],
    ] as const) {
      const reply = await v.call('POST', '/api/v1/orders', { key: t.creds, rawBody: raw, headers: { 'content-type': 'application/json' } });
      expectError(reply, 400, 'E0101_InvalidArgument', 'InvalidArgument');
      expect((reply.body as { error: { message: string } }).error.message).toContain(`${name}: given more than once`);
    }
    expect(await activeOrders(v, t)).toEqual([]);
  });

  it('cancels nothing, and funds nobody, when the key is nested', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    const order = await placeOrder(v, t, { product_id: BTC, side: 'BUY', limit_price: px(-100), base_size: '0.001' });
    const cancel = await v.call('DELETE', '/api/v1/orders/active', {
      key: t.creds,
      rawBody: `{"order_ids":["${order.order_id}"],"order_ids":[]}`,
      headers: { 'content-type': 'application/json' },
    });
    expectError(cancel, 400, 'E0101_InvalidArgument');
    expect((await activeOrders(v, t)).map((o) => o.order_id)).toEqual([order.order_id]);

    const user = await v.call('POST', '/sim/users', {
      key: v.admin.creds,
      rawBody: '{"balances":{"BTC":"1","VND":"5","BTC":"2"}}',
      headers: { 'content-type': 'application/json' },
    });
    expectError(user, 400, 'E0101_InvalidArgument');
    expect((user.body as { error: { message: string } }).error.message).toContain('balances.BTC: given more than once');
  });

  it('takes one name in two different objects, and the same text as a value', async () => {
    const v = venue();
    const reply = await v.call<{ user_id: string }>('POST', '/sim/users', {
      key: v.admin.creds,
      rawBody: '{"balances":{"BTC":"1","balances":null},"name":"balances","x":[{"a":1},{"a":2}]}',
      headers: { 'content-type': 'application/json' },
    });
    expect(expectOk(reply).user_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
