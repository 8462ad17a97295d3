import { describe, expect, expectTypeOf, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../../src-shared/errors/catalogue';
import { ASSETS, PRODUCTS } from '../../../src-shared/protocol/products';
import {
  AccountResponseSchema,
  ApiKeyResponseSchema,
  AssetsResponseSchema,
  BulkCancelResponseSchema,
  CancelAllResponseSchema,
  ErrorCodesResponseSchema,
  GenericErrorResponseSchema,
  OrderBookResponseSchema,
  OrderResponseSchema,
  OrderSchema,
  ProductsResponseSchema,
  SimUserResponseSchema,
  TradesResponseSchema,
  WsOrderSchema,
  type Order,
} from '../../../src-shared/protocol/records';
import type { OrderStatus } from '../../../src-shared/protocol/vocabulary';

const ORDER: Order = {
  order_id: '0b6f7c1e-3f0a-4c1b-9d2e-5a6b7c8d9e0f',
  client_order_id: 'c1',
  user_id: 'u1',
  status: 'DONE',
  done_reason: 'FILLED',
  product_id: 'BTC-VND',
  side: 'BUY',
  type: 'LIMIT',
  time_in_force: 'GTC',
  post_only: 'false',
  stp: 'CANCEL_TAKER',
  limit_price: '2500000000',
  base_size: '0.01',
  quote_size: '0',
  exact_quote_size: '0',
  average_fill_price: '2500000000',
  filled_base_size: '0.01',
  filled_quote_size: '25000000',
  maker_fee_rate: '0.001',
  taker_fee_rate: '0.002',
  fee_asset_id: 'VND',
  created_at: '1763800000000000000',
  updated_at: '1763800000000000001',
  cancel_requested_at: '',
  expired_at: '0',
  scheduled_at: '0',
  trades: [
    {
      id: 't1',
      price: '2500000000',
      size: '0.01',
      liquidity_indicator: 'TAKER',
      time: '1763800000000000001',
      fee_asset: 'VND',
      fee_amount: '50000',
    },
  ],
};

describe('order record (2.1, 2.2)', () => {
  it('parses a full order with its trades', () => {
    expect(OrderResponseSchema.parse({ order: ORDER })).toEqual({ order: ORDER });
  });

  it("keeps this venue's additions when sent: reject reason, stop terms, fee total", () => {
    const extra = { reject_reason: 'E0201_InsufficientBalance', order_stop_type: 'STOP_NONE', stop_trigger_price: '0', fee_total: '50000' };
    expect(OrderSchema.parse({ ...ORDER, done_reason: 'REJECTED', ...extra })).toMatchObject(extra);
  });

  it('refuses numbers where the wire promises strings', () => {
    expect(OrderSchema.safeParse({ ...ORDER, limit_price: 2500000000 }).success).toBe(false);
    expect(OrderSchema.safeParse({ ...ORDER, created_at: 1763800000000000000 }).success).toBe(false);
  });

  it('holds post_only as a string holding a boolean', () => {
    expect(OrderSchema.safeParse({ ...ORDER, post_only: 'true' }).success).toBe(true);
    expect(OrderSchema.safeParse({ ...ORDER, post_only: false }).success).toBe(false);
    expect(OrderSchema.safeParse({ ...ORDER, post_only: 'yes' }).success).toBe(false);
  });

  it('tolerates unknown fields and statuses a newer venue may send', () => {
    const parsed = OrderSchema.parse({ ...ORDER, status: 'EXPIRING', leverage: '2' });
    expect(parsed.status).toBe('EXPIRING');
    expect(parsed).not.toHaveProperty('leverage');
  });

  it('types status as the known words, still open to others', () => {
    expectTypeOf<OrderStatus>().toExtend<Order['status']>();
    expectTypeOf<'EXPIRING'>().toExtend<Order['status']>();
  });

  it('WebSocket orders need only id, client_order_id and status', () => {
    expect(WsOrderSchema.parse({ id: 'x', client_order_id: '', status: 'cancelled', cancel_requested_at: '1' })).toEqual({
      id: 'x',
      client_order_id: '',
      status: 'cancelled',
      cancel_requested_at: '1',
    });
    expect(WsOrderSchema.safeParse({ client_order_id: '', status: 'open' }).success).toBe(false);
  });
});

describe('other records', () => {
  it('parses an account (2.3)', () => {
    const account = {
      id: 'u1',
      maker_fee_rate: '0.001',
      taker_fee_rate: '0.002',
      asset_balances: [{ asset: 'BTC', balance: '10', free: '9.5', locked: '0.5' }],
      stats: {
        order_stats: {
          total_orders: '3',
          total_done_orders: '1',
          total_open_orders: '2',
          total_pending_orders: '0',
          total_accepted_orders: '3',
        },
        trading_stats: { total_trading_volume: '25000000' },
      },
    };
    expect(AccountResponseSchema.parse({ account })).toEqual({ account });
    expect(AccountResponseSchema.safeParse({ account: { ...account, stats: {} } }).success).toBe(false);
  });

  it('parses an API key (2.4), with the secret only when present', () => {
    const key = { api_key: 'k', name: 'bot', created_at: '1', expired_at: '0', is_read_only: false };
    expect(ApiKeyResponseSchema.parse({ api_key: key }).api_key.api_secret).toBeUndefined();
    expect(ApiKeyResponseSchema.parse({ api_key: { ...key, api_secret: 's' } }).api_key.api_secret).toBe('s');
    expect(ApiKeyResponseSchema.safeParse({ api_key: { ...key, is_read_only: 'false' } }).success).toBe(false);
    expect(SimUserResponseSchema.parse({ user_id: 'u2', api_key: { ...key, api_secret: 's' } }).user_id).toBe('u2');
  });

  it('parses the error-code lookup answer (2.5)', () => {
    expect(ErrorCodesResponseSchema.parse({ data: { errors: ERROR_CATALOGUE } }).data.errors).toHaveLength(ERROR_CATALOGUE.length);
  });

  it('parses products and assets as products.ts defines them', () => {
    const products = PRODUCTS.map((p) => ({
      id: p.id,
      base_asset_id: p.baseAssetId,
      quote_asset_id: p.quoteAssetId,
      price_increment: p.priceIncrement,
      size_increment: p.sizeIncrement,
      min_size: p.minSize,
      max_size: p.maxSize,
      min_notional: p.minNotional,
      max_price: p.maxPrice,
      status: 'online',
    }));
    expect(ProductsResponseSchema.parse({ products }).products).toHaveLength(3);
    expect(AssetsResponseSchema.parse({ assets: ASSETS }).assets).toEqual(ASSETS);
    expect(AssetsResponseSchema.safeParse({ assets: [{ id: 'X', name: 'x', decimals: 1.5 }] }).success).toBe(false);
  });

  it('parses an order book and public trades', () => {
    const orderbook = {
      product_id: 'BTC-VND',
      sequence: 7,
      time: '1',
      bids: [{ price: '2500000000', size: '0.5', order_count: 2 }],
      asks: [],
    };
    expect(OrderBookResponseSchema.parse({ orderbook })).toEqual({ orderbook });
    expect(OrderBookResponseSchema.parse({ orderbook: { ...orderbook, sequence: '7' } })).toEqual({ orderbook });
    expect(OrderBookResponseSchema.safeParse({ orderbook: { ...orderbook, sequence: '-7' } }).success).toBe(false);
    const trade = { id: '1', product_id: 'BTC-VND', price: '2500000000', size: '0.01', side: 'SELL', time: '1' };
    expect(TradesResponseSchema.parse({ trades: [trade] })).toEqual({ trades: [trade] });
  });

  it('parses both cancel answers, which name the id differently', () => {
    const ref = { id: 'a', client_order_id: '' };
    expect(
      BulkCancelResponseSchema.parse({ cancel_requested_orders: [ref], not_opened_orders: [], already_cancel_requested_orders: [] }),
    ).toBeTruthy();
    expect(CancelAllResponseSchema.parse({ cancel_requested_orders: [{ order_id: 'a', client_order_id: '' }] })).toBeTruthy();
    expect(CancelAllResponseSchema.safeParse({ cancel_requested_orders: [ref] }).success).toBe(false);
  });

  it('parses the generic error response other environments may send', () => {
    const generic = { code: 3, message: 'invalid', details: [{ '@type': 'type.googleapis.com/x', field: 'a' }] };
    expect(GenericErrorResponseSchema.parse(generic).details?.[0]).toEqual({ '@type': 'type.googleapis.com/x', field: 'a' });
  });
});
