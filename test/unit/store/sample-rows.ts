// Rows for the store tests. Kept apart from fixtures.ts (which needs vitest) so a child process can use them.
import type { ApiKeyRow, BalanceRow, OrderRow, TradeRow, UserRow } from '../../../src-main/venue/store';

const NS_2025 = 1_735_689_600_000_000_000n;

export function user(n: number, over: Partial<UserRow> = {}): UserRow {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    number: n,
    isAdmin: false,
    makerFeeRate: '0.001',
    takerFeeRate: '0.002',
    createdAt: NS_2025,
    totalOrders: 0n,
    totalDoneOrders: 0n,
    totalAcceptedOrders: 0n,
    tradingVolume: 0n,
    ...over,
  };
}

export function apiKey(owner: UserRow, name: string, over: Partial<ApiKeyRow> = {}): ApiKeyRow {
  return {
    apiKey: `key-${owner.number}-${name}`,
    userId: owner.id,
    secretHash: Buffer.alloc(32, 7),
    secretNonce: Buffer.from([1, 2, 3, 4]),
    name,
    createdAt: NS_2025,
    expiredAt: null,
    isReadOnly: false,
    revoked: false,
    ...over,
  };
}

export function balance(owner: UserRow, asset: string, free: bigint, locked = 0n): BalanceRow {
  return { userId: owner.id, asset, free, locked };
}

export function order(owner: UserRow, seq: number, over: Partial<OrderRow> = {}): OrderRow {
  return {
    orderId: `10000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    seq,
    userId: owner.id,
    clientOrderId: '',
    productId: 'BTC-VND',
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    postOnly: false,
    stp: 'CANCEL_TAKER',
    stopType: '',
    limitPrice: '2500000000',
    baseSize: '0.01',
    quoteSize: '0',
    exactQuoteSize: '0',
    stopTriggerPrice: '0',
    status: 'ACTIVE',
    doneReason: '',
    rejectReason: '',
    filledBaseSize: '0',
    filledQuoteSize: '0',
    feeTotal: '0',
    makerFeeRate: '0.001',
    takerFeeRate: '0.002',
    restingLots: 100,
    holdAsset: 'VND',
    holdRemaining: 25_000_000n,
    createdAt: NS_2025 + BigInt(seq) * 1_000n,
    updatedAt: NS_2025 + BigInt(seq) * 1_000n,
    cancelRequestedAt: null,
    expiredAt: null,
    scheduledAt: null,
    twapState: '',
    ...over,
  };
}

export function trade(seq: number, maker: OrderRow, taker: OrderRow, over: Partial<TradeRow> = {}): TradeRow {
  return {
    id: `trade-${seq}`,
    seq,
    productId: maker.productId,
    price: maker.limitPrice,
    size: '0.01',
    takerSide: taker.side,
    makerOrderId: maker.orderId,
    takerOrderId: taker.orderId,
    makerUserId: maker.userId,
    takerUserId: taker.userId,
    makerFee: '25000',
    takerFee: '50000',
    time: NS_2025 + BigInt(seq) * 1_000_000n,
    ...over,
  };
}
