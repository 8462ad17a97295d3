// Frames nested as deep as the frame size allows. A refused create_order or cancel_order echoes its data (interface
// 6), and writing that echo back recursed once per level: 8,000 levels of '[' in a 16 KiB frame overflowed the
// stack and the RangeError, thrown while answering, took the venue down, even for a connection that had not
// authenticated. Such a refusal is answered with its own code, without the data, and the venue serves on. The
// depth is looked at only when data is to be echoed, so a deep field the venue does not read does not stop an
// order, as any unknown field does not.
import { describe, expect, it } from 'vitest';
import { DEFAULT_WS_OPTIONS } from '../../../src-main/venue/api/ws-api';
import type { Frame, TestSocket } from './ws-client';
import { cid, createOrder, expectErrorEvent, limitData, px, useWsVenue } from './ws-venue';

/**
 * A frame of the size limit (or a byte under it): `prefix`, then arrays nested as deep as the rest of it holds,
 * then `suffix` (closing what `prefix` opened).
 */
function deepest(prefix: string, suffix = '}', maxBytes = DEFAULT_WS_OPTIONS.maxFrameBytes): string {
  const levels = Math.floor((maxBytes - prefix.length - suffix.length) / 2);
  const text = `${prefix}${'['.repeat(levels)}${']'.repeat(levels)}${suffix}`;
  expect(text.length).toBeLessThanOrEqual(maxBytes);
  expect(text.length).toBeGreaterThan(maxBytes - 2);
  return text;
}

async function expectRefusedWithoutEcho(socket: TestSocket, text: string, channel: string, code: number, listed?: string): Promise<void> {
  const from = socket.mark();
  socket.send(text);
  const answer = await socket.next((f) => f['type'] === 'error' && f['request_id'] === 'deep', 10_000, from);
  expect(answer['channel'], JSON.stringify(answer).slice(0, 300)).toBe(channel);
  expectErrorEvent(answer, code, listed);
  expect(answer['data']).toBeUndefined();
  // Only where data would have been echoed does the message say why it was not.
  if (channel === 'orders') expect(answer['message']).toContain('data not echoed');
  await socket.barrier();
}

describe('a frame nested as deep as the frame size allows', () => {
  const venue = useWsVenue();

  // 401 like any trading op before auth (interface 4.12): the depth does not change which refusal it earns.
  it.each([
    ['create_order data', '{"op":"create_order","request_id":"deep","data":'],
    ['cancel_order data', '{"op":"cancel_order","request_id":"deep","data":'],
  ])('%s, before auth: refused with 401 without its data, and the venue serves on', async (_label, prefix) => {
    const socket = await venue().connect();
    await expectRefusedWithoutEcho(socket, deepest(prefix), 'orders', 401);
    const other = await venue().connect();
    await other.barrier();
  });

  it.each([
    ['create_order data', '{"op":"create_order","request_id":"deep","data":', 'orders'],
    ['cancel_order data', '{"op":"cancel_order","request_id":"deep","data":', 'orders'],
    ['sub product_ids', '{"op":"sub","channel":"level2","request_id":"deep","product_ids":', 'level2'],
    ['auth data', '{"op":"auth","request_id":"deep","data":', 'auth'],
  ])('%s, authenticated: refused with 400 on its channel, and the connection still trades', async (_label, prefix, channel) => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.session(trader);
    await expectRefusedWithoutEcho(socket, deepest(prefix), channel, 400);
    if (channel === 'auth') return;
    await createOrder(socket, limitData('buy', px(-800), '0.001', { client_order_id: cid('deep') }), ['open']);
  });

  it('an order with a deep field the venue does not read is placed, as with any unknown field', async () => {
    const v = venue();
    const socket = await v.session(await v.newTrader());
    const clientOrderId = cid('deep-extra');
    const data = JSON.stringify(limitData('buy', px(-800), '0.001', { client_order_id: clientOrderId }));
    const from = socket.mark();
    socket.send(deepest(`{"op":"create_order","request_id":"deep","data":${data.slice(0, -1)},"extra":`, '}}'));
    const isOpen = (o: Frame): boolean => o['client_order_id'] === clientOrderId && o['status'] === 'open';
    await socket.next((f) => f['type'] === 'update' && Array.isArray(f['data']) && (f['data'] as Frame[]).some(isOpen), 10_000, from);
    await socket.barrier();
    expect(socket.frames.slice(from).filter((f) => f['type'] === 'error')).toEqual([]);
  });

  it('an order refused for its own reason with a deep field is answered with that reason, without its data', async () => {
    const v = venue();
    const socket = await v.session(await v.newTrader());
    // A price off the 10,000 VND increment.
    const data = JSON.stringify(limitData('buy', String(Number(px(-800)) + 1), '0.001', { client_order_id: cid('deep-price') }));
    await expectRefusedWithoutEcho(socket, deepest(`{"op":"create_order","request_id":"deep","data":${data.slice(0, -1)},"extra":`, '}}'), 'orders', 400, 'invalid price');
  });
});

describe('a deep frame over the per-connection message limit', () => {
  const RATE = 5;
  const venue = useWsVenue({ messagesPerSecond: RATE });

  it('is refused for its rate without its data, and the venue serves on', async () => {
    const socket = await venue().connect();
    for (let i = 0; i < RATE; i += 1) socket.send({ op: 'ping', request_id: `fill-${i}` });
    const from = socket.mark();
    socket.send(deepest('{"op":"create_order","request_id":"deep","data":'));
    const answer = await socket.next((f) => f['type'] === 'error' && f['request_id'] === 'deep', 10_000, from);
    expect(answer['channel']).toBe('orders');
    expectErrorEvent(answer, 409);
    expect(answer['data']).toBeUndefined();
    const other = await venue().connect();
    await other.barrier();
  });
});
