/**
 * The click-to-acknowledgement baseline's bridge, injected before the desk page's own scripts (as the preload
 * would put `window.nova` there): every call and event goes to the running desk over browser mode's WebSocket,
 * as the page's own bridge would, except placing and cancelling an order, which are answered at once, each
 * followed by its `orders.changed` event. What is left is the page's own work from click to row.
 */
import type { EventName } from '../../src-shared/ipc/contract';
import type { Order } from '../../src-shared/protocol/records';
import type { NovaBridge } from '../../src-renderer/bridge/nova';
import { webTransport } from '../../src-renderer/bridge/web-transport';
import { order as syntheticOrder } from '../renderer/synthetic-market';

type Listener = (payload: unknown) => void;
interface PlaceRequest {
  client_order_id?: string;
  side: 'BUY' | 'SELL';
  limit_price?: string;
  base_size?: string;
  product_id: string;
}

const real = webTransport(`ws://${location.host}/bridge`);
const listeners = new Map<string, Set<Listener>>();
const orders = new Map<string, Order>();
let placed = 0;

const emit = (name: EventName, payload: unknown): void => {
  setTimeout(() => {
    for (const listener of listeners.get(name) ?? []) listener(payload);
  }, 0);
};

const answered = (order: Order): Promise<{ ok: true; value: Order }> => {
  emit('orders.changed', [order]);
  return Promise.resolve({ ok: true, value: order });
};

const stub = {
  ...real,
  'orders.place': (request: PlaceRequest) => {
    placed += 1;
    const now = (BigInt(Date.now()) * 1_000_000n).toString();
    const order: Order = {
      ...syntheticOrder(placed, 'ACTIVE'),
      order_id: crypto.randomUUID(),
      client_order_id: request.client_order_id ?? '',
      side: request.side,
      product_id: request.product_id,
      limit_price: request.limit_price ?? '0',
      base_size: request.base_size ?? '0',
      created_at: now,
      updated_at: now,
    };
    orders.set(order.order_id, order);
    emit('orders.changed', [order]);
    return Promise.resolve({ ok: true, value: { status: 'placed', order } });
  },
  'orders.cancel': (request: { order_id?: string }) => {
    const open = orders.get(request.order_id ?? '');
    if (open === undefined) return real['orders.cancel'](request as never);
    orders.delete(open.order_id);
    const now = (BigInt(Date.now()) * 1_000_000n).toString();
    return answered({ ...open, status: 'DONE', done_reason: 'CANCELED', updated_at: now, cancel_requested_at: now });
  },
  on: (name: EventName, listener: Listener) => {
    let set = listeners.get(name);
    if (set === undefined) listeners.set(name, (set = new Set()));
    set.add(listener);
    const off = real.on(name, listener);
    return () => {
      set.delete(listener);
      off();
    };
  },
};

window.nova = stub as unknown as NovaBridge;
