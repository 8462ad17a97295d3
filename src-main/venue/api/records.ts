// The venue's rows rendered as the wire records of the interface (section 2) and the contract's public records.
import { formatAtoms } from '../../../src-shared/protocol/decimal';
import { ASSETS, PRODUCTS } from '../../../src-shared/protocol/products';
import type { Balance } from '../ledger/ledger';
import type { Market } from '../exchange/market';
import type { ApiKeyRow, OrderRow, TradeRow, UserRow } from '../store';
import Decimal from 'decimal.js';

const ts = (ns: bigint | null): string => (ns === null ? '0' : ns.toString());

/** Extra digits an average price carries beyond the price increment's. */
const AVERAGE_EXTRA_DIGITS = 4;

function averagePrice(row: OrderRow, priceIncrement: string): string {
  if (row.filledBaseSize === '0') return '0';
  const digits = (priceIncrement.split('.')[1]?.length ?? 0) + AVERAGE_EXTRA_DIGITS;
  return new Decimal(row.filledQuoteSize).div(row.filledBaseSize).toDecimalPlaces(digits, Decimal.ROUND_HALF_EVEN).toFixed();
}

export function orderRecord(row: OrderRow, trades: readonly TradeRow[], market: Market) {
  return {
    order_id: row.orderId,
    client_order_id: row.clientOrderId,
    user_id: row.userId,
    status: row.status,
    done_reason: row.doneReason,
    reject_reason: row.rejectReason,
    product_id: row.productId,
    side: row.side,
    type: row.type,
    time_in_force: row.timeInForce,
    post_only: String(row.postOnly),
    stp: row.stp,
    order_stop_type: row.stopType,
    stop_trigger_price: row.stopTriggerPrice,
    limit_price: row.limitPrice,
    base_size: row.baseSize,
    quote_size: row.quoteSize,
    exact_quote_size: row.exactQuoteSize,
    average_fill_price: averagePrice(row, market.rules.spec.priceIncrement),
    filled_base_size: row.filledBaseSize,
    filled_quote_size: row.filledQuoteSize,
    fee_total: row.feeTotal,
    maker_fee_rate: row.makerFeeRate,
    taker_fee_rate: row.takerFeeRate,
    fee_asset_id: market.quoteAsset,
    created_at: ts(row.createdAt),
    updated_at: ts(row.updatedAt),
    cancel_requested_at: ts(row.cancelRequestedAt),
    expired_at: ts(row.expiredAt),
    scheduled_at: ts(row.scheduledAt),
    trades: trades.map((t) => {
      const maker = t.makerOrderId === row.orderId;
      return {
        id: t.id,
        price: t.price,
        size: t.size,
        liquidity_indicator: maker ? 'MAKER' : 'TAKER',
        time: ts(t.time),
        fee_asset: market.quoteAsset,
        fee_amount: maker ? t.makerFee : t.takerFee,
      };
    }),
  };
}

/** The contract's lowercase WebSocket status of an order as it stands. */
export function wsStatus(row: OrderRow): string {
  switch (row.status) {
    case 'SUBMITTED':
      return row.filledBaseSize === '0' ? 'pending' : 'partially_filled';
    case 'SCHEDULED':
      return 'scheduled';
    case 'ACTIVE':
      return row.filledBaseSize === '0' ? 'open' : 'partially_filled';
    case 'DONE':
      switch (row.doneReason) {
        case 'FILLED':
          return 'filled';
        case 'EXPIRED':
          return 'expired';
        case 'REJECTED':
          return 'rejected';
        case 'CANCELED':
        case '':
          return 'cancelled';
      }
  }
}

/**
 * An order on the orders channel, as JSON text: the REST record with `id` for `order_id` and the WebSocket
 * status, then the request id it answers, if any. Written out by hand because it is the venue's hottest output
 * (two or more per order placed): building the REST object, reshaping it and stringifying cost 3.4 us a record,
 * this 0.8 us. Only the values the venue does not make itself (client order id, fee rates) go through
 * JSON.stringify; ids are UUIDs, decimals and enums are ours. test/unit/api/ws-order-text.test.ts holds it to
 * the REST record, field by field.
 *
 * It is made in two parts: this text without its closing brace, shared by every connection that gets the
 * record, and closeWsOrderRecord() with that connection's request id (cutting the brace off a closed text
 * flattened the whole record first: a copy of ~600 bytes per record).
 */
