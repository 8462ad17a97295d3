// Property tests of the exchange against a model kept from its own change sets, the way VenueStore keeps them:
// every self-trade prevention mode (DC included) with every kind of order, client order ids reused across users
// and cases, cancels by id, by client order id and in bulk, the simulator's reset, the clock, and restarts that
// rebuild the exchange from what was captured. A twin that never restarts runs the same commands: both must
// hand over the same change sets, command for command.
//
// `FUZZ_RUNS=2000 npx vitest run test/unit/exchange/exchange-model.property.test.ts` is the long form.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costWithFee, feeOf, holdRatePpm } from '../../../src-shared/protocol/fees';
import { FEE_ACCOUNT_ID } from '../../../src-main/venue/exchange/exchange';
import type { LiveOrder } from '../../../src-main/venue/exchange/live-order';
import type { ChangeSet, OrderRow } from '../../../src-main/venue/store';
import { fuzzRuns, fuzzTimeout } from '../../reliability/hostile-values';
import { ASSETS, CLIENT_IDS, FUNDS, PRODUCT, USERS, comparable, spell, world, type Command, type Outcome, type Stp, type World } from './model-world';

const RUNS = fuzzRuns(30);
// Up to five batches of RUNS (see the test), each run a stream of up to 150 commands on two exchanges. On a busy
// machine (two cores, three test processes) a batch took 14 to 26 s, 0.5 to 0.9 s a run: at 400 ms a run the
// limit was 60 s, which two slow batches nearly reach and three pass (a batch may miss a rare path: CANCEL_MAKER
// ran once in one of twelve).
const TIMEOUT = fuzzTimeout(5 * RUNS, 2000);
const user = fc.integer({ min: 0, max: USERS - 1 });
const stp = fc.constantFrom<Stp>('CANCEL_TAKER', 'CANCEL_MAKER', 'CANCEL_BOTH', 'DECREASE_AND_CANCEL');
// BTC-VND around 2.5e9 in 10000 VND ticks; lots of 0.0001 BTC.
const price = fc.integer({ min: 249_997, max: 250_003 }).map((t) => String(t * 10000));
const size = fc.integer({ min: 1, max: 200 }).map((l) => (l / 10000).toFixed(4));
const side = fc.constantFrom('BUY', 'SELL');
const quote = fc.integer({ min: 100_000, max: 60_000_000 }).map(String);

const body: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({ type: fc.constant('LIMIT'), side, limit_price: price, base_size: size, time_in_force: fc.constantFrom('GTC', 'GTC', 'IOC', 'FOK', 'GTT'), post_only: fc.boolean() })
      // post_only is refused with IOC and FOK.
      .map((b) => ({ ...b, post_only: b.post_only && (b.time_in_force === 'GTC' || b.time_in_force === 'GTT') })),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('MARKET'), side, base_size: size }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('MARKET'), side, quote_size: quote }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('LIMIT'), side, base_size: size, exact_quote_size: fc.integer({ min: 1_000_000, max: 60_000_000 }).map(String) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('STOP'),
      side,
      order_stop_type: fc.constantFrom('STOP_LOSS', 'TAKE_PROFIT'),
      stop_trigger_price: price,
      limit_price: fc.oneof(fc.constant('0'), price),
      base_size: size,
      // A GTT stop expires whether or not it has triggered; a stop-market one is IOC.
      time_in_force: fc.constantFrom('GTC', 'GTT'),
    }).map((b) => (b.limit_price === '0' ? { ...b, time_in_force: 'IOC' } : b)),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('TWAP'), side, limit_price: fc.oneof(fc.constant('0'), price), base_size: size, time_in_force: fc.constant('GTT') }) },
);

const later = fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2500 }) });

const place: fc.Arbitrary<Command> = fc
  .record({ user, body, stp, cid: fc.integer({ min: -1, max: CLIENT_IDS.length - 1 }), upper: fc.nat(31), scheduleInMs: later, expireInMs: fc.integer({ min: 1, max: 4000 }) })
  .map((c) => ({ kind: 'place' as const, ...c }));

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 30, arbitrary: place },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), user, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancelByClientId' as const), user, cid: fc.nat(CLIENT_IDS.length - 1), upper: fc.nat(31) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('cancelMany' as const), user, cids: fc.array(fc.nat(CLIENT_IDS.length - 1), { maxLength: 2 }), products: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), user }) },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 100, max: 1500 })) }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'restart' as const }) },
  { weight: 1, arbitrary: fc.constant<Command>({ kind: 'reset' }) },
);

