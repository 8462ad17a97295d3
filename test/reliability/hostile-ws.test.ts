// Generated malformed frames against every WebSocket operation (auth, sub and unsub of every channel,
// create_order, cancel_order, ping) and against the frame itself (broken JSON, binary, oversized). Every answer
// is an error event in the API's format (or the 1009 close of an oversized frame), the connection keeps
// serving, a fresh connection still works, a refused frame changes no balance and no open order (checked over
// REST), and nothing reaches Object.prototype.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../src-shared/protocol/ws';
import type { Trader } from '../integration/harness';
import { signature, type Frame, type TestSocket } from '../integration/ws/ws-client';
import { BTC, cid, createOrder, limitData, orderUpdate, px, useWsVenue, type WsVenue } from '../integration/ws/ws-venue';
import {
  brokenJson,
  expectCleanPrototype,
  fuzzRuns,
  fuzzTimeout,
  nastyString,
  nastyValue,
  pollutingObject,
  prototypeShape,
  rawLiteral,
  RAW_NUMBERS,
  toHostileJson,
  withOwnFields,
} from './hostile-values';

const RUNS = fuzzRuns(40);
const TIMEOUT = fuzzTimeout(RUNS, 250);
const MAX_FRAME = 4096;
/** The codes of interface 7.4 that a refusal may carry; 500 would be the venue failing, never an answer. */
const REFUSAL_CODES = [400, 401, 403, 404, 409];
const MARKET_CHANNELS = ['level2', 'trades', 'ticker', 'candles'] as const;

const venue = useWsVenue({ maxFrameBytes: MAX_FRAME, messagesPerSecond: 0 });
const cleanPrototype = prototypeShape();

afterEach(async () => {
  await expectFreshClientTrades(venue());
});

/** A new user on a new connection authenticates, places an order and cancels it. */
async function expectFreshClientTrades(v: WsVenue): Promise<void> {
  const socket = await v.session(await v.newTrader());
  const order = await createOrder(socket, limitData('buy', px(-2000), '0.001', { client_order_id: cid('alive') }), ['open']);
  const from = socket.mark();
  socket.send({ op: 'cancel_order', data: { order_id: order.id } });
  await orderUpdate(socket, order.client_order_id, ['cancelled'], from);
  socket.close();
}

/** What a trader holds and has working, over REST: what a refused frame must leave as it was. */
async function holdings(v: WsVenue, trader: Trader): Promise<unknown> {
  const account = await v.call<{ account: { asset_balances: unknown } }>('GET', `/accounts/${trader.userId}`, { key: trader.creds });
  expect(account.status).toBe(200);
  return { balances: account.body.account.asset_balances, active: await v.activeOrders(trader) };
}

let barriers = 0;

/** A ping answered: every frame the venue queued before it read the ping has arrived. */
async function barrier(socket: TestSocket): Promise<number> {
  const id = `barrier-${++barriers}`;
  socket.send({ op: 'ping', request_id: id });
  const pong = await socket.next((f) => f['request_id'] === id && f['channel'] === 'heartbeat', 10_000);
  return socket.frames.indexOf(pong);
}

/** A frame that answers a request: anything but a market-data push and our own barrier pongs. */
function isAnswer(f: Frame): boolean {
  if (typeof f['request_id'] === 'string' && f['request_id'].startsWith('barrier-')) return false;
  return f['type'] === 'error' || f['channel'] === 'auth' || f['channel'] === 'subscriptions' || f['channel'] === 'heartbeat' || (f['channel'] === 'orders' && f['type'] === 'update');
}

interface Outcome {
  /** Every frame the hostile frame caused, in order. */
  readonly frames: Frame[];
  readonly refused: boolean;
}

/**
 * Send one hostile frame on an open connection and collect what it caused: everything from its first answer
 * up to a ping sent after that answer. Every frame must be answered; errors must be well-formed.
 */
