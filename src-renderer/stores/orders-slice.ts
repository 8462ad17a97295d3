// The trader's orders and fills. Open orders are keyed by id; an order that becomes DONE moves to the history.
import type { StateCreator } from 'zustand';
import type { Fill } from '../../src-shared/ipc/contract';
import type { Order } from '../../src-shared/protocol/records';
import { compareDecimal } from '../ui/decimal-text';
import type { DeskState } from './desk-store';
import { errorNotice } from './notices-slice';

/** Rows kept in memory per blotter; the table is virtualized, so this bounds memory, not drawing. */
export const BLOTTER_LIMIT = 100_000;

export interface OrdersSlice {
  openOrders: Record<string, Order>;
  history: Order[];
  /**
   * Whether the history of the account shown has been read. Until then a done order is no news: a new session
   * replays the account's recent orders before the history arrives, and old refusals must not come back as new.
   */
  historyLoaded: boolean;
  /** The last history read was as long as the venue answers: older orders may exist beyond it. */
  historyCut: boolean;
  /**
   * Why the last read of the open orders (of the history) failed, until one answers: the orders shown are then not
   * current, and an empty blotter is not "nothing yet" but nothing read.
   */
  openOrdersProblem: string | undefined;
  historyProblem: string | undefined;
  fills: Fill[];
  /** Why the last read of the fills failed, until one answers: the fills shown are then not current. */
  fillsProblem: string | undefined;
  /**
   * Orders whose cancel this window has sent and the venue not yet answered: their Cancel is not offered again,
   * since a second click sent a second cancel (and the trader had no sign the first was on its way).
   */
  cancelling: Readonly<Record<string, true>>;
  cancelSent: (orderIds: readonly string[]) => void;
  cancelAnswered: (orderIds: readonly string[]) => void;
  /**
   * Orders new or changed: merged by id. `answered`: the venue's answer to an order sent from this window, whose
   * refusal is news whether or not the history has been read.
   */
  applyOrders: (orders: Order[], answered?: boolean) => void;
  /**
   * The open orders as a read answered them. `read` (from beginOrdersRead, taken when it was sent): the orders
   * the desk's events changed meanwhile, whose records here are newer than the read's.
   */
  setOpenOrders: (orders: Order[], read?: OrdersRead) => void;
  /** Done orders as a read answered them, merged with the done ones already known (done is for good). */
  setHistory: (orders: Order[], cut?: boolean) => void;
  /** Forgets the orders, fills and balances of the account shown so far. */
  clearAccountData: () => void;
  /** Fills newest first; returns the ones not seen before. */
  addFills: (fills: Fill[]) => Fill[];
  setFillsProblem: (problem: string | undefined) => void;
  setOrdersProblems: (problems: { open: string | undefined; history: string | undefined }) => void;
}

function isOpen(order: Order): boolean {
  return order.status !== 'DONE';
}

/** An orders read on its way: the ids the desk's events reported since it was sent. */
export interface OrdersRead {
  readonly touched: Set<string>;
}

const readsOnTheirWay = new Set<OrdersRead>();

/** Call as the read is sent, hand the result to setOpenOrders with its answer, and end it however it went. */
export function beginOrdersRead(): OrdersRead {
  const read = { touched: new Set<string>() };
  readsOnTheirWay.add(read);
  return read;
}

export function endOrdersRead(read: OrdersRead): void {
  readsOnTheirWay.delete(read);
}

