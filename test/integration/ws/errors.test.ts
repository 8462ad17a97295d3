// The WebSocket trading errors of interface 7.4: each code, each listed message, on the orders channel with the
// request's request_id and data echoed (section 6, "order error"). 401 and 403 are covered in auth.test.ts.
import { describe, expect, it } from 'vitest';
import { textOf, type TestSocket, type Frame } from './ws-client';
import { BTC, cid, createOrder, expectErrorEvent, limitData, orderUpdate, px, updatesOf, useWsVenue, type WsVenue } from './ws-venue';

const venue = useWsVenue();

/** Send op with data and a request_id; the answer must be an orders-channel error echoing both. */
async function refused(socket: TestSocket, op: 'create_order' | 'cancel_order', data: unknown, code: number, listed?: string): Promise<Frame> {
  const answer = await socket.request({ op, data }, (f) => f['type'] === 'error');
  expect(answer['channel'], JSON.stringify(answer)).toBe('orders');
  expectErrorEvent(answer, code, listed);
  expect(answer['data'], 'the request data echoed').toEqual(data);
  return answer;
}

async function trading(v: WsVenue, balances?: Record<string, string>): Promise<TestSocket> {
  const socket = await v.session(await v.newTrader(balances));
  await socket.request({ op: 'sub', channel: 'orders' });
  return socket;
}

describe('create_order refused before the engine: 400 with the listed message', () => {
  it.each<[string, Frame]>([
    ['an unknown product', { product_id: 'DOGE-VND' }],
    ['a product id in the wrong case', { product_id: 'btc-vnd' }],
    ['no product', { product_id: undefined }],
  ])('%s is "invalid product"', async (_label, change) => {
    const socket = await trading(venue());
    await refused(socket, 'create_order', { ...limitData('buy', px(-10), '0.001'), ...change }, 400, 'invalid product');
  });

  it.each<[string, Frame]>([
    ['a price off the increment', { price: '2500005000' }],
    ['a negative price', { price: '-2500000000' }],
    ['a price that is not a number', { price: 'cheap' }],
    ['a price in exponent form', { price: '2.5e9' }],
    ['a price above the maximum', { price: '200000000000' }],
    ['a limit order without a price', { price: undefined }],
    ['a market order with a price', { type: 'market', price: px(0) }],
    ['a stop trigger off the increment', { stop_trigger_price: '2500005000', order_stop_type: 'STOP_LOSS' }],
  ])('%s is "invalid price"', async (_label, change) => {
    const socket = await trading(venue());
    await refused(socket, 'create_order', { ...limitData('buy', px(-10), '0.001'), ...change }, 400, 'invalid price');
  });

  it.each<[string, Frame]>([
    ['a size off the increment', { size: '0.00015' }],
    ['a negative size', { size: '-0.001' }],
    ['a size that is not a number', { size: 'lots' }],
    ['a size above the maximum', { size: '1000.0001' }],
    ['a limit order without a size', { size: undefined }],
    ['a size whose notional is below the minimum', { price: '10000', size: '0.0001' }],
    ['a market buy for a quote_size below the minimum', { type: 'market', price: undefined, size: undefined, quote_size: '9999' }],
    ['a quote_size with more decimals than VND has', { type: 'market', price: undefined, size: undefined, quote_size: '20000.5' }],
    ['a market order with neither size nor quote_size', { type: 'market', price: undefined, size: undefined }],
  ])('%s is "invalid size"', async (_label, change) => {
    const socket = await trading(venue());
    await refused(socket, 'create_order', { ...limitData('buy', px(-10), '0.001'), ...change }, 400, 'invalid size');
  });

  it.each<[string, unknown]>([
    ['an uppercase type', { ...limitData('buy', px(-10), '0.001'), type: 'LIMIT' }],
    ['an uppercase side', { ...limitData('buy', px(-10), '0.001'), side: 'BUY' }],
    ['an unknown stp', { ...limitData('buy', px(-10), '0.001'), stp: 'CANCEL_TAKER' }],
    ['an unknown time in force', { ...limitData('buy', px(-10), '0.001'), time_in_force: 'DAY' }],
    ['post_only as a string', { ...limitData('buy', px(-10), '0.001'), post_only: 'true' }],
    ['post_only with IOC', { ...limitData('buy', px(-10), '0.001'), post_only: true, time_in_force: 'IOC' }],
    ['a client order id with a space', { ...limitData('buy', px(-10), '0.001'), client_order_id: 'has space' }],
    ['a price as a JSON number', { ...limitData('buy', px(-10), '0.001'), price: 2_500_000_000 }],
    ['data that is an array', [limitData('buy', px(-10), '0.001')]],
    ['no data', undefined],
  ])('%s is 400', async (_label, data) => {
    const socket = await trading(venue());
    await refused(socket, 'create_order', data, 400);
  });
});

