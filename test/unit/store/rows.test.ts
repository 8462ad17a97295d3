import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { apiKeyFromRow, orderFromRow, tradeFromRow, userFromRow } from '../../../src-main/venue/store/rows';
import { captureOrder } from '../../../src-main/venue/store/change-set';
import { apiKey, balance, open, order, tempDir, trade, user } from './fixtures';

const NEAR_2_62 = 2n ** 62n - 1n;
const FAR_FUTURE_NS = 9_000_000_000_000_000_000n; // year 2255, still below 2^63
const NEAR_INT64_MIN = -(2n ** 62n);

describe('row round trip', () => {
  it('keeps every field of every row type exactly, including int64 extremes and unicode', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file);
    const admin = user(1, {
      isAdmin: true,
      makerFeeRate: '-0.0001',
      takerFeeRate: '0.0025',
      createdAt: FAR_FUTURE_NS,
      totalOrders: NEAR_2_62,
      totalDoneOrders: NEAR_2_62 - 1n,
      totalAcceptedOrders: 2n ** 53n + 1n,
      // Past int64: kept as text so it can never overflow.
      tradingVolume: 2n ** 70n + 3n,
    });
    const other = user(Number.MAX_SAFE_INTEGER);
    const key = apiKey(admin, 'Bàn giao dịch 🚀 デスク', {
      secretHash: Buffer.from(Array.from({ length: 32 }, (_, i) => 255 - i)),
      secretNonce: Buffer.alloc(0),
      createdAt: 1n,
      expiredAt: FAR_FUTURE_NS,
      isReadOnly: true,
      revoked: true,
    });
    const plainKey = apiKey(other, 'plain');
    const rich = balance(admin, 'VND', NEAR_2_62, NEAR_2_62 - 5n);
    const overdrawn = balance(other, 'BTC', NEAR_INT64_MIN, 0n);
    const maker = order(admin, Number.MAX_SAFE_INTEGER - 1, {
      clientOrderId: 'Mixed:Case_id-1',
      side: 'SELL',
      type: 'TWAP',
      timeInForce: 'GTT',
      postOnly: true,
      stp: 'CANCEL_BOTH',
      stopType: 'STOP_LOSS',
      limitPrice: '99999999999.99999999',
      baseSize: '1000',
      quoteSize: '12345678901234567890.123',
      exactQuoteSize: '0.00000001',
      stopTriggerPrice: '1',
      status: 'SCHEDULED',
      rejectReason: 'E0201_InsufficientBalance',
      filledBaseSize: '0.0001',
      filledQuoteSize: '250000',
      feeTotal: '-250',
      restingLots: 2 ** 40,
      holdAsset: 'BTC',
      holdRemaining: NEAR_2_62,
      createdAt: FAR_FUTURE_NS - 2n,
      updatedAt: FAR_FUTURE_NS,
      cancelRequestedAt: FAR_FUTURE_NS - 1n,
      expiredAt: FAR_FUTURE_NS + 1n,
      scheduledAt: 0n,
      twapState: '{"slices":12,"done":3,"note":"lát cắt ✂"}',
    });
    const taker = order(other, Number.MAX_SAFE_INTEGER, {
      status: 'DONE',
      doneReason: 'FILLED',
      restingLots: 0,
      createdAt: FAR_FUTURE_NS,
      updatedAt: FAR_FUTURE_NS,
    });
    const fill = trade(Number.MAX_SAFE_INTEGER, maker, taker, { takerSide: 'BUY', time: FAR_FUTURE_NS });

    await store.commit({
      users: [admin, other],
      apiKeys: [key, plainKey],
      balances: [rich, overdrawn],
      orders: [maker, taker],
      trades: [fill],
      meta: { 'sim.seed': 'ünïcödé ✓', empty: '' },
    });
    store.close();

    const reopened = open(file);
    const snapshot = reopened.load();
    expect(snapshot.users).toEqual(expect.arrayContaining([admin, other]));
    expect(snapshot.users).toHaveLength(2);
    expect(snapshot.apiKeys).toEqual(expect.arrayContaining([key, plainKey]));
    expect(snapshot.balances).toEqual(expect.arrayContaining([rich, overdrawn]));
    expect(snapshot.openOrders).toEqual([maker]);
    expect(reopened.orderById(other.id, taker.orderId)).toEqual(taker);
    expect(reopened.tradesOfOrders([maker.orderId])).toEqual([fill]);
    expect(snapshot.meta).toEqual({ 'sim.seed': 'ünïcödé ✓', empty: '' });
    expect(snapshot.lastTradeSeq).toBe(Number.MAX_SAFE_INTEGER);
    expect(snapshot.maxOrderSeq).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses on write an int64 that does not fit, failing the commit', async () => {
    const store = open(path.join(tempDir(), 'venue.db'));
    const u = user(1);
    await expect(store.commit({ users: [u], balances: [balance(u, 'VND', 2n ** 63n)] })).rejects.toThrow(
      `could not write balances row ${u.id} VND: column free should be an integer that fits in 64 bits`,
    );
    expect(store.load().users).toEqual([]);
    // The first value past the range either way is refused too; the range's ends are kept exactly.
    await expect(store.commit({ users: [u], balances: [balance(u, 'VND', 0n, -(2n ** 63n) - 1n)] })).rejects.toThrow('column locked should be');
    const ends = balance(u, 'VND', 2n ** 63n - 1n, -(2n ** 63n));
    await store.commit({ users: [u], balances: [ends] });
    expect(store.load().balances).toEqual([ends]);
  });
});