/** UNIX nanoseconds as digit strings, compared without a bigint each: a history can hold 100 000 of them. */
function compareNanos(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Newest updated first; an order known twice keeps its newer record. */
function mergeDone(incoming: readonly Order[], known: readonly Order[]): Order[] {
  const byId = new Map<string, Order>();
  for (const order of [...incoming, ...known]) {
    const held = byId.get(order.order_id);
    if (held === undefined || compareNanos(order.updated_at, held.updated_at) > 0) byId.set(order.order_id, order);
  }
  return [...byId.values()].sort((a, b) => compareNanos(b.updated_at, a.updated_at)).slice(0, BLOTTER_LIMIT);
}

export const createOrdersSlice: StateCreator<DeskState, [], [], OrdersSlice> = (set, get) => ({
  openOrders: {},
  history: [],
  historyLoaded: false,
  historyCut: false,
  openOrdersProblem: undefined,
  historyProblem: undefined,
  fills: [],
  fillsProblem: undefined,
  cancelling: {},
  cancelSent: (orderIds) => set((s) => ({ cancelling: { ...s.cancelling, ...Object.fromEntries(orderIds.map((id) => [id, true] as const)) } })),
  cancelAnswered: (orderIds) =>
    set((s) => {
      const cancelling = { ...s.cancelling };
      for (const id of orderIds) delete cancelling[id];
      return { cancelling };
    }),
  applyOrders: (orders, answered = false) => {
    // The venue ends some orders itself (post-only that would take, FOK not filled, self-trade): the order is
    // answered, not refused, so the reason is told here, once, with the catalogue's words.
    for (const read of readsOnTheirWay) for (const o of orders) read.touched.add(o.order_id);
    const finished = new Set(get().history.map((o) => o.order_id));
    const ended = !get().historyLoaded && !answered ? [] : orders.filter((o) => !isOpen(o) && (o.reject_reason ?? '') !== '' && !finished.has(o.order_id));
    set((s) => {
      const open = { ...s.openOrders };
      const done: Order[] = [];
      const finished = new Set(s.history.map((o) => o.order_id));
      for (const order of orders) {
        // A place answer can arrive after the event that already filled the order: never step back in time,
        // and never reopen a done order.
        const known = open[order.order_id];
        if (known !== undefined && compareDecimal(known.updated_at, order.updated_at) > 0) continue;
        if (isOpen(order) && finished.has(order.order_id)) continue;
        if (isOpen(order)) open[order.order_id] = order;
        else {
          delete open[order.order_id];
          done.push(order);
        }
      }
      if (done.length === 0) return { openOrders: open };
      const doneIds = new Set(done.map((o) => o.order_id));
      const history = [...done, ...s.history.filter((o) => !doneIds.has(o.order_id))].slice(0, BLOTTER_LIMIT);
      return { openOrders: open, history };
    });
    for (const o of ended) {
      const size = o.base_size !== '0' ? `${o.base_size} ${o.product_id}` : `${o.quote_size} quote of ${o.product_id}`;
      get().notify(errorNotice(o.reject_reason ?? '', `${o.side} ${size} (${o.client_order_id || o.order_id}) ended ${o.done_reason}`));
    }
  },
  setOpenOrders: (orders, read) =>
    set((s) => {
      // A read is served before it arrives: an order done since (told by an event, or by the history read served
      // after it) is not open again, and one an event placed or changed since keeps the event's record.
      const finished = new Set(s.history.map((o) => o.order_id));
      const open: Record<string, Order> = {};
      for (const order of orders) if (isOpen(order) && !finished.has(order.order_id)) open[order.order_id] = order;
      for (const id of read?.touched ?? []) {
        const held = s.openOrders[id];
        const answered = open[id];
        if (held !== undefined && !finished.has(id) && (answered === undefined || compareDecimal(held.updated_at, answered.updated_at) > 0)) open[id] = held;
      }
      return { openOrders: open };
    }),
  // What the read does not hold is still done: it may have ended after the read was served, or lie beyond its limit.
  setHistory: (orders, cut = false) => set((s) => ({ history: mergeDone(orders.filter((o) => !isOpen(o)), s.history), historyLoaded: true, historyCut: cut })),
  clearAccountData: () => set({ openOrders: {}, cancelling: {}, history: [], historyLoaded: false, historyCut: false, openOrdersProblem: undefined, historyProblem: undefined, fills: [], fillsProblem: undefined, account: undefined, accountProblem: undefined }),
  // Only a change is set: every read of the fills calls it, and each set re-runs every selector of the window.
  setFillsProblem: (fillsProblem) => {
    if (get().fillsProblem !== fillsProblem) set({ fillsProblem });
  },
  setOrdersProblems: ({ open, history }) => {
    if (get().openOrdersProblem !== open || get().historyProblem !== history) set({ openOrdersProblem: open, historyProblem: history });
  },
  addFills: (incoming) => {
    const known = new Set(get().fills.map((f) => `${f.tradeId}/${f.orderId}`));
    const fresh = incoming.filter((f) => !known.has(`${f.tradeId}/${f.orderId}`));
    if (fresh.length > 0) {
      set((s) => ({ fills: [...fresh, ...s.fills].sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0)).slice(0, BLOTTER_LIMIT) }));
    }
    return fresh;
  },
});
