// A world for exchange property and regression tests: an Exchange with its clock and ids, funded traders, and a
// store kept from its change sets as VenueStore keeps them, from which a restart rebuilds the exchange the way
// Venue.restore and the server's catch-up tick do.
import { ApiError } from '../../../src-shared/errors/api-error';
import { parseCreateOrder, type NewOrderRequest } from '../../../src-shared/protocol/orders';
import { Exchange, FEE_ACCOUNT_ID, STARTING_BALANCES_KEY } from '../../../src-main/venue/exchange/exchange';
import { bookSequenceKey } from '../../../src-main/venue/exchange/market';
import type { CandleRow, ChangeSet, OrderRow, TradeRow, UserRow } from '../../../src-main/venue/store';

export const MS = 1_000_000n;
export const PRODUCT = 'BTC-VND';
export const ASSETS = ['BTC', 'VND'] as const;

/** Three well-funded traders and a poor one, so holds fail too. */
export const FUNDS = [
  { BTC: 5_0000_0000n, VND: 50_000_000_000n },
  { BTC: 5_0000_0000n, VND: 50_000_000_000n },
  { BTC: 5_0000_0000n, VND: 50_000_000_000n },
  { BTC: 300_0000n, VND: 100_000_000n },
] as const;
export const USERS = FUNDS.length;

/** Few client order ids, written in several cases: collisions within a user and across users are common. */
export const CLIENT_IDS = ['alpha', 'Beta', 'gamma'] as const;

export type Stp = 'CANCEL_TAKER' | 'CANCEL_MAKER' | 'CANCEL_BOTH' | 'DECREASE_AND_CANCEL';

export type Command =
  | {
      kind: 'place';
      user: number;
      body: Record<string, unknown>;
      stp: Stp;
      /** Index into CLIENT_IDS, or -1 for none; `upper` picks the case of each letter. */
      cid: number;
      upper: number;
      scheduleInMs: number;
      expireInMs: number;
    }
  | { kind: 'cancel'; user: number; pick: number }
  | { kind: 'cancelByClientId'; user: number; cid: number; upper: number }
  | { kind: 'cancelMany'; user: number; cids: number[]; products: boolean }
  | { kind: 'cancelAll'; user: number }
  | { kind: 'tick'; ms: number }
  | { kind: 'restart' }
  | { kind: 'reset' };


export function spell(cid: number, upper: number): string {
  const text = CLIENT_IDS[cid] as string;
  return [...text].map((ch, i) => ((upper >> i) & 1 ? ch.toUpperCase() : ch.toLowerCase())).join('');
}

// ---- a store kept from change sets ---------------------------------------------------------------------------

/** What VenueStore would hold: every row as captured when its change set was taken. */
export class CapturedStore {
  readonly users = new Map<string, UserRow>();
  readonly balances = new Map<string, { userId: string; asset: string; free: bigint; locked: bigint }>();
  readonly orders = new Map<string, OrderRow>();
  readonly trades: TradeRow[] = [];
  readonly candles = new Map<string, CandleRow>();
  readonly meta = new Map<string, string>();

  /** Captures the change set as VenueStore.commit does, before any later command can change its rows. */
  commit(changes: ChangeSet): ChangeSet {
    const captured = structuredClone(changes);
    for (const u of captured.users ?? []) this.users.set(u.id, u);
    for (const b of captured.balances ?? []) this.balances.set(`${b.userId}/${b.asset}`, b);
    for (const o of captured.orders ?? []) this.orders.set(o.orderId, o);
    this.trades.push(...(captured.trades ?? []));
    for (const c of captured.candles ?? []) this.candles.set(`${c.productId}/${c.start}`, c);
    for (const [k, v] of Object.entries(captured.meta ?? {})) this.meta.set(k, v);
    return captured;
  }
}

// ---- a world: an exchange, its clock and ids, its store --------------------------------------------------------

export interface Outcome {
  handed: ChangeSet;
  changes: ChangeSet;
  refused: string | undefined;
}

export interface World {
  exchange: Exchange;
  users: string[];
  store: CapturedStore;
  now(): bigint;
  /**
   * Runs the command: the change set as the exchange handed it over and as captured, and the error code of a
   * refused command.
   */
  run(c: Command): Outcome;
  /** Stops the exchange and starts a new one from the store, as Venue.restore and the server's catch-up do. */
  restart(): Outcome;
  /** Requests the parser refused, which the generator should rarely make. */
  unparsed: number;
}

