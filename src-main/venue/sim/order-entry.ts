/**
 * How simulated users trade: each order goes through the parser a REST client's order goes through, so it
 * respects the product's increments and bounds, and then straight into the exchange. A refusal (a maker short
 * of funds after a run of fills) is expected now and then: it is counted, never thrown.
 */
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import type { Exchange } from '../exchange/exchange';
import type { LiveOrder } from '../exchange/live-order';

export interface OrderBody {
  readonly type: 'LIMIT' | 'MARKET';
  readonly side: 'BUY' | 'SELL';
  readonly product_id: string;
  readonly base_size: string;
  readonly limit_price?: string;
  readonly time_in_force?: 'GTC' | 'IOC';
  readonly post_only?: boolean;
}

export class OrderEntry {
  placed = 0;
  rejected = 0;

  constructor(
    private readonly exchange: Exchange,
    private readonly now: () => bigint,
  ) {}

  /** The order as the exchange left it, or undefined when it was refused. */
  place(userId: string, body: OrderBody): LiveOrder | undefined {
    const request = parseCreateOrder(body, { now: this.now() });
    if (request instanceof ApiError) {
      this.rejected += 1;
      return undefined;
    }
    try {
      const { processed } = this.exchange.place(userId, request);
      if (processed.row.doneReason === 'REJECTED') {
        this.rejected += 1;
        return undefined;
      }
      this.placed += 1;
      return processed;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      this.rejected += 1;
      return undefined;
    }
  }

  /** An order that finished meanwhile is simply gone: nothing to cancel. */
  cancel(userId: string, orderId: string): void {
    try {
      this.exchange.cancel(userId, { orderId });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }
}
