// The orders channel's record is written out by hand for speed; it must say exactly what the REST record says,
// with `id` for `order_id` and the WebSocket status, whatever the values (a client order id or fee rate with
// quotes, backslashes or control characters included).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closeWsOrderRecord, openWsOrderRecord, orderRecord, wsStatus } from '../../../src-main/venue/api/records';
import { Exchange } from '../../../src-main/venue/exchange/exchange';
import type { OrderRow, TradeRow } from '../../../src-main/venue/store';
import { order, user } from '../store/sample-rows';

const market = (() => {
  const m = new Exchange({ now: () => 0n, newId: () => 'id', maxOpenOrders: 1 }).markets.get('BTC-VND');
  if (m === undefined) throw new Error('BTC-VND is not listed');
  return m;
})();

const owner = user(1);
const decimal = fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9]\d{0,8}(\.\d{1,8})?$/));
const nanos = fc.bigInt({ min: 0n, max: 2n ** 63n - 1n });
const anyText = fc.string({ unit: 'binary', maxLength: 40 });

const rows = fc
  .record({
    seq: fc.integer({ min: 1, max: 1e9 }),
    clientOrderId: anyText,
    makerFeeRate: anyText,
    takerFeeRate: anyText,
    side: fc.constantFrom('BUY', 'SELL'),
    type: fc.constantFrom('LIMIT', 'MARKET', 'STOP', 'TWAP'),
    timeInForce: fc.constantFrom('GTC', 'IOC', 'FOK', 'GTT'),
    postOnly: fc.boolean(),
    status: fc.constantFrom('SUBMITTED', 'ACTIVE', 'DONE', 'SCHEDULED'),
    doneReason: fc.constantFrom('', 'FILLED', 'CANCELED', 'EXPIRED', 'REJECTED'),
    rejectReason: fc.constantFrom('', 'E0201_InsufficientBalance', 'E0305_PostOnlyWouldMatch'),
    limitPrice: decimal,
    filledBaseSize: decimal,
    filledQuoteSize: decimal,
    feeTotal: decimal,
    createdAt: nanos,
    updatedAt: nanos,
    cancelRequestedAt: fc.option(nanos, { nil: null }),
    expiredAt: fc.option(nanos, { nil: null }),
    scheduledAt: fc.option(nanos, { nil: null }),
    fills: fc.array(fc.record({ maker: fc.boolean(), price: decimal, size: decimal, makerFee: decimal, takerFee: decimal, time: nanos }), { maxLength: 3 }),
  })
  .map(({ fills, ...over }) => {
    const row: OrderRow = order(owner, over.seq, over);
    const trades: TradeRow[] = fills.map((f, i) => ({
      seq: i + 1,
      id: `20000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      productId: 'BTC-VND',
      price: f.price,
      size: f.size,
      takerSide: 'BUY',
      makerOrderId: f.maker ? row.orderId : 'other',
      takerOrderId: f.maker ? 'other' : row.orderId,
      makerUserId: owner.id,
      takerUserId: owner.id,
      makerFee: f.makerFee,
      takerFee: f.takerFee,
      time: f.time,
    }));
    return { row, trades };
  });

describe('the orders channel record', () => {
  it('is the REST record with id for order_id, the WebSocket status and the request id it answers, in that order of fields', () => {
    fc.assert(
      fc.property(rows, fc.option(anyText, { nil: undefined }), ({ row, trades }, requestId) => {
        const { order_id: id, status: _status, ...rest } = orderRecord(row, trades, market);
        const text = closeWsOrderRecord(openWsOrderRecord(row, trades, market), requestId);
        const answers = requestId === undefined ? {} : { request_id: requestId };
        expect(JSON.parse(text)).toEqual({ id, ...rest, status: wsStatus(row), ...answers });
        expect(Object.keys(JSON.parse(text) as object)).toEqual(['id', ...Object.keys(rest), 'status', ...Object.keys(answers)]);
      }),
      { numRuns: 500 },
    );
  });
});
