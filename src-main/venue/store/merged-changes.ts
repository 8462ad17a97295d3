/**
 * Change sets merged by key, and their form in the journal. Every upsert replaces the whole row, so applying
 * the last write of each key gives the rows that applying every set one by one would; trades are inserts and
 * all of them are kept, in commit order.
 */
import type {
  ApiKeyTuple,
  BalanceTuple,
  CandleTuple,
  CapturedChangeSet,
  MetaTuple,
  OrderTuple,
  TradeTuple,
  UserTuple,
} from './change-set';
import { ORDER_DETAIL_COLUMNS } from './rows';

/** One journal record: the merged change sets of one group commit, as JSON. */
export interface JournalEntry {
  /** Format of the tuples; a build refuses entries of a format it does not know. */
  v: typeof JOURNAL_FORMAT | typeof FORMAT_WIDE_ORDERS;
  u: UserTuple[];
  k: ApiKeyTuple[];
  b: BalanceTuple[];
  o: OrderTuple[];
  t: TradeTuple[];
  /** Absent in records written before candles were stored: read as none. */
  c?: CandleTuple[];
  m: MetaTuple[];
}

/** 2 since migration 5: order tuples hold the columns of the compact order row. Format 1 is still read. */
export const JOURNAL_FORMAT = 2;

export class MergedChanges {
  readonly users = new Map<string, UserTuple>();
  readonly apiKeys = new Map<string, ApiKeyTuple>();
  /** By user id, then asset: nested, so that merging builds no key per row. */
  readonly balances = new Map<string, Map<string, BalanceTuple>>();
  private balanceRows = 0;
  readonly orders = new Map<string, OrderTuple>();
  readonly trades = new Map<string, TradeTuple>();
  /** By product and start. */
  readonly candles = new Map<string, CandleTuple>();
  readonly meta = new Map<string, string>();

  /** Rows the tables will receive. */
  get rows(): number {
    return this.users.size + this.apiKeys.size + this.balanceRows + this.orders.size + this.trades.size + this.candles.size + this.meta.size;
  }

  /** Adds one change set after those already added. A trade id seen twice is refused, as its table's key would. */
  addSet(set: CapturedChangeSet): void {
    for (const u of set.users) this.users.set(u[0], u);
    for (const k of set.apiKeys) this.apiKeys.set(k[0], k);
    for (const b of set.balances) {
      let assets = this.balances.get(b[0]);
      if (assets === undefined) this.balances.set(b[0], (assets = new Map<string, BalanceTuple>()));
      const before = assets.size;
      assets.set(b[1], b);
      this.balanceRows += assets.size - before;
    }
    for (const o of set.orders) this.orders.set(o[1], o);
    for (const t of set.trades) {
      if (this.trades.has(t[1])) throw new Error(`could not write trades row ${t[1]}: UNIQUE constraint failed: trades.id`);
      this.trades.set(t[1], t);
    }
    for (const c of set.candles) this.candles.set(`${c[0]} ${String(c[1])}`, c);
    for (const [key, value] of set.meta) this.meta.set(key, value);
  }

  *eachBalance(): IterableIterator<BalanceTuple> {
    for (const assets of this.balances.values()) yield* assets.values();
  }

  /** The journal record: JSON of every tuple, whose bigints it turns into decimal text in place (JSON has none). */
  toJournalText(): string {
    const entry: JournalEntry = {
      v: JOURNAL_FORMAT,
      u: bigintsAsText([...this.users.values()]),
      k: bigintsAsText([...this.apiKeys.values()]),
      b: bigintsAsText([...this.eachBalance()]),
      o: bigintsAsText([...this.orders.values()]),
      t: bigintsAsText([...this.trades.values()]),
      c: bigintsAsText([...this.candles.values()]),
      m: [...this.meta],
    };
    return JSON.stringify(entry);
  }
}