export function world(): World {
  let clock = 1_700_000_000_000_000_000n;
  let ids = 0;
  const options = {
    now: () => clock,
    newId: () => `00000000-0000-4000-8000-${(++ids).toString().padStart(12, '0')}`,
    maxOpenOrders: 25,
  };
  const store = new CapturedStore();
  let exchange = new Exchange(options);
  /** As Venue.commitChanges does: the change set, then the turn's book change published (which ends it). */
  const take = (): ChangeSet => {
    const handed = exchange.takeChanges();
    for (const market of exchange.markets.values()) market.bookChanged = false;
    return handed;
  };
  exchange.createUser({ isAdmin: false, makerFeeRate: '0', takerFeeRate: '0', id: FEE_ACCOUNT_ID });
  const users = FUNDS.map((funds, i) => {
    // Different rates, so that a maker's and a taker's fee, and a hold's rate, are told apart.
    const created = exchange.createUser({ isAdmin: false, makerFeeRate: i === 1 ? '0.004' : '0.001', takerFeeRate: i === 2 ? '0' : '0.0025' });
    for (const asset of ASSETS) exchange.fund(created.id, asset, funds[asset]);
    return created.id;
  });
  store.commit(take());

  const w: World = {
    get exchange() {
      return exchange;
    },
    users,
    store,
    now: () => clock,
    unparsed: 0,
    run(c) {
      let refused: string | undefined;
      const attempt = (f: () => void): void => {
        try {
          f();
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          refused = err.ref;
        }
      };
      const userId = users[c.kind === 'tick' || c.kind === 'restart' || c.kind === 'reset' ? 0 : c.user] as string;
      switch (c.kind) {
        case 'place': {
          const b: Record<string, unknown> = { product_id: PRODUCT, ...c.body };
          const start = c.scheduleInMs > 0 ? clock + BigInt(c.scheduleInMs) * MS : clock;
          if (c.scheduleInMs > 0) b.scheduled_at = String(start);
          if (b.time_in_force === 'GTT') b.expired_at = String(start + BigInt(c.expireInMs) * MS);
          if (c.cid >= 0) b.client_order_id = spell(c.cid, c.upper);
          // DC is the WebSocket's; its parser makes the same request with this stp.
          const parsed = parseCreateOrder({ ...b, stp: c.stp === 'DECREASE_AND_CANCEL' ? 'CANCEL_TAKER' : c.stp }, { now: clock });
          if (parsed instanceof ApiError) {
            w.unparsed += 1;
            refused = `unparsed ${parsed.ref}`;
            break;
          }
          const request: NewOrderRequest = { ...parsed, stp: c.stp };
          attempt(() => exchange.place(userId, request));
          break;
        }
        case 'cancel': {
          const mine = exchange.activeOrders(userId, {});
          const order = mine[c.pick % Math.max(1, mine.length)];
          if (order !== undefined) attempt(() => exchange.cancel(userId, { orderId: order.row.orderId }));
          break;
        }
        case 'cancelByClientId':
          attempt(() => exchange.cancel(userId, { clientOrderId: spell(c.cid, c.upper) }));
          break;
        case 'cancelMany':
          attempt(() => exchange.cancelMany(userId, { clientOrderIds: c.cids.map((cid) => spell(cid, cid * 7)), ...(c.products ? { productIds: [PRODUCT] } : {}) }));
          break;
        case 'cancelAll':
          attempt(() => exchange.cancelAll(userId, PRODUCT));
          break;
        case 'tick':
          clock += BigInt(c.ms) * MS;
          exchange.tick();
          break;
        case 'restart':
          // The twin that never stops runs the server's catch-up tick too; it finds nothing due.
          exchange.tick();
          break;
        case 'reset':
          exchange.reset();
          break;
      }
      const handed = take();
      return { handed, changes: store.commit(handed), refused };
    },
    restart() {
      exchange = new Exchange(options);
      const copy = <T>(value: T): T => structuredClone(value);
      for (const u of store.users.values()) exchange.addUser(copy(u));
      for (const b of store.balances.values()) exchange.ledger.restore(b.userId, b.asset, b.free, b.locked);
      const starting = store.meta.get(STARTING_BALANCES_KEY);
      if (starting !== undefined) exchange.restoreStartingBalances(starting);
      const open = [...store.orders.values()].filter((o) => o.status !== 'DONE').sort((a, b) => a.seq - b.seq);
      for (const order of open) {
        const trades = store.trades.filter((t) => t.makerOrderId === order.orderId || t.takerOrderId === order.orderId);
        exchange.restoreOrder(copy(order), copy(trades));
      }
      const maxOrderSeq = Math.max(0, ...[...store.orders.values()].map((o) => o.seq));
      exchange.restoreCounters(maxOrderSeq, store.trades.at(-1)?.seq ?? 0);
      for (const market of exchange.markets.values()) market.restoreSequence(store.meta.get(bookSequenceKey(market.id)));
      const traded = store.trades.filter((t) => t.productId === PRODUCT);
      const last = traded.at(-1);
      if (last !== undefined) {
        const candles = [...store.candles.values()].filter((c) => c.productId === PRODUCT).sort((a, b) => (a.start < b.start ? -1 : 1));
        exchange.markets.get(PRODUCT)?.restore(last.price, copy(traded.slice(-1000)), copy(candles));
      }
      exchange.ledger.drainChanged();
      exchange.tick();
      const handed = take();
      return { handed, changes: store.commit(handed), refused: undefined };
    },
  };
  return w;
}

/**
 * A change set as compared with the twin's, its rows by key: a restart puts orders back in seq order, not in the
 * order they arrived, so a command that ends several (a reset, a cancel of all) ends them, and changes their
 * owners and balances, in another order. Trades keep theirs.
 */
export function comparable(changes: ChangeSet): ChangeSet {
  const byKey = <T>(rows: T[] | undefined, key: (row: T) => string): T[] | undefined => rows && [...rows].sort((a, b) => (key(a) < key(b) ? -1 : 1));
  const out: ChangeSet = { ...changes };
  const orders = byKey(changes.orders, (o) => o.orderId);
  const users = byKey(changes.users, (u) => u.id);
  const balances = byKey(changes.balances, (b) => `${b.userId}/${b.asset}`);
  if (orders !== undefined) out.orders = orders;
  if (users !== undefined) out.users = users;
  if (balances !== undefined) out.balances = balances;
  return out;
}