describe('row mapping', () => {
  const goodUser = {
    id: 'u',
    number: 1n,
    is_admin: 0n,
    maker_fee_rate: '0.001',
    taker_fee_rate: '0.002',
    created_at: 5n,
    total_orders: 0n,
    total_done_orders: 0n,
    total_accepted_orders: 0n,
    trading_volume: '0',
  };

  it('names the table and column of a malformed value', () => {
    expect(() => userFromRow({ ...goodUser, number: 2n ** 60n })).toThrow('malformed row in users: column number should be a safe integer');
    expect(() => userFromRow({ ...goodUser, is_admin: 2n })).toThrow('malformed row in users: column is_admin should be 0 or 1');
    expect(() => userFromRow({ ...goodUser, created_at: 5 })).toThrow('malformed row in users: column created_at should be an integer, got number');
    expect(() => userFromRow({ ...goodUser, maker_fee_rate: '1e-3' })).toThrow('column maker_fee_rate should be a decimal string');
    expect(() => userFromRow({ ...goodUser, trading_volume: '-1' })).toThrow('column trading_volume should be a non-negative integer in text');
    const { taker_fee_rate: _dropped, ...missing } = goodUser;
    expect(() => userFromRow(missing)).toThrow('malformed row in users: column taker_fee_rate should be a decimal string, got nothing');
    expect(() => userFromRow(undefined)).toThrow('malformed row in users: not a row object');
  });

  it('checks the shape of blobs and the vocabulary of enumerations', () => {
    expect(() =>
      apiKeyFromRow({
        api_key: 'k',
        user_id: 'u',
        secret_hash: Buffer.alloc(31),
        secret_nonce: Buffer.alloc(0),
        name: 'n',
        created_at: 0n,
        expired_at: null,
        is_read_only: 0n,
        revoked: 0n,
      }),
    ).toThrow('malformed row in api_keys: column secret_hash should be a blob of 32 bytes, got object');
    expect(() => tradeFromRow({ taker_side: 'buy' })).toThrow('malformed row in trades: column id should be text, got nothing');
  });

  it('names the detail of an order row that is malformed, as it would a column', () => {
    const [seq, orderId, userId, clientOrderId, productId, status, createdAt, updatedAt, details] = captureOrder(order(user(1), 1));
    const row = (d: unknown) => ({ seq: BigInt(seq), order_id: orderId, user_id: userId, client_order_id: clientOrderId, product_id: productId, status, created_at: createdAt, updated_at: updatedAt, details: d });
    const values = JSON.parse(details) as unknown[];
    const changed = (i: number, value: unknown) => JSON.stringify(values.map((v, j) => (j === i ? value : v)));
    expect(orderFromRow(row(details))).toEqual(order(user(1), 1));
    expect(() => orderFromRow(row('[1,'))).toThrow('malformed row in orders: column details should be JSON');
    expect(() => orderFromRow(row('[]'))).toThrow('malformed row in orders: column details should be a JSON array of 25 values');
    expect(() => orderFromRow(row(7n))).toThrow('malformed row in orders: column details should be text, got bigint');
    expect(() => orderFromRow(row(changed(0, 'UP')))).toThrow("malformed row in orders: column side should be one of 'BUY', 'SELL'");
    expect(() => orderFromRow(row(changed(20, '1.5')))).toThrow('malformed row in orders: column hold_remaining should be an integer, got string');
    // As an INTEGER column would refuse it: a value no commit could write back.
    expect(() => orderFromRow(row(changed(20, String(2n ** 70n))))).toThrow('malformed row in orders: column hold_remaining should be an integer that fits in 64 bits');
    expect(() => orderFromRow(row(changed(22, String(-(2n ** 64n)))))).toThrow('malformed row in orders: column expired_at should be an integer that fits in 64 bits');
    expect(() => orderFromRow(row(changed(3, 2)))).toThrow('malformed row in orders: column post_only should be 0 or 1, got number');
  });

  it('refuses on load an order whose status is outside the vocabulary', async () => {
    const file = path.join(tempDir(), 'venue.db');
    const store = open(file);
    const u = user(1);
    await store.commit({ users: [u], orders: [order(u, 1)] });
    store.materialize();
    const raw = new Database(file);
    raw.prepare("UPDATE orders SET status = 'OPEN'").run();
    raw.close();
    expect(() => store.load()).toThrow("malformed row in orders: column status should be one of 'SUBMITTED', 'ACTIVE', 'DONE', 'SCHEDULED'");
    expect(() => orderFromRow({})).toThrow('malformed row in orders: column details should be text, got nothing');
  });
});