function bigintsAsText<T extends unknown[]>(tuples: T[]): T[] {
  for (const tuple of tuples) {
    for (let i = 0; i < tuple.length; i += 1) {
      const value = tuple[i];
      if (typeof value === 'bigint') tuple[i] = value.toString();
    }
  }
  return tuples;
}

const TUPLE_LENGTHS = { u: 10, k: 9, b: 4, o: 9, t: 13, c: 7, m: 2 } as const;

/** Format 1: an order tuple held every column of the order table before migration 5, in this order. */
const FORMAT_WIDE_ORDERS = 1;
const WIDE_ORDER_COLUMNS = [
  'seq', 'order_id', 'user_id', 'client_order_id', 'product_id', 'side', 'type', 'time_in_force', 'post_only',
  'stp', 'stop_type', 'limit_price', 'base_size', 'quote_size', 'exact_quote_size', 'stop_trigger_price',
  'status', 'done_reason', 'reject_reason', 'filled_base_size', 'filled_quote_size', 'fee_total',
  'maker_fee_rate', 'taker_fee_rate', 'resting_lots', 'hold_asset', 'hold_remaining', 'created_at', 'updated_at',
  'cancel_requested_at', 'expired_at', 'scheduled_at', 'twap_state',
] as const;
const wideIndex = (column: (typeof WIDE_ORDER_COLUMNS)[number]): number => WIDE_ORDER_COLUMNS.indexOf(column);
const WIDE_DETAIL_INDEXES = ORDER_DETAIL_COLUMNS.map((c) => wideIndex(c));

/** A format 1 order tuple as this build's: the same values, the details gathered as captureOrder writes them. */
function compactOrder(wide: unknown[]): OrderTuple {
  const at = (column: (typeof WIDE_ORDER_COLUMNS)[number]): unknown => wide[wideIndex(column)];
  // Format 1 already wrote int64 values as decimal text, as the details array holds them.
  const details = WIDE_DETAIL_INDEXES.map((i) => wide[i]);
  return [
    at('seq'), at('order_id'), at('user_id'), at('client_order_id'), at('product_id'), at('status'),
    at('created_at'), at('updated_at'), JSON.stringify(details),
  ] as OrderTuple;
}

/**
 * Reads one journal record back as a change set. Only the shape is checked: the values were checked when the
 * row was written, and the tables check them again when they are applied.
 */
export function parseJournalEntry(seq: number, json: string): CapturedChangeSet {
  const fail = (why: string): never => {
    throw new Error(`journal record ${seq} is unreadable: ${why}`);
  };
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
  if (typeof entry !== 'object' || entry === null) return fail('not an object');
  const fields = entry as Record<string, unknown>;
  const wideOrders = fields.v === FORMAT_WIDE_ORDERS;
  if (fields.v !== JOURNAL_FORMAT && !wideOrders) return fail(`format ${String(fields.v)}, this build reads formats ${FORMAT_WIDE_ORDERS} and ${JOURNAL_FORMAT}`);
  const tuples = (name: keyof typeof TUPLE_LENGTHS): unknown[] => {
    const list = name === 'c' ? (fields.c ?? []) : fields[name];
    if (!Array.isArray(list)) return fail(`${name} is not a list`);
    const length = name === 'o' && wideOrders ? WIDE_ORDER_COLUMNS.length : TUPLE_LENGTHS[name];
    for (const tuple of list) {
      if (!Array.isArray(tuple) || tuple.length !== length) fail(`${name} holds a row of the wrong shape`);
    }
    return list;
  };
  const orders = tuples('o') as unknown[][];
  return {
    users: tuples('u') as UserTuple[],
    apiKeys: tuples('k') as ApiKeyTuple[],
    balances: tuples('b') as BalanceTuple[],
    orders: wideOrders ? orders.map(compactOrder) : (orders as OrderTuple[]),
    trades: tuples('t') as TradeTuple[],
    candles: tuples('c') as CandleTuple[],
    meta: tuples('m') as MetaTuple[],
  };
}