async function exchange(socket: TestSocket, payload: string | Uint8Array): Promise<Outcome> {
  const from = (await barrier(socket)) + 1;
  if (typeof payload === 'string') socket.send(payload);
  else socket.sendBinary(payload);
  await socket.next(isAnswer, 10_000, from);
  const until = await barrier(socket);
  const frames = socket.frames.slice(from, until).filter((f) => !(typeof f['request_id'] === 'string' && f['request_id'].startsWith('barrier-')));
  const channel = errorChannelFor(payload);
  for (const f of frames.filter((x) => x['type'] === 'error')) {
    expectWellFormedError(f);
    expect(f['channel'], `the error's channel for ${describePayload(payload)}`).toBe(channel);
  }
  const accepted = frames.some(
    (f) =>
      f['channel'] === 'subscriptions' ||
      (f['channel'] === 'auth' && f['type'] === 'authenticated') ||
      f['channel'] === 'heartbeat' ||
      (f['channel'] === 'orders' && f['type'] === 'update' && (f['data'] as Frame[]).some((o) => o['status'] !== 'rejected')),
  );
  return { frames, refused: !accepted };
}

function expectWellFormedError(f: Frame): void {
  const what = JSON.stringify(f).slice(0, 400);
  expect(REFUSAL_CODES, `a refusal code of 7.4: ${what}`).toContain(f['code']);
  expect(f['message'], what).toMatch(/^E\d{4}_[A-Za-z0-9]+: ./);
}

/**
 * The channel docs/api.md gives the error answering this frame: the orders channel for trading ops, auth for
 * auth, the named channel (or subscriptions) for sub and unsub, system for anything without a valid op.
 */
function errorChannelFor(payload: string | Uint8Array): string {
  if (typeof payload !== 'string') return 'system';
  let frame: unknown;
  try {
    frame = JSON.parse(payload);
  } catch {
    return 'system';
  }
  if (typeof frame !== 'object' || frame === null || !Object.hasOwn(frame, 'op')) return 'system';
  const { op, channel } = frame as { op?: unknown; channel?: unknown };
  if (op === 'create_order' || op === 'cancel_order') return 'orders';
  if (op === 'auth') return 'auth';
  if (op === 'sub' || op === 'unsub') {
    return typeof channel === 'string' && Object.hasOwn(frame, 'channel') && (CHANNELS as readonly string[]).includes(channel) ? channel : 'subscriptions';
  }
  return 'system';
}

/** The frame's text, kept under the frame limit so that only the oversized property meets it. */
function frameText(frame: unknown): string {
  const text = toHostileJson(frame);
  fc.pre(Buffer.byteLength(text) < MAX_FRAME - 64);
  return text;
}

/**
 * Run a hostile property, checking after each input that a refusal changed nothing and that Object.prototype
 * is clean. `socket` gives the connection for the next input. `mayAccept` says whether the input could be a
 * valid request; `afterAccepted` puts things back when it was one. Answers how many inputs were refused.
 */
async function hostileProperty<T>(
  v: WsVenue,
  trader: Trader,
  socket: () => Promise<TestSocket>,
  inputs: fc.Arbitrary<T>,
  toFrame: (input: T) => { payload: string | Uint8Array; mayAccept: boolean },
  afterAccepted: (outcome: Outcome) => Promise<void> = () => Promise.resolve(),
): Promise<number> {
  // What the trader held after the last run that ended well; unknown after a failed run, which fast-check
  // follows with shrinking runs that must not inherit its leftovers.
  let known: unknown;
  let refusedCount = 0;
  await fc.assert(
    fc.asyncProperty(inputs, async (input) => {
      const before = known ?? (await holdings(v, trader));
      known = undefined;
      const { payload, mayAccept } = toFrame(input);
      const outcome = await exchange(await socket(), payload);
      expectCleanPrototype(cleanPrototype);
      if (outcome.refused) {
        refusedCount += 1;
        expect(outcome.frames.some((f) => f['type'] === 'error'), `refused without an error event: ${JSON.stringify(outcome.frames).slice(0, 400)}`).toBe(true);
        expect(await holdings(v, trader), `changed by a refused frame: ${describePayload(payload)}`).toEqual(before);
        known = before;
        return;
      }
      await afterAccepted(outcome);
      expect(mayAccept, `accepted a malformed frame: ${describePayload(payload)} → ${JSON.stringify(outcome.frames).slice(0, 300)}`).toBe(true);
      known = await holdings(v, trader);
    }),
    { numRuns: RUNS },
  );
  return refusedCount;
}

function describePayload(payload: string | Uint8Array): string {
  return typeof payload === 'string' ? payload.slice(0, 300) : `${payload.length} binary bytes`;
}

