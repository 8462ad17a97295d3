/**
 * A seeded BTC-VND market for the renderer bench: a pool of book snapshots (a random walk of the mid with
 * every level's size moving), public trades, and blotters of 100 000 orders and fills. Everything is made
 * before measuring and kept as wire JSON, so the frames measured pay the decode a real event pays and
 * nothing of the making.
 */
import type { BookSnapshot, Fill } from '../../src-shared/ipc/contract';
import { formatUnits } from '../../src-shared/protocol/decimal';
import type { BookLevel, Order, PublicTrade } from '../../src-shared/protocol/records';
import { SeededRandom } from '../../src-shared/seeded-random';

export const PRODUCT = 'BTC-VND';
const PRICE_STEP = '10000';
const SIZE_STEP = '0.0001';
const MID_TICKS = 250_000;
const LEVELS = 50;


const price = (ticks: number): string => formatUnits(ticks, PRICE_STEP);
const size = (lots: number): string => formatUnits(lots, SIZE_STEP);
const nanos = (i: number): string => (1_790_000_000_000_000_000n + BigInt(i) * 1_000_000n).toString();

/** `count` successive books as `book.changed` payload JSON. */
export function bookPool(count: number, seed = 7): string[] {
  const stream = new SeededRandom(seed);
  const next = (): number => stream.next();
  let mid = MID_TICKS;
  const pool: string[] = [];
  for (let i = 0; i < count; i++) {
    if (next() < 0.05) mid += next() < 0.5 ? -1 : 1;
    const side = (sign: 1 | -1): BookLevel[] =>
      Array.from({ length: LEVELS }, (_, k) => ({
        price: price(mid + sign * (k + 1)),
        size: size(1 + Math.floor(next() * 50_000)),
        order_count: 1 + Math.floor(next() * 9),
      }));
    const book: BookSnapshot = { productId: PRODUCT, sequence: i + 1, time: nanos(i), source: 'stream', bids: side(-1), asks: side(1) };
    pool.push(JSON.stringify(book));
  }
  return pool;
}

export function trade(i: number, seed = 11): PublicTrade {
  const stream = new SeededRandom(seed + i);
  const next = (): number => stream.next();
  return {
    id: `t${i}`,
    product_id: PRODUCT,
    price: price(MID_TICKS + Math.floor(next() * 7) - 3),
    size: size(1 + Math.floor(next() * 30_000)),
    side: next() < 0.5 ? 'BUY' : 'SELL',
    time: nanos(i),
  };
}

export function order(i: number, status: Order['status'], limitTicks = MID_TICKS - 1 - (i % 40)): Order {
  return {
    order_id: `o${i}`,
    client_order_id: `c${i}`,
    user_id: 'bench',
    status,
    done_reason: status === 'DONE' ? (i % 3 === 0 ? 'CANCELED' : 'FILLED') : '',
    product_id: PRODUCT,
    side: i % 2 === 0 ? 'BUY' : 'SELL',
    type: 'LIMIT',
    time_in_force: 'GTC',
    post_only: 'false',
    stp: 'CANCEL_TAKER',
    limit_price: price(i % 2 === 0 ? limitTicks : 2 * MID_TICKS - limitTicks),
    base_size: size(1 + (i % 5000)),
    quote_size: '0',
    exact_quote_size: '0',
    average_fill_price: '0',
    filled_base_size: '0',
    filled_quote_size: '0',
    maker_fee_rate: '0.001',
    taker_fee_rate: '0.002',
    fee_asset_id: 'VND',
    created_at: nanos(i),
    updated_at: nanos(i),
    cancel_requested_at: '0',
    expired_at: '0',
    scheduled_at: '0',
    trades: [],
  };
}

export function fill(i: number): Fill {
  return {
    tradeId: `t${i}`,
    orderId: `o${i}`,
    clientOrderId: `c${i}`,
    productId: PRODUCT,
    side: i % 2 === 0 ? 'BUY' : 'SELL',
    price: price(MID_TICKS + (i % 200) - 100),
    size: size(1 + (i % 5000)),
    liquidity: i % 3 === 0 ? 'TAKER' : 'MAKER',
    feeAsset: 'VND',
    feeAmount: String(1000 + (i % 9000)),
    time: nanos(i),
  };
}