/** The client order id `CLIENT_IDS[cid]` with the letters that `upper`'s bits pick in upper case. */
// ---- the invariants ------------------------------------------------------------------------------------------

/** What the checks saw over all runs: the bounds at the end fail if a path stops being exercised. */
interface Seen {
  trades: number;
  selfTrades: Record<Stp, number>;
  duplicateRefused: number;
  cancelledByClientId: number;
  sharedAcrossUsers: number;
  restarts: number;
  restartsWithOrders: number;
  exactFilled: number;
  quoteMarketFilled: number;
  twapTrades: number;
  stopsTriggered: number;
  resets: number;
  placed: number;
  unparsed: number;
}

const lotsOf = (text: string): number => Math.round(Number(text) * 10000);

class Model {
  /** The first base size each order was placed with (DC may lower base_size later). */
  readonly firstLots = new Map<string, number>();
  /** Done rows as first handed over, and a copy of how they were then. */
  readonly done = new Map<string, { handed: OrderRow; then: OrderRow }>();
  readonly rows = new Map<string, OrderRow>();
  /** Uncapped TWAP buys that have started, and whether their first slice was held (see accepted). */
  readonly firstSliceHeld = new Map<string, boolean>();

  constructor(private readonly seen: Seen) {}

  /** What one change set says, checked as it arrives. */
  take(handed: ChangeSet, captured: ChangeSet): void {
    for (const [i, row] of (captured.orders ?? []).entries()) {
      expect(this.done.has(row.orderId), `done order ${row.orderId} changed again`).toBe(false);
      if (!this.firstLots.has(row.orderId)) this.firstLots.set(row.orderId, lotsOf(row.baseSize));
      this.rows.set(row.orderId, row);
      if (holdsPerSlice(row) && row.twapState !== '' && !this.firstSliceHeld.has(row.orderId)) {
        // The first slice runs in the command that starts the TWAP: an end for the balance then is that slice's.
        this.firstSliceHeld.set(row.orderId, !(row.status === 'DONE' && row.rejectReason === 'E0201_InsufficientBalance'));
      }
      if (row.status === 'DONE') {
        this.done.set(row.orderId, { handed: handed.orders?.[i] ?? row, then: structuredClone(row) });
        if (row.rejectReason === 'E0204_SelfTradePrevented') this.seen.selfTrades[row.stp as Stp] += 1;
        if (row.exactQuoteSize !== '0' && row.doneReason === 'FILLED') this.seen.exactFilled += 1;
        if (row.type === 'MARKET' && row.quoteSize !== '0' && row.filledBaseSize !== '0') this.seen.quoteMarketFilled += 1;
        if (row.type === 'STOP' && row.filledBaseSize !== '0') this.seen.stopsTriggered += 1;
      }
    }
    for (const trade of captured.trades ?? []) {
      this.seen.trades += 1;
      if (this.rows.get(trade.takerOrderId)?.type === 'TWAP') this.seen.twapTrades += 1;
    }
  }
}

/**
 * After every command:
 * - every asset's total over all accounts (fee account included) is what was funded; no balance is negative;
 * - each account's locked balance is the holds of its live orders; the fee account locks nothing;
 * - the book is not crossed, and holds exactly the resting part of the live ACTIVE orders, at their limits;
 * - the store (the change sets captured) has every live order as it is, its hold included, and nothing live
 *   that the exchange has done;
 * - a done order never comes again in a change set, and the row it was handed over in never changes again;
 * - filled never exceeds the size ordered, nor base_size as DC lowered it; a buy never spends more than its
 *   hold reserved; fees are at most the rate on the notional (an exact quote's leftover aside), and an exact-
 *   quote order that filled moved its trader's quote by exactly its amount;
 * - each account's counters (total, accepted, done, open, pending) agree with its orders;
 * - a client order id names at most one live order of a user, case-insensitively, and finds it in any case.
 */
