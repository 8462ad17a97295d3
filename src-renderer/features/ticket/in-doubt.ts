/**
 * A send whose outcome is unknown (the desk lost the venue's answer, E0802, or browser mode lost its link to the desk
 * with the order on its way) is followed by its client order id. What the desk learns of it comes to the window
 * anyway: the order among the open orders or the history (from the orders channel, a read, or the desk's own lookup
 * of it), or the lookup finding none (the connection status's notPlaced). The ticket's Last order line then says
 * what happened, where it said "outcome unknown" for good. No second lookup: the desk's is the one.
 */
import type { OrderFields } from '../../../src-shared/ipc/contract';
import { clientOrderIdKey, newClientOrderId } from '../../../src-shared/client-order-id';
import type { Order } from '../../../src-shared/protocol/records';
import type { DeskState } from '../../stores/desk-store';
import { lastOrderText } from './ticket-check';

/** Done orders go to the front of the history: the last one sent is among the first few. */
const RECENT = 50;

const NOT_PLACED = 'NOT PLACED (the desk looked it up): safe to send again';

/** An order as the ticket sends it: named, and the orders already under that name, which are never taken for it. */
export interface SentOrder {
  readonly request: OrderFields & { client_order_id: string };
  readonly earlier: ReadonlySet<string>;
  /**
   * The status said "not placed" of this name as the order was sent: of an earlier send under it (the line invites
   * sending it again), not of this one, which may yet be placed. Not taken for this one's until the status stops
   * saying it (see earlierNoteGone); the desk drops that note as it sends the new placement.
   */
  readonly notPlacedBefore: boolean;
}

/** One of the most recently done orders that `match` picks. */
export function recentlyDone(s: DeskState, match: (order: Order) => boolean): Order | undefined {
  for (let i = 0; i < Math.min(RECENT, s.history.length); i++) {
    const order = s.history[i];
    if (order !== undefined && match(order)) return order;
  }
  return undefined;
}

/**
 * The order about to be sent, named when the trader gave it no client order id: a browser window that loses its
 * link with the order on its way hears nothing back, not even the name the desk would give it. An order the window
 * already holds under a name typed again (done ones free theirs) is noted, as the desk's lookup notes it.
 */
export function nameSend(request: OrderFields, s: DeskState): SentOrder {
  const named = { ...request, client_order_id: request.client_order_id ?? newClientOrderId() };
  const id = clientOrderIdKey(named.client_order_id);
  const earlier = [...Object.values(s.openOrders), ...s.history.slice(0, RECENT)].filter((o) => clientOrderIdKey(o.client_order_id) === id);
  return { request: named, earlier: new Set(earlier.map((o) => o.order_id)), notPlacedBefore: saysNotPlaced(s, id) };
}

/** The status says the desk's lookup found no order under `id` (a clientOrderIdKey). */
function saysNotPlaced(s: DeskState, id: string): boolean {
  return s.connection?.notPlaced?.some((n) => clientOrderIdKey(n) === id) === true;
}

/** The status no longer says "not placed" of an earlier send under `sent`'s name: what it says from now on is of this one. */
export function earlierNoteGone(s: DeskState, sent: SentOrder): boolean {
  return sent.notPlacedBefore && !saysNotPlaced(s, clientOrderIdKey(sent.request.client_order_id));
}

/**
 * What the desk has learned of a send whose outcome was unknown: the order it made (as it stands now), or
 * 'not_placed' once the desk's lookup found none; undefined while neither. Client order ids are case-insensitive.
 */
export function learnedOutcome(s: DeskState, sent: SentOrder): Order | 'not_placed' | undefined {
  const { request, earlier } = sent;
  const id = clientOrderIdKey(request.client_order_id);
  const madeBy = (o: Order): boolean => clientOrderIdKey(o.client_order_id) === id && o.product_id === request.product_id && o.side === request.side && !earlier.has(o.order_id);
  // Only while a send is in doubt: every open order looked at, on every change to the store.
  const made = Object.values(s.openOrders).find(madeBy) ?? recentlyDone(s, madeBy);
  if (made !== undefined) return made;
  return !sent.notPlacedBefore && saysNotPlaced(s, id) ? 'not_placed' : undefined;
}

/** The Last order line of an order the venue has given no record of, as the ticket sent it, with `status`. */
export function sentOrderText(request: OrderFields, quoteAsset: string, status: string): string {
  const asked = { side: request.side, product_id: request.product_id, base_size: request.base_size ?? '0', quote_size: request.quote_size ?? request.exact_quote_size ?? '0' };
  return lastOrderText(asked, quoteAsset, status);
}

export function notPlacedText(request: OrderFields, quoteAsset: string): string {
  return sentOrderText(request, quoteAsset, NOT_PLACED);
}
