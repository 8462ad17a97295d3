/**
 * The trader's orders as the desk knows them: one record per order id, in the REST record's shape, fed by
 * REST answers and WebSocket updates in whatever order they arrive. Keyed by order id, so an order cannot
 * appear twice; a record only ever moves forward (later updated_at, and a done order never comes back), so a
 * stale REST page read during a reconnect cannot undo a fill the socket already reported.
 */
import { OrderSchema, type Order, type WsOrder } from '../../src-shared/protocol/records';
import { clientOrderIdKey } from '../../src-shared/client-order-id';

/** WebSocket lowercase status → REST status and done_reason (venue contract). */
const FROM_WS_STATUS: Readonly<Record<string, { status: string; done_reason: string }>> = {
  pending: { status: 'SUBMITTED', done_reason: '' },
  open: { status: 'ACTIVE', done_reason: '' },
  partially_filled: { status: 'ACTIVE', done_reason: '' },
  scheduled: { status: 'SCHEDULED', done_reason: '' },
  filled: { status: 'DONE', done_reason: 'FILLED' },
  cancelled: { status: 'DONE', done_reason: 'CANCELED' },
  rejected: { status: 'DONE', done_reason: 'REJECTED' },
  expired: { status: 'DONE', done_reason: 'EXPIRED' },
};

const RANK: Readonly<Record<string, number>> = { SUBMITTED: 0, SCHEDULED: 1, ACTIVE: 2, DONE: 3 };

export function isDone(order: Order): boolean {
  return order.status === 'DONE';
}

function nanos(text: string | undefined): bigint {
  return text !== undefined && /^\d{1,19}$/.test(text) ? BigInt(text) : 0n;
}

function sameState(a: Order, b: Order): boolean {
  return (
    a.status === b.status &&
    a.done_reason === b.done_reason &&
    a.filled_base_size === b.filled_base_size &&
    a.filled_quote_size === b.filled_quote_size &&
    a.updated_at === b.updated_at &&
    a.cancel_requested_at === b.cancel_requested_at &&
    a.trades.length === b.trades.length
  );
}

/** Whether `incoming` should replace `held`. */
function supersedes(incoming: Order, held: Order): boolean {
  if (isDone(held) && !isDone(incoming)) return false;
  const a = nanos(incoming.updated_at);
  const b = nanos(held.updated_at);
  if (a !== b) return a > b;
  return (RANK[incoming.status] ?? 0) >= (RANK[held.status] ?? 0) && !sameState(incoming, held);
}

export type UpdateResult =
  /** The blotter changed; `order` is the record it now holds. */
  | { readonly kind: 'changed'; readonly order: Order }
  | { readonly kind: 'unchanged' }
  /** An order the desk has not seen and the update is too thin to show: fetch it over REST. */
  | { readonly kind: 'unknown'; readonly orderId: string };

export class OrderBlotter {
  private readonly orders = new Map<string, Order>();
  /**
   * Lower-cased client_order_id → the ids of the orders held under it. Every placement that names a client_order_id
   * asks which orders already carry it: read off the whole blotter (thousands of orders after a day) each time.
   */
  private readonly byClientId = new Map<string, Set<string>>();

  get size(): number {
    return this.orders.size;
  }

  get(orderId: string): Order | undefined {
    return this.orders.get(orderId);
  }

  all(): Order[] {
    return [...this.orders.values()];
  }

  /** The ids of every held order with this client_order_id (case-insensitive, as the venue compares them). */
  orderIdsWithClientOrderId(clientOrderId: string): Set<string> {
    return new Set(this.byClientId.get(clientOrderIdKey(clientOrderId)));
  }

  /** A full record from REST. */
  upsert(order: Order): UpdateResult {
    const held = this.orders.get(order.order_id);
    if (held !== undefined && !supersedes(order, held)) return { kind: 'unchanged' };
    this.orders.set(order.order_id, order);
    const key = clientOrderIdKey(order.client_order_id);
    const heldKey = held === undefined ? undefined : clientOrderIdKey(held.client_order_id);
    if (heldKey !== key) {
      if (heldKey !== undefined) this.unindex(heldKey, order.order_id);
      const ids = this.byClientId.get(key);
      if (ids === undefined) this.byClientId.set(key, new Set([order.order_id]));
      else ids.add(order.order_id);
    }
    return { kind: 'changed', order };
  }

  private unindex(key: string, orderId: string): void {
    const ids = this.byClientId.get(key);
    ids?.delete(orderId);
    if (ids?.size === 0) this.byClientId.delete(key);
  }

  /** A WebSocket update: lowercase status, `id` for order_id, and possibly only some of the fields. */
  applyUpdate(update: WsOrder): UpdateResult {
    const mapped = FROM_WS_STATUS[update.status];
    const held = this.orders.get(update.id);
    if (mapped === undefined) return held === undefined ? { kind: 'unknown', orderId: update.id } : { kind: 'unchanged' };
    const { id, status: _status, ...fields } = update;
    const present = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    const merged = { ...held, ...present, order_id: id, status: mapped.status, done_reason: update.done_reason ?? mapped.done_reason };
    const parsed = OrderSchema.safeParse(merged);
    if (!parsed.success) return held === undefined ? { kind: 'unknown', orderId: id } : { kind: 'unchanged' };
    return this.upsert(parsed.data);
  }
}