function check(w: World, model: Model): void {
  const { exchange, store } = w;
  const market = exchange.markets.get(PRODUCT);
  if (market === undefined) throw new Error('no market');

  for (const asset of ASSETS) {
    const funded = FUNDS.reduce((sum, f) => sum + f[asset], 0n);
    expect(exchange.ledger.total(asset), `${asset} total`).toBe(funded);
    expect(exchange.ledger.balance(FEE_ACCOUNT_ID, asset).locked, `fee account locks ${asset}`).toBe(0n);
  }
  for (const account of exchange.ledger.accountIds()) {
    for (const [asset, balance] of exchange.ledger.balances(account)) {
      expect(balance.free >= 0n && balance.locked >= 0n, `${asset} of ${account} negative`).toBe(true);
    }
  }

  for (const { handed, then } of model.done.values()) expect(handed, `done order ${then.orderId} changed after it was handed over`).toEqual(then);

  const live = new Map<string, LiveOrder>();
  for (const userId of w.users) for (const order of exchange.activeOrders(userId, {})) live.set(order.row.orderId, order);
  const storedLive = [...store.orders.values()].filter((o) => o.status !== 'DONE');
  expect(storedLive.map((o) => o.orderId).sort(), 'live orders: the store against the exchange').toEqual([...live.keys()].sort());
  for (const order of live.values()) {
    const stored = store.orders.get(order.row.orderId);
    expect(stored, `order ${order.row.orderId} as stored`).toEqual({ ...order.row, holdRemaining: order.hold });
  }

  // The book: exactly the resting part of the live ACTIVE orders (a TWAP works by IOC slices and never rests).
  const resting = [...live.values()]
    .filter((o) => o.row.status === 'ACTIVE' && o.twap === undefined)
    .map((o) => ({ seq: o.row.seq, owner: o.owner, side: o.side, limitTicks: o.limitTicks, lots: o.row.restingLots }))
    .sort((a, b) => a.seq - b.seq);
  expect([...market.book.orders()].sort((a, b) => a.seq - b.seq), 'book against the live ACTIVE orders').toEqual(resting);
  const bid = market.book.bestBid();
  const ask = market.book.bestAsk();
  if (bid !== undefined && ask !== undefined) expect(bid, 'crossed book').toBeLessThan(ask);
  const waitingStops = [...live.values()].filter((o) => market.stops.has(o.row.seq));
  expect(market.stops.size, 'stop book entries without a live stop').toBe(waitingStops.length);
  for (const o of waitingStops) expect(o.row.type, `stop book holds ${o.row.orderId}`).toBe('STOP');

  for (const [index, userId] of w.users.entries()) {
    const mine = [...live.values()].filter((o) => o.row.userId === userId);
    for (const asset of ASSETS) {
      const held = mine.filter((o) => o.row.holdAsset === asset).reduce((sum, o) => sum + o.hold, 0n);
      expect(exchange.ledger.balance(userId, asset).locked, `${asset} locked of user ${index}`).toBe(held);
    }

    const counts = exchange.orderCounts(userId);
    expect(counts.open, `open orders of user ${index}`).toBe(mine.filter((o) => o.row.status === 'ACTIVE').length);
    expect(counts.pending, `pending orders of user ${index}`).toBe(mine.filter((o) => o.row.status !== 'ACTIVE').length);
    const rows = [...store.orders.values()].filter((o) => o.userId === userId);
    const row = exchange.user(userId);
    expect(row?.totalOrders, `total orders of user ${index}`).toBe(BigInt(rows.length));
    expect(row?.totalDoneOrders, `done orders of user ${index}`).toBe(BigInt(rows.filter((o) => o.status === 'DONE').length));
    expect(row?.totalAcceptedOrders, `accepted orders of user ${index}`).toBe(BigInt(rows.filter((o) => accepted(o, model)).length));
    expect(store.users.get(userId), `user ${index} as stored`).toEqual(row);

    const byClientId = new Map<string, string>();
    for (const o of mine) {
      if (o.row.clientOrderId === '') continue;
      const key = o.row.clientOrderId.toLowerCase();
      expect(byClientId.get(key), `client order id ${key} on two live orders of user ${index}`).toBeUndefined();
      byClientId.set(key, o.row.orderId);
      expect(exchange.activeOrders(userId, { clientOrderId: o.row.clientOrderId.toUpperCase() }).map((x) => x.row.orderId)).toEqual([o.row.orderId]);
      expect(exchange.findLive(userId, { clientOrderId: key })?.row.orderId).toBe(o.row.orderId);
    }
    for (const cid of CLIENT_IDS) {
      const found = exchange.findLive(userId, { clientOrderId: cid });
      expect(found?.row.orderId, `client order id ${cid} of user ${index}`).toBe(byClientId.get(cid.toLowerCase()));
    }
  }

  for (const row of store.orders.values()) checkAmounts(row, model.firstLots.get(row.orderId) ?? 0);
}