describe('create_order refused by the engine: 409 error event and a rejected update', () => {
  it('"insufficient balance": the error event and the order rejected on the orders channel', async () => {
    const v = venue();
    const socket = await trading(v, { VND: '1000000' });
    const id = cid('poor');
    const data = limitData('buy', px(0), '0.01', { client_order_id: id });
    const from = socket.mark();
    await refused(socket, 'create_order', data, 409, 'insufficient balance');
    const rejected = await orderUpdate(socket, id, ['rejected'], from);
    expect(rejected).toMatchObject({ done_reason: 'REJECTED', reject_reason: 'E0201_InsufficientBalance', filled_base_size: '0' });
  });

  it('"post only would match": the error event and the order rejected; the book is untouched', async () => {
    const v = venue();
    const maker = await trading(v);
    await createOrder(maker, limitData('sell', px(0), '0.002', { client_order_id: cid('ask') }), ['open']);
    const socket = await trading(v);
    const id = cid('post');
    const from = socket.mark();
    await refused(socket, 'create_order', limitData('buy', px(0), '0.001', { post_only: true, client_order_id: id }), 409, 'post only would match');
    const rejected = await orderUpdate(socket, id, ['rejected'], from);
    expect(rejected).toMatchObject({ done_reason: 'REJECTED', reject_reason: 'E0202_PostOnlyWouldMatch', post_only: 'true', filled_base_size: '0' });
    expect((await v.book(BTC)).asks).toEqual([{ price: px(0), size: '0.002', order_count: 1 }]);
  });

  it('a client_order_id already used by an open order is 409', async () => {
    const v = venue();
    const socket = await trading(v);
    const id = cid('dup');
    await createOrder(socket, limitData('buy', px(-10), '0.001', { client_order_id: id }), ['open']);
    await refused(socket, 'create_order', limitData('buy', px(-11), '0.001', { client_order_id: id.toUpperCase() }), 409);
  });
});