export function openWsOrderRecord(row: OrderRow, trades: readonly TradeRow[], market: Market): string {
  const fee = market.quoteAsset;
  let fills = '';
  for (const t of trades) {
    const maker = t.makerOrderId === row.orderId;
    fills += `${fills === '' ? '' : ','}{"id":"${t.id}","price":"${t.price}","size":"${t.size}","liquidity_indicator":"${maker ? 'MAKER' : 'TAKER'}","time":"${t.time}","fee_asset":"${fee}","fee_amount":"${maker ? t.makerFee : t.takerFee}"}`;
  }
  return (
    `{"id":"${row.orderId}","client_order_id":${JSON.stringify(row.clientOrderId)},"user_id":"${row.userId}","done_reason":"${row.doneReason}",` +
    `"reject_reason":"${row.rejectReason}","product_id":"${row.productId}","side":"${row.side}","type":"${row.type}",` +
    `"time_in_force":"${row.timeInForce}","post_only":"${row.postOnly}","stp":"${row.stp}","order_stop_type":"${row.stopType}",` +
    `"stop_trigger_price":"${row.stopTriggerPrice}","limit_price":"${row.limitPrice}","base_size":"${row.baseSize}",` +
    `"quote_size":"${row.quoteSize}","exact_quote_size":"${row.exactQuoteSize}",` +
    `"average_fill_price":"${averagePrice(row, market.rules.spec.priceIncrement)}","filled_base_size":"${row.filledBaseSize}",` +
    `"filled_quote_size":"${row.filledQuoteSize}","fee_total":"${row.feeTotal}","maker_fee_rate":${JSON.stringify(row.makerFeeRate)},` +
    `"taker_fee_rate":${JSON.stringify(row.takerFeeRate)},"fee_asset_id":"${fee}","created_at":"${ts(row.createdAt)}",` +
    `"updated_at":"${ts(row.updatedAt)}","cancel_requested_at":"${ts(row.cancelRequestedAt)}","expired_at":"${ts(row.expiredAt)}",` +
    `"scheduled_at":"${ts(row.scheduledAt)}","trades":[${fills}],"status":"${wsStatus(row)}"`
  );
}

/** The request id a record answers goes last, after the status. */
export function closeWsOrderRecord(open: string, requestId: string | undefined): string {
  return requestId === undefined ? `${open}}` : `${open},"request_id":${JSON.stringify(requestId)}}`;
}

export function accountRecord(user: UserRow, balances: ReadonlyMap<string, Readonly<Balance>>, counts: { open: number; pending: number }) {
  return {
    id: user.id,
    maker_fee_rate: user.makerFeeRate,
    taker_fee_rate: user.takerFeeRate,
    asset_balances: ASSETS.map((asset) => {
      const b = balances.get(asset.id) ?? { free: 0n, locked: 0n };
      return {
        asset: asset.id,
        balance: formatAtoms(b.free + b.locked, asset.decimals),
        free: formatAtoms(b.free, asset.decimals),
        locked: formatAtoms(b.locked, asset.decimals),
      };
    }),
    stats: {
      order_stats: {
        total_orders: user.totalOrders.toString(),
        total_done_orders: user.totalDoneOrders.toString(),
        total_open_orders: String(counts.open),
        total_pending_orders: String(counts.pending),
        total_accepted_orders: user.totalAcceptedOrders.toString(),
      },
      trading_stats: { total_trading_volume: formatAtoms(user.tradingVolume, quoteDecimals()) },
    },
  };
}

/** Every product is quoted in VND today; trading volume is summed in that one quote asset. */
function quoteDecimals(): number {
  const quote = ASSETS.find((a) => a.id === PRODUCTS[0]?.quoteAssetId);
  return quote?.decimals ?? 0;
}

export function apiKeyRecord(row: ApiKeyRow, secret?: string) {
  return {
    api_key: row.apiKey,
    ...(secret === undefined ? {} : { api_secret: secret }),
    name: row.name,
    created_at: ts(row.createdAt),
    expired_at: ts(row.expiredAt),
    is_read_only: row.isReadOnly,
  };
}

export function productRecord(market: Market) {
  const spec = market.rules.spec;
  return {
    id: spec.id,
    base_asset_id: spec.baseAssetId,
    quote_asset_id: spec.quoteAssetId,
    price_increment: spec.priceIncrement,
    size_increment: spec.sizeIncrement,
    min_size: spec.minSize,
    max_size: spec.maxSize,
    min_notional: spec.minNotional,
    max_price: spec.maxPrice,
    status: 'online',
  };
}

export function orderBookRecord(market: Market, depth: number, now: bigint) {
  const level = (l: { priceTicks: number; lots: number; orders: number }) => ({
    price: market.price(l.priceTicks),
    size: market.size(l.lots),
    order_count: l.orders,
  });
  return {
    product_id: market.id,
    sequence: market.sequence,
    time: now.toString(),
    bids: market.book.depth('BUY', depth).map(level),
    asks: market.book.depth('SELL', depth).map(level),
  };
}

export function publicTradeRecord(t: TradeRow) {
  return { id: t.id, product_id: t.productId, price: t.price, size: t.size, side: t.takerSide, time: ts(t.time) };
}

export function assetRecords() {
  return ASSETS.map((a) => ({ id: a.id, name: a.name, decimals: a.decimals }));
}