/** An uncapped TWAP buy, which holds slice by slice. */
const holdsPerSlice = (row: OrderRow): boolean => row.type === 'TWAP' && row.side === 'BUY' && row.limitPrice === '0';

/**
 * An order took its hold: at placement, or (a market order priced by the book it meets) when it started, or (an
 * uncapped TWAP buy) with its first slice.
 */
function accepted(row: OrderRow, model: Model): boolean {
  if (holdsPerSlice(row)) return model.firstSliceHeld.get(row.orderId) === true;
  if (row.status === 'DONE' && row.doneReason === 'REJECTED' && row.rejectReason === 'E0201_InsufficientBalance') return false;
  const lots = lotsOf(row.baseSize);
  const holdsAtStart = row.type === 'MARKET' && row.exactQuoteSize === '0' && (row.side === 'BUY') === lots > 0 && row.scheduledAt !== null && row.scheduledAt > row.createdAt;
  if (!holdsAtStart) return true;
  if (row.status !== 'DONE') return false;
  return row.cancelRequestedAt === null && row.rejectReason !== 'E0201_InsufficientBalance';
}

const PPM = (rate: string): number => Math.round(Number(rate) * 1_000_000);
/** VND has no decimals: a quote amount is whole atoms. */
const vnd = (text: string): bigint => BigInt(text);
/** Quote atoms of `lots` at `priceText` (VND per BTC; a lot is 0.0001 BTC). */
const notional = (priceText: string, lots: number): bigint => (BigInt(priceText) * BigInt(lots)) / 10_000n;

function checkAmounts(row: OrderRow, ordered: number): void {
  const filledLots = lotsOf(row.filledBaseSize);
  const filled = vnd(row.filledQuoteSize);
  const fees = vnd(row.feeTotal);
  if (ordered > 0) {
    expect(filledLots, `filled of ${row.orderId} vs ordered`).toBeLessThanOrEqual(ordered);
    expect(filledLots, `filled of ${row.orderId} vs base_size`).toBeLessThanOrEqual(lotsOf(row.baseSize));
  }
  const rates = { makerRatePpm: PPM(row.makerFeeRate), takerRatePpm: PPM(row.takerFeeRate) };
  const exact = row.exactQuoteSize !== '0';
  if (exact && row.status === 'DONE' && row.doneReason === 'FILLED') {
    // The trader's quote moves by exactly the amount: what fills and fees left goes to the fee account.
    const moved = row.side === 'BUY' ? filled + fees : filled - fees;
    expect(moved, `exact quote ${row.orderId}`).toBe(vnd(row.exactQuoteSize));
  } else if (exact) {
    expect(filledLots, `unfilled exact quote ${row.orderId} traded`).toBe(0);
  } else {
    expect(fees, `fees of ${row.orderId} beyond its rate`).toBeLessThanOrEqual(feeOf(filled, holdRatePpm(rates)));
  }
  if (row.side !== 'BUY') return;
  // What a buy may spend: its hold, as reserved at acceptance.
  let reserved: bigint | undefined;
  if (row.exactQuoteSize !== '0') reserved = vnd(row.exactQuoteSize);
  else if (row.type === 'MARKET' && row.quoteSize !== '0') reserved = vnd(row.quoteSize);
  else if (row.limitPrice !== '0') reserved = costWithFee(notional(row.limitPrice, ordered), holdRatePpm(rates));
  if (reserved !== undefined) expect(filled + fees, `buy ${row.orderId} spent beyond its hold`).toBeLessThanOrEqual(reserved);
}

// ---- the property --------------------------------------------------------------------------------------------

function emptySeen(): Seen {
  return {
    trades: 0,
    selfTrades: { CANCEL_TAKER: 0, CANCEL_MAKER: 0, CANCEL_BOTH: 0, DECREASE_AND_CANCEL: 0 },
    duplicateRefused: 0,
    cancelledByClientId: 0,
    sharedAcrossUsers: 0,
    restarts: 0,
    restartsWithOrders: 0,
    exactFilled: 0,
    quoteMarketFilled: 0,
    twapTrades: 0,
    stopsTriggered: 0,
    resets: 0,
    placed: 0,
    unparsed: 0,
  };
}

/** Every stream ends with 6 s of 200 ms steps, so what it left scheduled, slicing or expiring comes due. */
const DRAIN: readonly Command[] = Array.from({ length: 30 }, () => ({ kind: 'tick' as const, ms: 200 }));