/** The trader's working orders other than `keep`, cancelled over REST; `keep` is placed again if it is gone. */
async function restoreOrders(v: WsVenue, trader: Trader, keep: { clientOrderId: string }): Promise<void> {
  const active = await v.activeOrders(trader);
  const others = active.filter((o) => o.client_order_id !== keep.clientOrderId).map((o) => o.order_id);
  if (others.length > 0) {
    const reply = await v.call('DELETE', '/api/v1/orders/active', { key: trader.creds, body: { order_ids: others } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  }
  if (!active.some((o) => o.client_order_id === keep.clientOrderId)) await placeResting(v, trader, keep.clientOrderId);
}

async function placeResting(v: WsVenue, trader: Trader, clientOrderId: string): Promise<string> {
  const reply = await v.call<{ order: { order_id: string; status: string } }>('POST', '/api/v1/orders', {
    key: trader.creds,
    body: { product_id: BTC, side: 'BUY', limit_price: px(-1000), base_size: '0.001', client_order_id: clientOrderId, wait: true },
  });
  expect(reply.body.order?.status, JSON.stringify(reply.body)).toBe('ACTIVE');
  return reply.body.order.order_id;
}

/** A request_id: usually a good one, so that answers can be told apart, sometimes hostile. */
const requestId = fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: nastyValue });

function envelope(op: string, id: unknown, rest: Record<string, unknown>): Record<string, unknown> {
  return { op, ...(id === undefined ? {} : { request_id: id }), ...rest };
}

const ORDER_FIELDS = [
  'type', 'side', 'product_id', 'price', 'size', 'quote_size', 'exact_quote_size', 'time_in_force', 'post_only', 'stp',
  'client_order_id', 'stop_trigger_price', 'order_stop_type', 'expired_at', 'scheduled_at', 'wait', '__proto__', 'constructor', 'prototype',
] as const;

/** A connection authenticated with a new key of the trader: a signature is good once, a key's second is too. */
async function authenticated(v: WsVenue, trader: Trader): Promise<TestSocket> {
  const created = await v.call<{ api_key: { api_key: string; api_secret: string } }>('POST', '/api-keys', { key: trader.creds, body: {} });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const socket = await v.connect();
  expect(await socket.auth(created.body.api_key.api_key, created.body.api_key.api_secret)).toMatchObject({ type: 'authenticated' });
  return socket;
}

/** Unsubscribe from whatever the last subscriptions answer lists, so market data does not pile up. */
async function unsubscribeAll(socket: TestSocket, outcome: Outcome): Promise<void> {
  const last = [...outcome.frames].reverse().find((f) => f['channel'] === 'subscriptions');
  for (const sub of (last?.['subscriptions'] ?? []) as { channel: string; product_ids: string[] }[]) {
    const answer = await socket.request({ op: 'unsub', channel: sub.channel, ...(sub.channel === 'orders' ? {} : { product_ids: sub.product_ids }) });
    expect(answer['channel'], JSON.stringify(answer)).toBe('subscriptions');
  }
}

const VALID_FRAMES = [
  JSON.stringify({ op: 'ping', request_id: 'p' }),
  JSON.stringify({ op: 'sub', channel: 'level2', product_ids: [BTC] }),
  JSON.stringify({ op: 'create_order', request_id: 'c', data: limitData('buy', px(-500), '0.001') }),
  JSON.stringify({ op: 'cancel_order', data: { client_order_id: 'x' } }),
  JSON.stringify({ op: 'auth', data: { key: 'k', timestamp: 1, signature: 'a'.repeat(64) } }),
];

