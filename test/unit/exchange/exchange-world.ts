// One exchange with a fee account and funded traders on a clock the test moves, for tests that place orders as the
// REST or WebSocket parsers make them. What a placement answers: the order as processed, or the ApiError that
// refused it (from the parser or the exchange).
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder, parseWsCreateOrder } from '../../../src-shared/protocol/orders';
import { Exchange, FEE_ACCOUNT_ID } from '../../../src-main/venue/exchange/exchange';
import type { OrderRow } from '../../../src-main/venue/store/rows';

export const NOW = 1_700_000_000_000_000_000n;

export function exchangeWorld(funds: { BTC: bigint; VND: bigint } = { BTC: 1_0000_0000n, VND: 10_000_000_000n }) {
  let ids = 0;
  let now = NOW;
  const exchange = new Exchange({ now: () => now, newId: () => `00000000-0000-4000-8000-${(++ids).toString().padStart(12, '0')}`, maxOpenOrders: 1000 });
  exchange.createUser({ isAdmin: false, makerFeeRate: '0', takerFeeRate: '0', id: FEE_ACCOUNT_ID });
  const user = (): string => {
    const { id } = exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
    exchange.deposit(id, 'BTC', funds.BTC);
    exchange.deposit(id, 'VND', funds.VND);
    return id;
  };
  const settle = (userId: string, request: ReturnType<typeof parseCreateOrder>): OrderRow | ApiError => {
    if (request instanceof ApiError) return request;
    try {
      return exchange.place(userId, request).processed.row;
    } catch (err) {
      if (err instanceof ApiError) return err;
      throw err;
    }
  };
  /** A REST order body on BTC-VND unless it names another product. */
  const place = (userId: string, body: Record<string, unknown>) => settle(userId, parseCreateOrder({ product_id: 'BTC-VND', ...body }, { now }));
  /** A WebSocket create_order's data on BTC-VND unless it names another product. */
  const placeWs = (userId: string, data: Record<string, unknown>) => settle(userId, parseWsCreateOrder({ product_id: 'BTC-VND', ...data }, { now }));
  /** Moves the clock to `later` past NOW and lets it tick. */
  const at = (later: bigint): void => {
    now = NOW + later;
    exchange.tick();
  };
  return { exchange, user, place, placeWs, at };
}

/** The order a placement made; a refusal fails the test with its message. */
export function placed(result: OrderRow | ApiError): OrderRow {
  if (result instanceof ApiError) throw result;
  return result;
}