function runStream(commands: readonly Command[], seen: Seen): void {
  const restarted = world();
  const twin = world();
  const model = new Model(seen);
  for (const [i, c] of [...commands, ...DRAIN].entries()) {
    const before = c.kind === 'place' && c.cid >= 0 ? restarted.exchange.findLive(restarted.users[c.user] as string, { clientOrderId: spell(c.cid, c.upper) }) : undefined;
    const ordersBefore = restarted.exchange.lastSeq;
    let result: Outcome;
    if (c.kind === 'restart') {
      seen.restarts += 1;
      if ([...restarted.store.orders.values()].some((o) => o.status !== 'DONE')) seen.restartsWithOrders += 1;
      result = restarted.restart();
    } else {
      if (c.kind === 'reset') seen.resets += 1;
      result = restarted.run(c);
    }
    const twinResult = twin.run(c);
    const label = `command ${i}: ${JSON.stringify(c)}`;
    expect(comparable(result.changes), `${label}: changes against the twin that never restarted`).toEqual(comparable(twinResult.changes));
    expect(result.refused, `${label}: refusal against the twin`).toBe(twinResult.refused);
    model.take(result.handed, result.changes);

    if (c.kind === 'place' && c.cid >= 0 && result.refused?.startsWith('unparsed') !== true) {
      const userId = restarted.users[c.user] as string;
      if (before !== undefined) {
        // An id a live order of the caller has, in any case: refused, nothing made.
        expect(result.refused, `${label}: a client order id already live`).toBe('E0303_DuplicateClientOrderId');
        expect(restarted.exchange.lastSeq).toBe(ordersBefore);
        seen.duplicateRefused += 1;
      } else if (result.refused === undefined) {
        const others = restarted.users.filter((u) => u !== userId).some((u) => [...restarted.store.orders.values()].some((o) => o.userId === u && o.status !== 'DONE' && o.clientOrderId.toLowerCase() === CLIENT_IDS[c.cid]?.toLowerCase()));
        if (others) seen.sharedAcrossUsers += 1;
      }
    }
    if (c.kind === 'cancelByClientId' && result.refused === undefined) seen.cancelledByClientId += 1;
    check(restarted, model);
  }
  seen.placed += commands.filter((c) => c.kind === 'place').length;
  seen.unparsed += twin.unparsed;
}

/** The paths the streams have not yet run enough; the bounds sit well below what thirty runs give. */
function unexercised(seen: ReturnType<typeof emptySeen>): string[] {
  const paths: [string, boolean][] = [
    ['trades', seen.trades > 100],
    ...(Object.keys(seen.selfTrades) as Stp[]).map((mode): [string, boolean] => [`self-trade prevention ${mode}`, seen.selfTrades[mode] > 0]),
    ['duplicate client order ids refused', seen.duplicateRefused > 5],
    ['cancels by client order id', seen.cancelledByClientId > 5],
    ['client order ids shared across users', seen.sharedAcrossUsers > 5],
    ['restarts with live orders', seen.restartsWithOrders > 10],
    ['exact quote fills', seen.exactFilled > 0],
    ['market orders by quote filled', seen.quoteMarketFilled > 0],
    ['TWAP trades', seen.twapTrades > 0],
    ['stops triggered', seen.stopsTriggered > 0],
    // The generator's orders are nearly all ones the parser takes.
    ['orders the parser takes', seen.unparsed < seen.placed / 5],
  ];
  return paths.filter(([, ok]) => !ok).map(([path]) => path);
}

describe('the exchange against the store it feeds, and against a twin that never restarts', () => {
  it(
    'keeps every invariant over every stp mode and kind of order, client order ids, cancels, resets and restarts',
    () => {
      const seen = emptySeen();
      // Each path must really run, or its checks prove nothing. Thirty runs give about 130 trades, 5 to 25 of each
      // stp outcome, 200 duplicate ids refused, 15 cancels by client order id and 120 restarts with live orders,
      // and a rare path (one stp outcome, a triggered stop) may still miss a batch of random streams: rather than
      // fail on chance, batches go on, up to five, until every path has run.
      for (let batch = 0; batch < 5 && (batch === 0 || unexercised(seen).length > 0); batch++) {
        fc.assert(
          fc.property(fc.array(command, { minLength: 20, maxLength: 120, size: 'max' }), (commands) => runStream(commands, seen)),
          { numRuns: RUNS },
        );
      }
      expect(unexercised(seen)).toEqual([]);
    },
    TIMEOUT,
  );
});
