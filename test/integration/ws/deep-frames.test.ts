// Frames nested as deep as the frame size allows. A refused create_order or cancel_order echoes its data (interface
// 6), and writing that echo back recursed once per level: 8,000 levels of '[' in a 16 KiB frame overflowed the
// stack and the RangeError, thrown while answering, took the venue down, even for a connection that had not
// authenticated. Such a frame is refused (E0101) without its data, and the venue serves on.
import { describe, expect, it } from 'vitest';
import { DEFAULT_WS_OPTIONS } from '../../../src-main/venue/api/ws-api';
import type { TestSocket } from './ws-client';
import { cid, createOrder, expectErrorEvent, limitData, px, useWsVenue } from './ws-venue';

/** A frame of the size limit (or a byte under it), `prefix` followed by arrays nested as deep as the rest of it holds. */
function deepest(prefix: string, maxBytes = DEFAULT_WS_OPTIONS.maxFrameBytes): string {
  const levels = Math.floor((maxBytes - prefix.length - 1) / 2);
  return `${prefix}${'['.repeat(levels)}${']'.repeat(levels)}}`;
}

async function expectRefusedWithoutEcho(socket: TestSocket, text: string, channel: string, code: number): Promise<void> {
  const from = socket.mark();
  socket.send(text);
  const answer = await socket.next((f) => f['type'] === 'error' && f['request_id'] === 'deep', 10_000, from);
  expect(answer['channel'], JSON.stringify(answer).slice(0, 300)).toBe(channel);
  expectErrorEvent(answer, code);
  expect(answer['data']).toBeUndefined();
  await socket.barrier();
}

describe('a frame nested as deep as the frame size allows', () => {
  const venue = useWsVenue();

  it.each([
    ['create_order data', '{"op":"create_order","request_id":"deep","data":'],
    ['cancel_order data', '{"op":"cancel_order","request_id":"deep","data":'],
  ])('%s, before auth: refused, and the venue serves on', async (_label, prefix) => {
    const socket = await venue().connect();
    const text = deepest(prefix);
    expect(text.length).toBeLessThanOrEqual(DEFAULT_WS_OPTIONS.maxFrameBytes);
    expect(text.length).toBeGreaterThan(DEFAULT_WS_OPTIONS.maxFrameBytes - 2);
    await expectRefusedWithoutEcho(socket, text, 'orders', 400);
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