describe('hostile WebSocket frames', () => {
  it('create_order: almost-valid orders with one to three fields replaced, and arbitrary data', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const keep = { clientOrderId: cid('keep') };
    await placeResting(v, trader, keep.clientOrderId);
    const socket = await v.session(trader);
    const almostOrder = fc
      .tuple(fc.uniqueArray(fc.constantFrom(...ORDER_FIELDS), { minLength: 1, maxLength: 3 }), fc.array(nastyValue, { minLength: 3, maxLength: 3 }))
      .map(([fields, values]) => withOwnFields({ ...limitData('buy', px(-500), '0.001'), post_only: true }, fields, values));
    const data = fc.oneof({ weight: 4, arbitrary: almostOrder }, { weight: 1, arbitrary: nastyValue }, { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) });
    const refused = await hostileProperty(
      v,
      trader,
      () => Promise.resolve(socket),
      fc.tuple(data, requestId),
      ([d, id]) => ({ payload: frameText(envelope('create_order', id ?? 'hostile', { data: d })), mayAccept: true }),
      () => restoreOrders(v, trader, keep),
    );
    expect(refused).toBeGreaterThan(RUNS / 2);
  }, TIMEOUT);

  it('create_order: numbers written as JSON literals no double holds', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const keep = { clientOrderId: cid('keep') };
    await placeResting(v, trader, keep.clientOrderId);
    const socket = await v.session(trader);
    // Times may be JSON integers, read digit for digit (0 means none); any other literal there (1e-400, 1.5)
    // is refused rather than rounded by a double.
    const exactInteger = (field: string, literal: string): boolean => (field === 'expired_at' || field === 'scheduled_at') && /^\d+$/.test(literal);
    const input = fc.tuple(fc.constantFrom('price', 'size', 'quote_size', 'stop_trigger_price', 'expired_at', 'scheduled_at', 'post_only'), fc.constantFrom(...RAW_NUMBERS));
    await hostileProperty(
      v,
      trader,
      () => Promise.resolve(socket),
      input,
      ([field, literal]) => ({
        payload: toHostileJson(envelope('create_order', 'raw', { data: { ...limitData('buy', px(-500), '0.001'), [field]: rawLiteral(literal) } })),
        mayAccept: exactInteger(field, literal),
      }),
      () => restoreOrders(v, trader, keep),
    );
  }, TIMEOUT);

  it('cancel_order: ids that exist, that do not, that are not ids, both and neither', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const other = await v.newTrader();
    const keep = { clientOrderId: cid('keep') };
    const keepId = await placeResting(v, trader, keep.clientOrderId);
    const othersOrder = await placeResting(v, other, cid('theirs'));
    const socket = await v.session(trader);
    const id = fc.oneof(
      fc.constantFrom<unknown>(keepId, keepId.toUpperCase(), keep.clientOrderId, othersOrder, '0b7d4c4e-51c7-4d43-9a4c-0d5f9b4e2a11', undefined),
      nastyValue,
    );
    const data = fc.oneof(
      { weight: 4, arbitrary: fc.record({ order_id: id, client_order_id: id }, { requiredKeys: [] }) },
      { weight: 1, arbitrary: fc.tuple(id, pollutingObject).map(([i, p]) => ({ ...p, order_id: i })) },
      { weight: 1, arbitrary: nastyValue },
    );
    await hostileProperty(
      v,
      trader,
      () => Promise.resolve(socket),
      fc.tuple(data, requestId),
      ([d, rid]) => ({ payload: frameText(envelope('cancel_order', rid ?? 'hostile', { data: d })), mayAccept: true }),
      () => restoreOrders(v, trader, keep),
    );
    // The other user's order was never touched, whatever was sent.
    expect((await v.activeOrders(other)).map((o) => o.order_id)).toEqual([othersOrder]);
  }, TIMEOUT);

  it('auth: hostile keys, timestamps and signatures never authenticate', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const fields = fc.uniqueArray(fc.constantFrom('key', 'timestamp', 'signature', '__proto__', 'constructor', 'extra'), { minLength: 1, maxLength: 3 });
    const input = fc.tuple(fields, fc.array(nastyValue, { minLength: 3, maxLength: 3 }), requestId, fc.boolean());
    // A fresh connection per input, so that no hostile auth rides on the session of another.
    let socket: TestSocket | undefined;
    const fresh = async (): Promise<TestSocket> => {
      socket?.close();
      socket = await v.connect();
      return socket;
    };
    await hostileProperty(v, trader, fresh, input, ([replaced, values, rid, whole]) => {
      const timestamp = Math.floor(Date.now() / 1000);
      const good = { key: trader.creds.key, timestamp, signature: signature(trader.creds.key, trader.creds.secret, timestamp) };
      const data = whole ? values[0] : withOwnFields(good, replaced, values);
      // Only a frame whose credentials are untouched may authenticate: an extra field is ignored.
      const mayAccept = !whole && !replaced.some((f) => f === 'key' || f === 'timestamp' || f === 'signature');
      return { payload: frameText(envelope('auth', rid ?? 'hostile', { data })), mayAccept };
    });
    socket?.close();
  }, TIMEOUT);

  it('sub and unsub: every channel, hostile channels and product lists', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.session(trader);
    const channel = fc.oneof(fc.constantFrom<unknown>('orders', ...MARKET_CHANNELS, undefined), nastyValue);
    const productIds = fc.oneof(
      fc.constantFrom<unknown>([BTC], [BTC, 'ETH-VND', 'SOL-VND'], [BTC, BTC], [], undefined),
      fc.array(fc.oneof(fc.constantFrom(BTC, 'ETH-VND'), nastyString), { minLength: 1, maxLength: 4 }),
      nastyValue,
    );
    const input = fc.tuple(fc.constantFrom('sub', 'unsub'), channel, productIds, requestId, fc.option(pollutingObject, { nil: undefined }));
    await hostileProperty(
      v,
      trader,
      () => Promise.resolve(socket),
      input,
      ([op, ch, ids, rid, extra]) => ({
        payload: frameText({ ...extra, ...envelope(op, rid ?? 'hostile', { ...(ch === undefined ? {} : { channel: ch }), ...(ids === undefined ? {} : { product_ids: ids }) }) }),
        mayAccept: true,
      }),
      (outcome) => unsubscribeAll(socket, outcome),
    );
  }, TIMEOUT);

  it('the envelope: hostile ops, request ids and extra fields', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.session(trader);
    const op = fc.oneof(fc.constantFrom<unknown>('ping', 'auth', 'sub', 'unsub', 'create_order', 'cancel_order', 'PING', 'Ping', 'ping\u0000', 'logout', undefined), nastyValue);
    const extra = fc.dictionary(fc.oneof(fc.constantFrom('data', 'channel', 'product_ids', 'op', 'request_id'), nastyString), nastyValue, { maxKeys: 3 });
    const input = fc.tuple(op, nastyValue, extra, fc.option(pollutingObject, { nil: undefined }));
    await hostileProperty(
      v,
      trader,
      () => Promise.resolve(socket),
      input,
      ([o, rid, rest, polluting]) => ({ payload: frameText({ ...polluting, ...rest, ...(o === undefined ? {} : { op: o }), request_id: rid }), mayAccept: true }),
      async (outcome) => unsubscribeAll(socket, outcome),
    );
  }, TIMEOUT);

  it('broken JSON, not-object JSON and NUL bytes are 400 on the system channel', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.session(trader);
    const text = fc.oneof(brokenJson(VALID_FRAMES), fc.constantFrom('null', '42', '"ping"', '[]', '[{"op":"ping"}]', 'true', '1e400', '{}', '{"op":null}'));
    await hostileProperty(v, trader, () => Promise.resolve(socket), text, (t) => ({ payload: t, mayAccept: false }));
  }, TIMEOUT);

  it('binary frames are 400, whatever they hold', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.session(trader);
    const bytes = fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.constantFrom(...VALID_FRAMES).map((f) => new Uint8Array(Buffer.from(f))));
    await hostileProperty(v, trader, () => Promise.resolve(socket), bytes, (b) => ({ payload: b, mayAccept: false }));
  }, TIMEOUT);

  it('a frame over the limit closes the connection with 1009 and places nothing', async () => {
    const v = venue();
    const trader = await v.newTrader();
    const known = await holdings(v, trader);
    const input = fc.tuple(fc.integer({ min: MAX_FRAME + 1, max: MAX_FRAME * 8 }), fc.constantFrom('order', 'text', 'binary'));
    await fc.assert(
      fc.asyncProperty(input, async ([size, kind]) => {
        const socket = await authenticated(v, trader);
        const order = JSON.stringify({ op: 'create_order', request_id: 'big', data: { ...limitData('buy', px(-500), '0.001'), client_order_id: cid('big'), pad: '' } });
        const from = socket.mark();
        if (kind === 'order') socket.send(order.replace('"pad":""', `"pad":"${'x'.repeat(size - order.length)}"`));
        else if (kind === 'text') socket.send('{'.repeat(size));
        else socket.sendBinary(new Uint8Array(size));
        expect(await socket.closed()).toBe(1009);
        expect(socket.frames.slice(from)).toEqual([]);
        expect(await holdings(v, trader)).toEqual(known);
        const fresh = await v.connect();
        await barrier(fresh);
        fresh.close();
      }),
      { numRuns: Math.min(RUNS, 200) },
    );
  }, TIMEOUT);
});