describe('cancel_order errors', () => {
  it.each<[string, unknown]>([
    ['neither id', {}],
    ['both ids', { order_id: '0b7d4c4e-51c7-4d43-9a4c-0d5f9b4e2a11', client_order_id: 'both' }],
    ['null ids', { order_id: null, client_order_id: null }],
    // null counts as absent (docs/api.md), and a cancel without data names no order either.
    ['no data', undefined],
    ['data null', null],
  ])('%s is 400 "missing order id, client order id"', async (_label, data) => {
    const socket = await trading(venue());
    await refused(socket, 'cancel_order', data, 400, 'missing order id, client order id');
  });

  it.each<[string, unknown]>([
    ['an order_id that is not a UUID', { order_id: 'not-a-uuid' }],
    ['an order_id that is a number', { order_id: 42 }],
    ['data that is a string', 'all'],
  ])('%s is 400', async (_label, data) => {
    const socket = await trading(venue());
    await refused(socket, 'cancel_order', data, 400);
  });

  it('a cancel of a done order, then a new order with its client order id, in one burst: the new one stays', async () => {
    const socket = await trading(venue());
    const id = cid('again');
    const first = await createOrder(socket, limitData('buy', px(-20), '0.001', { client_order_id: id }), ['open']);
    await socket.request({ op: 'cancel_order', data: { order_id: first.id } }, (f) => f['type'] === 'update');
    // The refusal is read from the tables; the order after it must not be taken for the one it names.
    const from = socket.mark();
    socket.send({ op: 'cancel_order', request_id: 'late', data: { client_order_id: id } });
    socket.send({ op: 'create_order', request_id: 'again', data: limitData('buy', px(-21), '0.001', { client_order_id: id }) });
    const refusal = await socket.next((f) => f['request_id'] === 'late' && f['type'] === 'error', 5_000, from);
    expectErrorEvent(refusal, 409, 'order already done');
    const again = await orderUpdate(socket, id, ['open'], from);
    await socket.barrier();
    expect(updatesOf(socket, again.id, from).map((u) => u.status)).toEqual(['pending', 'open']);
  });

  it('a cancel of an unused client order id, then an order with it, in one burst: 404, never the new order named', async () => {
    const socket = await trading(venue());
    // A race (the order is made while the refusal waits for the tables), so it runs many rounds.
    for (let round = 0; round < 40; round++) {
      const id = cid('fresh');
      const from = socket.mark();
      socket.send({ op: 'cancel_order', request_id: `c${round}`, data: { client_order_id: id } });
      socket.send({ op: 'create_order', request_id: `o${round}`, data: limitData('buy', px(-30 - (round % 10)), '0.001', { client_order_id: id }) });
      expectErrorEvent(await socket.next((f) => f['request_id'] === `c${round}` && f['type'] === 'error', 5_000, from), 404, 'order not found');
      await orderUpdate(socket, id, ['open'], from);
    }
  });

  it('a second cancel of an order is answered after the first one\'s update, once that cancel is durable', async () => {
    const socket = await trading(venue());
    for (let round = 0; round < 5; round++) {
      const order = await createOrder(socket, limitData('buy', px(-40 - round), '0.001', { client_order_id: cid('twice') }), ['open']);
      const from = socket.mark();
      socket.send({ op: 'cancel_order', request_id: `a${round}`, data: { order_id: order.id } });
      socket.send({ op: 'cancel_order', request_id: `b${round}`, data: { client_order_id: order.client_order_id.toUpperCase() } });
      await socket.next((f) => f['request_id'] === `b${round}`, 5_000, from);
      const answers = socket.frames.slice(from).filter((f) => f['request_id'] === `a${round}` || f['request_id'] === `b${round}`);
      expect(answers.map((f) => `${String(f['type'])} ${String(f['request_id'])}`)).toEqual([`update a${round}`, `error b${round}`]);
      expectErrorEvent(answers[1] as Frame, 409, 'order already done');
    }
  });

  it('an unknown order is 404 "order not found", by order_id and by client_order_id', async () => {
    const socket = await trading(venue());
    await refused(socket, 'cancel_order', { order_id: '0b7d4c4e-51c7-4d43-9a4c-0d5f9b4e2a11' }, 404, 'order not found');
    await refused(socket, 'cancel_order', { client_order_id: 'never-placed' }, 404, 'order not found');
  });

  it('another user’s order is 404 "order not found" and stays on the book', async () => {
    const v = venue();
    const owner = await trading(v);
    const order = await createOrder(owner, limitData('buy', px(-10), '0.001', { client_order_id: cid('theirs') }), ['open']);
    const other = await trading(v);
    await refused(other, 'cancel_order', { order_id: order.id }, 404, 'order not found');
    await refused(other, 'cancel_order', { client_order_id: order.client_order_id }, 404, 'order not found');
    expect((await v.book(BTC)).bids).toEqual([{ price: px(-10), size: '0.001', order_count: 1 }]);
  });

  it('an order already cancelled is 409 "order already done"', async () => {
    const socket = await trading(venue());
    const order = await createOrder(socket, limitData('buy', px(-10), '0.001', { client_order_id: cid('twice') }), ['open']);
    const from = socket.mark();
    socket.send({ op: 'cancel_order', data: { order_id: order.id } });
    await orderUpdate(socket, order.client_order_id, ['cancelled'], from);
    await refused(socket, 'cancel_order', { order_id: order.id }, 409, 'order already done');
    await refused(socket, 'cancel_order', { client_order_id: order.client_order_id }, 409, 'order already done');
  });

  it('a filled order is 409 "order already done", and the failed cancel sends no update', async () => {
    const v = venue();
    const maker = await trading(v);
    const order = await createOrder(maker, limitData('sell', px(0), '0.001', { client_order_id: cid('filled') }), ['open']);
    const taker = await trading(v);
    await createOrder(taker, limitData('buy', px(0), '0.001', { client_order_id: cid('taker') }), ['filled']);
    await orderUpdate(maker, order.client_order_id, ['filled']);
    const from = maker.mark();
    await refused(maker, 'cancel_order', { order_id: order.id }, 409, 'order already done');
    await maker.barrier();
    expect(updatesOf(maker, order.id, from)).toEqual([]);
  });
});

describe('frames that are not trading requests', () => {
  it.each<[string, Frame, string]>([
    ['an unknown op', { op: 'subscribe', channel: 'orders' }, 'system'],
    ['an op that is not a string', { op: 7 }, 'system'],
    ['an unknown channel', { op: 'sub', channel: 'portfolio' }, 'subscriptions'],
    ['product_ids on the orders channel', { op: 'sub', channel: 'orders', product_ids: [BTC] }, 'orders'],
    ['a market-data sub without products', { op: 'sub', channel: 'level2' }, 'level2'],
    ['a market-data sub for an unknown product', { op: 'sub', channel: 'trades', product_ids: ['DOGE-VND'] }, 'trades'],
  ])('%s is a 400 error event on the channel it concerns', async (_label, frame, channel) => {
    const socket = await venue().connect();
    const answer = await socket.request(frame);
    expect(answer['channel'], JSON.stringify(answer)).toBe(channel);
    expectErrorEvent(answer, 400);
  });
});

describe('the echoed data of a refused request', () => {
  it('has expired_at and scheduled_at as sent: a JSON integer with every digit, a string as a string', async () => {
    const socket = await trading(venue());
    const expiredAt = 1_900_000_000_123_456_789n;
    const data = { ...limitData('buy', '2500005000', '0.001'), time_in_force: 'GTT', expired_at: expiredAt, scheduled_at: '1900000000987654321' };
    const answer = await socket.request({ op: 'create_order', data }, (f) => f['type'] === 'error');
    expectErrorEvent(answer, 400, 'invalid price');
    const text = textOf(answer);
    expect(text).toContain(`"expired_at":${expiredAt}`);
    expect(text).toContain('"scheduled_at":"1900000000987654321"');
  });
});
