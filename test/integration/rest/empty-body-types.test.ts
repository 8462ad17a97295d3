// An empty body is no body whatever Content-Type names it. Some clients label every POST and DELETE with a default
// type even when they send nothing (Java's HttpURLConnection: application/x-www-form-urlencoded), and the venue
// answered 415 "request bodies must be application/json" for a body that was not there: a cancel-all refused, a
// key not created. A body that is there must still be JSON (415 E0106 otherwise).
import { describe, expect, it } from 'vitest';
import { BTC, activeOrders, expectError, expectOk, placeOrder, px, useVenue } from '../harness';

const venue = useVenue({ cleanBooks: true });

const TYPES = ['application/x-www-form-urlencoded', 'text/plain', 'application/octet-stream', 'multipart/form-data; boundary=x'];

describe('an empty body under a Content-Type other than JSON', () => {
  it('is no body: cancel-all cancels, and a key is created with its defaults', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    for (const type of TYPES) {
      await placeOrder(v, t, { product_id: BTC, side: 'BUY', limit_price: px(-100), base_size: '0.001' });
      const cancelled = await v.call<{ cancel_requested_orders: unknown[] }>('DELETE', '/api/v1/orders/active/all', {
        key: t.creds,
        rawBody: '',
        headers: { 'content-type': type },
      });
      expect(expectOk(cancelled).cancel_requested_orders, type).toHaveLength(1);
      expect(await activeOrders(v, t)).toEqual([]);

      const key = await v.call<{ api_key: { name: string; is_read_only: boolean } }>('POST', '/api-keys', { key: t.creds, rawBody: '', headers: { 'content-type': type } });
      expect(expectOk(key).api_key).toMatchObject({ name: '', is_read_only: false });
    }
  });

  it('a body that is there is still 415 E0106 unless it is JSON, and nothing runs', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1000000000' });
    await placeOrder(v, t, { product_id: BTC, side: 'BUY', limit_price: px(-100), base_size: '0.001' });
    for (const type of TYPES) {
      const reply = await v.call('DELETE', '/api/v1/orders/active', { key: t.creds, rawBody: 'product_ids=BTC-VND', headers: { 'content-type': type } });
      expectError(reply, 415, 'E0106_UnsupportedMediaType', 'InvalidArgument');
    }
    expect(await activeOrders(v, t)).toHaveLength(1);
  });
});
