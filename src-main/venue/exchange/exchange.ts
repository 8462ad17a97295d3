/**
 * The simulated exchange: accounts, the order lifecycle, holds and settlement around the matching engine.
 *
 * It is single-threaded and synchronous: a command (place, cancel, tick) runs to completion, changing books,
 * balances and orders, and leaves what changed in a pending change set that the caller commits to the store
 * before answering (an order is acknowledged only after what the answer says is durable). Time and ids are
 * injected, so the same commands replayed give the same state.
 */
import { apiError, type ApiError } from '../../../src-shared/errors/api-error';
import { formatAtoms, formatRate, isReason, parseRate } from '../../../src-shared/protocol/decimal';
import { PRODUCTS, findAsset } from '../../../src-shared/protocol/products';
import { productRules } from '../../../src-shared/protocol/product-rules';
import type { NewOrderRequest } from '../../../src-shared/protocol/orders';
import type { Estimate, Fill, MatchResult, SelfTradePrevention, Side } from '../engine';
import { buyHold, costWithFee, exactQuoteLimitTicks, feeOf, holdRatePpm, notionalReaching, notionalWithin } from '../../../src-shared/protocol/fees';
import { Ledger } from '../ledger/ledger';
import { ExpiryQueue } from './expiry-queue';
import type { ChangeSet, DoneReason, OrderRow, TradeRow, UserRow } from '../store';
import type { LiveOrder } from './live-order';
import { Market, bookSequenceKey } from './market';

/** The venue's own account, which fees are paid into so every asset's total is conserved. */
export const FEE_ACCOUNT_ID = '00000000-0000-0000-0000-000000000000';

/** The most of one asset all accounts together may hold: a balance column is a 64-bit integer of atoms. */
export const MAX_ASSET_ATOMS = 2n ** 63n - 1n;

/** Meta key of every account's starting funds, which /sim/reset restores. */
export const STARTING_BALANCES_KEY = 'starting-balances';

/** TWAP slices about once a second (see planTwap). */
const TWAP_INTERVAL_NS = 1_000_000_000n;

export interface ExchangeOptions {
  now(): bigint;
  newId(): string;
  maxOpenOrders: number;
}

export interface OrderEvent {
  /** The order as it is after the change. */
  readonly row: OrderRow;
  readonly trades: readonly TradeRow[];
}

type Listener = (event: OrderEvent) => void;

interface UserState {
  row: UserRow;
  makerPpm: number;
  takerPpm: number;
  openOrders: number;
  pendingOrders: number;
  /**
   * The user's working orders by lowercased client order id (unique among them, case-insensitively). Per user
   * rather than one map keyed by user and id: the joined key was a new string to build and flatten twice an order.
   */
  byClientId: Map<string, LiveOrder>;
}

export interface CancelTarget {
  orderId?: string;
  clientOrderId?: string;
}

export interface BulkCancelResult {
  cancelRequested: { id: string; clientOrderId: string }[];
  notOpened: { id: string; clientOrderId: string }[];
  alreadyCancelRequested: { id: string; clientOrderId: string }[];
}

/** What the exchange needs from the store to answer about orders it no longer works on. */
export interface OrderArchive {
  orderById(userId: string, orderId: string): OrderRow | undefined;
  newestOrderByClientId(userId: string, clientOrderId: string): OrderRow | undefined;
  doneOrderByClientId(userId: string, clientOrderId: string, seenThrough: number): OrderRow | undefined;
}

export class Exchange {
  readonly ledger = new Ledger();
  readonly markets = new Map<string, Market>();
  private readonly users = new Map<string, UserState>();
  private readonly bySeq = new Map<number, LiveOrder>();
  private readonly byId = new Map<string, LiveOrder>();
  /**
   * Orders waiting on the clock to start (scheduled) or for their next TWAP slice, which every tick walks. Those
   * waiting to expire are in `expiries` (expireOnTime), which a sweep looks into only as far as what is due: a GTT
   * order resting for hours costs the clock nothing until its time.
   */
  private readonly timed = new Set<LiveOrder>();
  private readonly expiries = new ExpiryQueue<LiveOrder>();
  /** Orders were restored and the clock has not ticked since: what fell due while down is the catch-up's (expireDue). */
  private catchingUp = false;
  private seq = 0;
  private tradeSeq = 0;
  private nextUserNumber = 1;
  private readonly changedOrders = new Set<LiveOrder>();
  private readonly doneRows: OrderRow[] = [];
  private readonly newTrades: TradeRow[] = [];
  private readonly changedUsers = new Set<UserState>();
  private readonly listeners = new Set<Listener>();
  private readonly starting = new Map<string, Map<string, bigint>>();
  private startingChanged = false;

  constructor(private readonly options: ExchangeOptions) {
    for (const spec of PRODUCTS) {
      const rules = productRules(spec.id);
      if (rules === undefined) throw new Error(`no rules for ${spec.id}`);
      this.markets.set(spec.id, new Market(rules));
    }
  }

  // ---- accounts -------------------------------------------------------------------------------------------

  addUser(row: UserRow): void {
    const maker = parseRate(row.makerFeeRate);
    const taker = parseRate(row.takerFeeRate);
    if (isReason(maker) || isReason(taker)) throw new Error(`user ${row.id} has an unreadable fee rate`);
    const state: UserState = { row, makerPpm: maker, takerPpm: taker, openOrders: 0, pendingOrders: 0, byClientId: new Map() };
    this.users.set(row.id, state);
    this.nextUserNumber = Math.max(this.nextUserNumber, row.number + 1);
  }

  /** A new account, persisted with the next change set. */
  createUser(spec: { isAdmin: boolean; makerFeeRate: string; takerFeeRate: string; id?: string }): UserRow {
    const { isAdmin, makerFeeRate, takerFeeRate } = spec;
    const row: UserRow = {
      id: spec.id ?? this.options.newId(),
      number: this.nextUserNumber,
      isAdmin,
      makerFeeRate: formatRate(this.mustRate(makerFeeRate)),
      takerFeeRate: formatRate(this.mustRate(takerFeeRate)),
      createdAt: this.options.now(),
      totalOrders: 0n,
      totalDoneOrders: 0n,
      totalAcceptedOrders: 0n,
      tradingVolume: 0n,
    };
    this.addUser(row);
    this.changedUsers.add(this.mustUser(row.id));
    return row;
  }

  user(userId: string): UserRow | undefined {
    return this.users.get(userId)?.row;
  }

  orderCounts(userId: string): { open: number; pending: number } {
    const state = this.mustUser(userId);
    return { open: state.openOrders, pending: state.pendingOrders };
  }

  /**
   * New value entering the venue (the faucet, a new account's funds). Refused with E0110 when the asset's total
   * across all accounts would pass MAX_ASSET_ATOMS: every balance is stored as a 64-bit integer and trades only
   * move value, so capping the total is what keeps every later balance storable. (Unchecked, an absurd faucet
   * amount changed memory and then failed the commit of its whole turn, other traders' orders with it.)
   */
  deposit(userId: string, asset: string, atoms: bigint): void {
    this.mustUser(userId);
    this.checkDeposit(asset, atoms);
    this.ledger.deposit(userId, asset, atoms);
  }

  /**
   * Throws the E0110 that deposit() would, so a caller making several can refuse before changing anything.
   * `field` names the amount as the request spelled it.
   */
  checkDeposit(asset: string, atoms: bigint, field = 'amount'): void {
    if (this.ledger.total(asset) + atoms <= MAX_ASSET_ATOMS) return;
    const most = formatAtoms(MAX_ASSET_ATOMS, findAsset(asset)?.decimals ?? 0);
    throw apiError('E0110_ValueOutOfRange', `${field}: all accounts together can hold at most ${most} ${asset}, and this deposit would pass it`);
  }

  /** A new account's first funds: deposited, and remembered as what a reset returns the account to. */
  fund(userId: string, asset: string, atoms: bigint): void {
    this.deposit(userId, asset, atoms);
    const assets = this.starting.get(userId) ?? new Map<string, bigint>();
    assets.set(asset, (assets.get(asset) ?? 0n) + atoms);
    this.starting.set(userId, assets);
    this.startingChanged = true;
  }

  /** Every account's starting funds as persisted (meta STARTING_BALANCES_KEY). */
  restoreStartingBalances(json: string): void {
    const parsed = JSON.parse(json) as Record<string, Record<string, string>>;
    for (const [userId, assets] of Object.entries(parsed)) {
      this.starting.set(userId, new Map(Object.entries(assets).map(([asset, atoms]) => [asset, BigInt(atoms)])));
    }
  }

  /** The simulator's reset: every order cancelled, every account back to its starting funds, fees to zero. */
  reset(): void {
    for (const order of [...this.byId.values()]) this.cancelLive(order);
    for (const account of [...this.ledger.accountIds()]) {
      for (const asset of [...this.ledger.balances(account).keys()]) {
        this.ledger.reset(account, asset, this.starting.get(account)?.get(asset) ?? 0n);
      }
    }
  }

  // ---- recovery -------------------------------------------------------------------------------------------

  /** Put back an order that was live when the venue stopped, exactly as persisted (rows come in seq order). */
  restoreOrder(row: OrderRow, trades: TradeRow[]): void {
    const market = this.markets.get(row.productId);
    if (market === undefined) throw new Error(`order ${row.orderId} names unknown product ${row.productId}`);
    const order = this.liveFromRow(row, market, trades);
    this.track(order);
    this.catchingUp = true;
    const user = this.mustUser(row.userId);
    if (row.status === 'ACTIVE') {
      if (order.twap === undefined && row.restingLots > 0) {
        market.book.submit({
          seq: row.seq,
          owner: order.owner,
          side: order.side,
          limitTicks: order.limitTicks,
          lots: row.restingLots,
          quoteBudget: Number.POSITIVE_INFINITY,
          tif: order.tif === 'GTT' ? 'GTT' : 'GTC',
          postOnly: false,
          stp: order.stp,
        });
      }
      user.openOrders += 1;
    } else {
      user.pendingOrders += 1;
      // A stop without scheduled_at waited in the stop book from its acceptance; one with it is started again by
      // the clock (it checks the trigger against the last trade then), whether or not it had started before.
      if (row.status === 'SCHEDULED' && row.type === 'STOP' && row.scheduledAt === null) {
        market.stops.add(row.seq, order.side, row.stopType === 'TAKE_PROFIT' ? 'TAKE_PROFIT' : 'STOP_LOSS', order.stopTriggerTicks);
      }
    }
    this.seq = Math.max(this.seq, row.seq);
  }

  restoreCounters(maxOrderSeq: number, lastTradeSeq: number): void {
    this.seq = Math.max(this.seq, maxOrderSeq);
    this.tradeSeq = Math.max(this.tradeSeq, lastTradeSeq);
  }

  // ---- orders ---------------------------------------------------------------------------------------------

  onOrderEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Accept an order. Input errors that the request alone decides (and a client order id already open, a stop
   * already triggered, the open-order limit) throw an ApiError and change nothing. Everything else is decided
   * by the engine and shows in the returned row: ACTIVE, SCHEDULED or DONE with its reason. Orders whose
   * expired_at has passed since the clock last ticked are the caller's to end first (expireDue), as the venue does
   * for every command.
   * Returns the row as submitted (status SUBMITTED) and the row after processing.
   */
  place(userId: string, given: NewOrderRequest): { submitted: OrderRow; processed: LiveOrder } {
    const user = this.mustUser(userId);
    const market = this.markets.get(given.productId);
    if (market === undefined) throw apiError('E0104_InvalidSymbol', `unknown product ${given.productId}`);
    const now = this.options.now();
    const request = given.type === 'STOP' && given.stopType === 'STOP_NONE' ? { ...given, stopType: stopTypeFromLastTrade(market, given) } : given;
    if (request.clientOrderId !== '' && user.byClientId.has(request.clientOrderId.toLowerCase())) {
      throw apiError('E0303_DuplicateClientOrderId', `client_order_id ${request.clientOrderId} is already used by an open order`);
    }
    if (user.openOrders + user.pendingOrders >= this.options.maxOpenOrders) {
      throw apiError('E0210_OrderLimitExceeded', `at most ${this.options.maxOpenOrders} open orders per account`);
    }
    if (request.type === 'STOP' && market.book.lastTradeTicks !== undefined) {
      const stopType = request.stopType === 'TAKE_PROFIT' ? 'TAKE_PROFIT' : 'STOP_LOSS';
      if (market.stops.wouldTriggerNow(request.side, stopType, request.stopTriggerTicks, market.book.lastTradeTicks)) {
        throw apiError(
          'E0213_InvalidStopPrice',
          `stop_trigger_price ${request.stopTriggerPrice} is already met by the last trade at ${market.price(market.book.lastTradeTicks)}`,
        );
      }
    }
    if (request.type === 'MARKET' && request.baseLots > 0 && request.scheduledAt <= now) {
      // Its match comes next, in this turn, with no quote budget: this walk is what it would fill.
      const fill = fillBelowMinimum(market, request.side, request.baseLots, Number.POSITIVE_INFINITY, user.row.number, request.stp);
      if (fill !== undefined) {
        const what = `${market.size(fill.lots)} for ${market.quote(BigInt(fill.notional))}`;
        throw apiError('E0110_ValueOutOfRange', `what it would fill at the book's prices (${what}): below the minimum notional ${market.rules.spec.minNotional}`);
      }
    }

    const seq = ++this.seq;
    const row: OrderRow = {
      orderId: this.options.newId(),
      seq,
      userId,
      clientOrderId: request.clientOrderId,
      productId: market.id,
      side: request.side,
      type: request.type,
      timeInForce: request.timeInForce,
      postOnly: request.postOnly,
      stp: request.stp,
      stopType: request.stopType,
      limitPrice: request.limitPrice,
      baseSize: request.baseSize,
      quoteSize: request.quoteSize,
      exactQuoteSize: request.exactQuoteSize,
      stopTriggerPrice: request.stopTriggerPrice,
      status: 'SUBMITTED',
      doneReason: '',
      rejectReason: '',
      filledBaseSize: '0',
      filledQuoteSize: '0',
      feeTotal: '0',
      makerFeeRate: user.row.makerFeeRate,
      takerFeeRate: user.row.takerFeeRate,
      restingLots: 0,
      holdAsset: request.side === 'BUY' ? market.quoteAsset : market.baseAsset,
      holdRemaining: 0n,
      createdAt: now,
      updatedAt: now,
      cancelRequestedAt: null,
      expiredAt: request.expiredAt === 0n ? null : request.expiredAt,
      scheduledAt: request.scheduledAt === 0n ? null : request.scheduledAt,
      twapState: '',
    };
    const order: LiveOrder = {
      row,
      market,
      type: request.type,
      owner: user.row.number,
      side: request.side,
      tif: request.timeInForce,
      stp: request.stp,
      limitTicks: request.limitTicks,
      lots: request.baseLots,
      quoteAtoms: request.exactQuoteAtoms > 0n ? request.exactQuoteAtoms : request.quoteAtoms,
      exactQuote: request.exactQuoteAtoms > 0n,
      stopTriggerTicks: request.stopTriggerTicks,
      makerRatePpm: user.makerPpm,
      takerRatePpm: user.takerPpm,
      hold: 0n,
      raiseLots: undefined,
      filledLots: 0,
      filledNotional: 0n,
      fees: 0n,
      trades: [],
      twap: undefined,
    };
    user.row.totalOrders += 1n;
    user.pendingOrders += 1;
    this.changedUsers.add(user);
    this.track(order);
    const submitted = { ...row };
    this.changed(order);

    try {
      // A later market order's hold is taken when it starts (holdsAtStart), and an uncapped TWAP buy's with its
      // first slice (holdsPerSlice): each counts as accepted then.
      if (!this.holdsAtStart(order)) {
        if (!this.reserve(order)) {
          this.finish(order, 'REJECTED', 'E0201_InsufficientBalance');
          return { submitted, processed: order };
        }
        if (!holdsPerSlice(order)) user.row.totalAcceptedOrders += 1n;
      }
      if (request.scheduledAt > now) {
        this.setStatus(order, 'SCHEDULED');
        this.timed.add(order);
        this.expireOnTime(order);
      } else {
        this.start(order);
      }
    } catch (err) {
      this.endFaulted(order);
      throw err;
    }
    return { submitted, processed: order };
  }

  /**
   * A venue fault (a bug, not a refusal) broke off an order's placement. The command's changes are committed
   * all the same, so the order must not stay live half-made (SUBMITTED forever, its client order id taken, its
   * hold kept): it ends with E0901, keeping any fills it made.
   */
  private endFaulted(order: LiveOrder): void {
    if (!this.byId.has(order.row.orderId)) return;
    try {
      this.finish(order, order.filledLots > 0 ? 'CANCELED' : 'REJECTED', 'E0901_InternalError');
    } catch {
      // Ending it failed as well: the fault's own error is the one to report.
    }
  }

  /** Cancels the caller's working order; the order as the cancel left it (its fills with it). */
  cancel(userId: string, target: CancelTarget): LiveOrder {
    const order = this.cancelWorking(userId, target);
    if (order === undefined) throw this.cancelRefusal(userId, target);
    return order;
  }

  /** Cancels the caller's order if it is working; undefined if it is not. */
  private cancelWorking(userId: string, target: CancelTarget): LiveOrder | undefined {
    const order = this.findLive(userId, target);
    if (order !== undefined) this.cancelLive(order);
    return order;
  }

  /**
   * Why an order that is not working cannot be cancelled: done (E0302) or unknown (E0301), from the archive.
   * `seenThrough`: the newest order seq when the cancel arrived (now, by default); an order made since is not the
   * one it named.
   */
  cancelRefusal(userId: string, target: CancelTarget, seenThrough = this.seq): ApiError {
    const done = this.findDone(userId, target, seenThrough);
    if (done !== undefined) return apiError('E0302_OrderAlreadyDone', `order ${done.orderId} is already done`);
    return apiError('E0301_OrderNotFound', 'no such order');
  }

  /** The caller's order the target names that was done when the newest order seq was `seenThrough`. */
  private findDone(userId: string, target: CancelTarget, seenThrough: number): OrderRow | undefined {
    const done = (row: OrderRow | undefined): OrderRow | undefined => (row !== undefined && row.status === 'DONE' && row.seq <= seenThrough ? row : undefined);
    if (target.orderId !== undefined) return done(this.findArchived(userId, target));
    if (target.clientOrderId === undefined) return undefined;
    const key = target.clientOrderId.toLowerCase();
    const pending = this.doneRows.findLast((r) => r.userId === userId && r.clientOrderId.toLowerCase() === key && r.seq <= seenThrough);
    return pending ?? this.archive?.doneOrderByClientId(userId, target.clientOrderId, seenThrough);
  }

  /** Open and pending orders an account may have at once (--max-open-orders). */
  get maxOpenOrders(): number {
    return this.options.maxOpenOrders;
  }

  /** Orders the clock still has something to do for (an expiry, a start, a TWAP slice). */
  get waitingOnClock(): number {
    let waiting = this.expiries.size;
    for (const order of this.timed) if (!this.expiries.has(order)) waiting += 1;
    return waiting;
  }

  /** The newest order seq handed out. */
  get lastSeq(): number {
    return this.seq;
  }

  /**
   * Cancels the caller's working orders among those named, or all of them in the products. What was named and
   * is not working is handed back for sortNotWorking, to be asked once the tables hold every commit made
   * before (see cancelWorking).
   */
  cancelMany(userId: string, select: { orderIds?: string[]; clientOrderIds?: string[]; productIds?: string[] }): { cancelRequested: BulkCancelResult['cancelRequested']; notWorking: CancelTarget[] } {
    const cancelRequested: BulkCancelResult['cancelRequested'] = [];
    const notWorking: CancelTarget[] = [];
    const named = [...(select.orderIds ?? []).map((orderId) => ({ orderId })), ...(select.clientOrderIds ?? []).map((clientOrderId) => ({ clientOrderId }))];
    for (const target of named) {
      const live = this.cancelWorking(userId, target);
      if (live === undefined) notWorking.push(target);
      else cancelRequested.push({ id: live.row.orderId, clientOrderId: live.row.clientOrderId });
    }
    if (select.productIds !== undefined) {
      for (const order of this.activeOrders(userId, { productIds: select.productIds })) {
        this.cancelLive(order);
        cancelRequested.push({ id: order.row.orderId, clientOrderId: order.row.clientOrderId });
      }
    }
    return { cancelRequested, notWorking };
  }

  /**
   * Orders a bulk cancel named that were not working: done with a cancel requested, or not opened (done
   * otherwise, or unknown, named as the request named them). `seenThrough` as for cancelRefusal.
   */
  sortNotWorking(userId: string, targets: CancelTarget[], seenThrough: number): Pick<BulkCancelResult, 'notOpened' | 'alreadyCancelRequested'> {
    const sorted: Pick<BulkCancelResult, 'notOpened' | 'alreadyCancelRequested'> = { notOpened: [], alreadyCancelRequested: [] };
    for (const target of targets) {
      const done = this.findDone(userId, target, seenThrough);
      if (done === undefined) sorted.notOpened.push({ id: target.orderId ?? '', clientOrderId: target.clientOrderId ?? '' });
      else (done.cancelRequestedAt !== null ? sorted.alreadyCancelRequested : sorted.notOpened).push({ id: done.orderId, clientOrderId: done.clientOrderId });
    }
    return sorted;
  }

  cancelAll(userId: string, productId: string | undefined): OrderRow[] {
    const orders = this.activeOrders(userId, productId === undefined ? {} : { productIds: [productId] });
    for (const order of orders) this.cancelLive(order);
    return orders.map((o) => o.row);
  }

  /** The caller's orders the exchange still works on, oldest first. */
  activeOrders(userId: string, filter: { productIds?: string[]; clientOrderId?: string }): LiveOrder[] {
    if (filter.clientOrderId !== undefined) {
      const order = this.users.get(userId)?.byClientId.get(filter.clientOrderId.toLowerCase());
      const keep = order !== undefined && (filter.productIds === undefined || filter.productIds.includes(order.row.productId));
      return keep ? [order] : [];
    }
    const out: LiveOrder[] = [];
    for (const order of this.byId.values()) {
      if (order.row.userId !== userId) continue;
      if (filter.productIds !== undefined && !filter.productIds.includes(order.row.productId)) continue;
      out.push(order);
    }
    // Not by seq: a triggered stop or a TWAP slice takes a fresh one (its place in the queue), not a new age.
    return out.sort((a, b) => (a.row.createdAt === b.row.createdAt ? a.row.seq - b.row.seq : a.row.createdAt < b.row.createdAt ? -1 : 1));
  }

  liveOrder(orderId: string): LiveOrder | undefined {
    return this.byId.get(orderId);
  }

  /** Run what the clock makes due: GTT expiry, scheduled starts, TWAP slices. */
  tick(): void {
    this.catchingUp = false;
    const now = this.options.now();
    // Expiries first: an order whose time is up trades no more, not with a TWAP slice or a scheduled start
    // that falls due in the same tick, and an order scheduled to start after it should have ended never starts.
    this.expireUntil(now);
    if (this.timed.size === 0) return;
    // What falls due in the same tick runs in the order it fell due (ties by seq), not in the order it joined
    // `timed`: that order is the set's history, which a restart (restoring in seq order) does not rebuild, so a
    // start and a TWAP slice due together ran the other way round after a restart, and traded differently.
    const runnable: { order: LiveOrder; at: bigint; seq: number }[] = [];
    for (const order of this.timed) {
      const { row, twap } = order;
      if (this.dueToStart(order, now) && row.scheduledAt !== null) runnable.push({ order, at: row.scheduledAt, seq: row.seq });
      else if (twap !== undefined && twap.slicesLeft > 0 && twap.nextAt <= now) runnable.push({ order, at: twap.nextAt, seq: row.seq });
    }
    runnable.sort((a, b) => (a.at === b.at ? a.seq - b.seq : a.at < b.at ? -1 : 1));
    let fault: Error | undefined;
    for (const { order } of runnable) {
      if (!this.byId.has(order.row.orderId)) continue;
      try {
        if (this.dueToStart(order, now)) this.start(order);
        else if (order.twap !== undefined && order.twap.slicesLeft > 0 && order.twap.nextAt <= now) this.slice(order);
      } catch (err) {
        // A fault in one order's start or slice ends that order (E0901) instead of failing every later tick and
        // holding up the orders after it; the first fault is still thrown once the others have run.
        this.endFaulted(order);
        fault ??= err instanceof Error ? err : new Error(String(err));
      }
    }
    if (fault !== undefined) throw fault;
  }

  /**
   * Ends the orders whose expired_at has come, for a command about to run: the venue calls it as every command
   * comes in, before the command, so that what the clock ended is not among the command's own doings (the
   * WebSocket answers a request with the updates of its user's orders made while it runs).
   * Between a restore and the clock's first tick it ends nothing: what fell due while the venue was down is the
   * catch-up's, expiries then starts in one change (the venue's own commands at its start run before it: setting
   * the simulator up or taking its quotes off, which ending expiries first split in two, the book's sequence
   * counting one more than a venue that never stopped).
   */
  expireDue(): void {
    if (!this.catchingUp) this.expireUntil(this.options.now());
  }

  /** Ends every order whose expired_at is at or before `now`, earliest first (ties in queue order). */
  private expireUntil(now: bigint): void {
    // takeDue gives them earliest first; those due at the same time in seq order, whatever the heap made of them.
    const due = this.expiries.takeDue(now).sort((a, b) => (a.row.expiredAt === b.row.expiredAt ? a.row.seq - b.row.seq : (a.row.expiredAt ?? 0n) < (b.row.expiredAt ?? 0n) ? -1 : 1));
    // A TWAP is done when its window ends (or it fills), not when its last slice has run.
    for (const order of due) this.finish(order, order.twap !== undefined && order.filledLots >= order.lots ? 'FILLED' : 'EXPIRED', '');
  }

  /** A GTT order (a stop too, triggered or not) waits for its expired_at from now on; other orders do not expire. */
  private expireOnTime(order: LiveOrder): void {
    if (order.row.expiredAt !== null) this.expiries.add(order, order.row.expiredAt);
  }

  /** SCHEDULED for its scheduled_at, which has come; a stop already started waits in the stop book instead. */
  private dueToStart(order: LiveOrder, now: bigint): boolean {
    const { row } = order;
    return row.status === 'SCHEDULED' && row.scheduledAt !== null && row.scheduledAt <= now && !order.market.stops.has(row.seq);
  }

  /**
   * What to persist for everything since the last call. The order rows are the exchange's own, not copies (a copy
   * an order was most of what taking changes allocated): capture them (VenueStore.commit does, at once) before
   * the next command changes them. A done order's row never changes again.
   */
  takeChanges(): ChangeSet {
    const orders = this.doneRows.splice(0);
    for (const order of this.changedOrders) {
      order.row.holdRemaining = order.hold;
      orders.push(order.row);
    }
    this.changedOrders.clear();
    const users = [...this.changedUsers].map((u) => ({ ...u.row }));
    this.changedUsers.clear();
    const balances = this.ledger.drainChanged().map((b) => ({ userId: b.account, asset: b.asset, free: b.free, locked: b.locked }));
    const trades = this.newTrades.splice(0);
    const changes: ChangeSet = {};
    const meta: Record<string, string> = {};
    if (this.startingChanged) {
      this.startingChanged = false;
      const json: Record<string, Record<string, string>> = {};
      for (const [userId, assets] of this.starting) json[userId] = Object.fromEntries([...assets].map(([a, v]) => [a, v.toString()]));
      meta[STARTING_BALANCES_KEY] = JSON.stringify(json);
    }
    for (const market of this.markets.values()) {
      const sequence = market.takeSequenceChange();
      if (sequence !== undefined) meta[bookSequenceKey(market.id)] = String(sequence);
    }
    if (Object.keys(meta).length > 0) changes.meta = meta;
    if (orders.length > 0) changes.orders = orders;
    if (users.length > 0) changes.users = users;
    if (balances.length > 0) changes.balances = balances;
    if (trades.length > 0) changes.trades = trades;
    const candles = [...this.markets.values()].flatMap((market) => market.takeCandleChanges());
    if (candles.length > 0) changes.candles = candles;
    return changes;
  }

  // ---- lifecycle ------------------------------------------------------------------------------------------

  /** Take the order's hold; false when the free balance does not cover it. */
  private reserve(order: LiveOrder): boolean {
    const { market } = order;
    let amount: bigint;
    if (order.side === 'SELL') {
      if (order.lots > 0) amount = market.baseAtoms(order.lots);
      else {
        const raise = this.lotsToRaise(order);
        order.raiseLots = raise.lots;
        amount = market.baseAtoms(raise.sells);
      }
    } else {
      const hold = buyHold(order, (ticks, lots) => market.notional(ticks, lots));
      if (hold === 'per-slice') amount = 0n;
      else if (hold === 'book') {
        // A market buy of a base size: what walking the book for it costs right now.
        const estimate = market.book.estimate('BUY', 0, order.lots, Number.POSITIVE_INFINITY, order.owner, order.stp);
        amount = costWithFee(BigInt(estimate.notional), order.takerRatePpm);
      } else amount = hold;
    }
    if (!this.ledger.hold(order.row.userId, order.row.holdAsset, amount)) return false;
    order.hold = amount;
    return true;
  }

  /**
   * A market sell for a quote amount sells whole lots, so it sells the fewest lots whose proceeds after fee reach
   * the amount (or all the book can take, and one more): `lots` bounds its match, and `sells` is what that match
   * sells of them (its hold), both walked from the book right now. The trader's own bids count towards `lots` as
   * any other's, except under CANCEL_MAKER, which removes them and goes on: the match must reach one the amount
   * needs, so that self-trade prevention is applied there (bounded short of it, the sell ended FILLED or CANCELED
   * without E0204, and CANCEL_BOTH left the bid on the book).
   */
  private lotsToRaise(order: LiveOrder): { lots: number; sells: number } {
    const { book } = order.market;
    const target = notionalReaching(order.quoteAtoms, order.takerRatePpm);
    const owner = order.stp === 'CANCEL_MAKER' ? order.owner : undefined;
    let lots = book.estimate('SELL', 0, 0, Number(target), owner, order.stp).lots;
    for (;;) {
      const next = book.estimate('SELL', 0, lots + 1, Number.POSITIVE_INFINITY, owner, order.stp);
      // Lots 0 would mean "no lot bound" to the engine; nothing sold raises nothing.
      const raised = lots === 0 ? 0 : book.estimate('SELL', 0, lots, Number.POSITIVE_INFINITY, owner, order.stp).notional;
      if (BigInt(raised) >= target) break;
      if (next.lots <= lots) {
        // The bids cannot raise it: one lot more than they take, so the match runs out of bids and the order is
        // CANCELED like any IOC remainder, not FILLED having raised less than its quote_size.
        lots += 1;
        break;
      }
      lots += 1;
    }
    const sells = book.estimate('SELL', 0, lots, Number.POSITIVE_INFINITY, order.owner, order.stp).lots;
    return { lots, sells };
  }

  /** The order's time has come: wait for a stop trigger, start slicing, or go to the book. */
  private start(order: LiveOrder): void {
    this.timed.delete(order);
    const { row, market } = order;
    if (row.type === 'STOP') {
      // A stop SCHEDULED for its time goes on waiting, for its trigger: no change the trader sees (nor one a
      // restart, which starts it again, should date).
      if (row.status !== 'SCHEDULED') this.setStatus(order, 'SCHEDULED');
      const last = market.book.lastTradeTicks;
      const stopType = row.stopType === 'TAKE_PROFIT' ? 'TAKE_PROFIT' : 'STOP_LOSS';
      if (last !== undefined && market.stops.wouldTriggerNow(order.side, stopType, order.stopTriggerTicks, last)) {
        this.trigger(order);
      } else {
        market.stops.add(row.seq, order.side, stopType, order.stopTriggerTicks);
        // A GTT stop expires whether or not it ever triggers.
        this.expireOnTime(order);
      }
      return;
    }
    if (row.type === 'TWAP') {
      this.planTwap(order);
      return;
    }
    this.expireOnTime(order);
    // Started late, it joins the queue now, behind orders that rested meanwhile: a fresh seq says so, as a
    // trigger's does. With its placement seq, a restart (which rests orders in seq order) put it ahead of them.
    if (row.status === 'SCHEDULED') this.takeFreshSeq(order);
    if (this.holdsAtStart(order)) {
      // Its hold now, from the book it meets; one the trader cannot fund ends, saying why, never accepted.
      if (!this.reserve(order)) return this.finish(order, 'CANCELED', 'E0201_InsufficientBalance');
      this.countAccepted(order);
    }
    this.match(order, order.lots);
  }

  /**
   * A market buy of a base size, or a market sell for a quote amount, scheduled for later: what it costs or
   * raises is priced by the book it meets then, not the one at its arrival, so its hold is taken when it starts.
   * Read from the row, so it holds across a restart too.
   */
  private holdsAtStart(order: LiveOrder): boolean {
    const { row } = order;
    const byBook = row.type === 'MARKET' && !order.exactQuote && (order.side === 'BUY') === order.lots > 0;
    return byBook && startsLater(row);
  }

  private trigger(order: LiveOrder): void {
    // Triggered, a stop is an order at work again (its fills are not reported as a stop still waiting), and it
    // joins the queue now: its time priority is the trigger, not its arrival. Both SUBMITTED and SCHEDULED count
    // as pending in the user's figures.
    order.row.status = 'SUBMITTED';
    this.takeFreshSeq(order);
    this.expireOnTime(order);
    this.match(order, order.lots);
  }

  /** The order's place in the queue is from now on: the next seq. */
  private takeFreshSeq(order: LiveOrder): void {
    this.bySeq.delete(order.row.seq);
    order.row.seq = ++this.seq;
    this.bySeq.set(order.row.seq, order);
  }

  /** Submit `lots` of the order (all of it, or one TWAP slice) to the book and settle what happens. */
  private match(order: LiveOrder, lots: number): void {
    const { market, row } = order;
    const isMarket = order.limitTicks === 0;
    const slicing = order.twap !== undefined;
    let tif = order.tif;
    if (isMarket || slicing) tif = 'IOC';
    if (order.exactQuote) tif = 'FOK';
    let limitTicks = order.limitTicks;
    let quoteBudget = Number.POSITIVE_INFINITY;
    let engineLots = lots;
    if (order.exactQuote) {
      limitTicks = this.exactQuoteLimit(order);
      if (limitTicks <= 0) return this.finish(order, 'CANCELED', 'E0203_FillOrKillNotFilled');
    } else if (isMarket && order.side === 'BUY' && (order.lots === 0 || order.row.type === 'STOP')) {
      // Never trade past the hold: the budget is the notional whose cost with fee fits in it. A market buy of a
      // size held what walking the book costs, walked just now (the same turn): this match is that walk, and a
      // budget from its hold stopped it short wherever the walk passed the trader's own orders (a budget of 0
      // when its own order came first ended it without the self-trade prevention that was due).
      quoteBudget = Number(notionalWithin(order.hold, order.takerRatePpm));
    } else if (isMarket && order.side === 'SELL' && order.lots === 0) {
      // Walked from this book in this turn with its hold (reserve), which is what these lots sell.
      engineLots = order.raiseLots ?? this.lotsToRaise(order).lots;
    }
    if (engineLots === 0 && quoteBudget === Number.POSITIVE_INFINITY) {
      return this.finish(order, 'CANCELED', '');
    }
    // A market order by size meeting the book after its arrival (scheduled, or a stop-market triggered) is held to
    // min_notional here, by this match's own bounds: there is no request left to refuse. One arriving was at place.
    const byBaseLater = isMarket && order.lots > 0 && !order.exactQuote && !slicing && (row.type === 'STOP' || startsLater(row));
    if (byBaseLater && fillBelowMinimum(market, order.side, engineLots, quoteBudget, order.owner, order.stp) !== undefined) {
      return this.finish(order, 'CANCELED', 'E0110_ValueOutOfRange');
    }
    const result: MatchResult = market.book.submit({
      seq: row.seq,
      owner: order.owner,
      side: order.side,
      limitTicks,
      lots: engineLots,
      quoteBudget,
      tif,
      postOnly: row.postOnly,
      stp: order.stp,
    });
    const outcome = result.outcome;
    // Copy what we need: the result object is reused by the next submit (stops below submit again).
    const fills = result.fills.slice();
    const cancelledMakers = result.makersCancelled.slice();
    const decreasedMakers = result.makersDecreased.slice();
    const restingLots = result.restingLots;
    if (fills.length > 0 || cancelledMakers.length > 0 || decreasedMakers.length > 0 || outcome === 'RESTED') market.touchBook();

    // Each fill is reported as it happens; the last of an order that is not slicing is reported with the state
    // the match leaves it in (open, filled, cancelled), below, rather than twice.
    fills.forEach((fill, i) => this.settle(order, fill, slicing || i < fills.length - 1));
    // DECREASE_AND_CANCEL takes the same size off both orders without trading. An order it leaves at zero is
    // cancelled as it was; one that lives on is now smaller, and says so (base_size), so that its fills still
    // add up to its size when it fills.
    let decreasedBy = 0;
    let decreasedNotional = 0n;
    for (const cancelled of cancelledMakers) {
      const maker = this.bySeq.get(cancelled.seq);
      if (maker !== undefined) this.finish(maker, 'CANCELED', 'E0204_SelfTradePrevented', false);
      if (order.stp === 'DECREASE_AND_CANCEL') {
        decreasedBy += cancelled.lots;
        if (maker !== undefined) decreasedNotional += market.notional(maker.limitTicks, cancelled.lots);
      }
    }
    for (const decreased of decreasedMakers) {
      decreasedBy += decreased.lots;
      const maker = this.bySeq.get(decreased.seq);
      if (maker === undefined) continue;
      decreasedNotional += market.notional(maker.limitTicks, decreased.lots);
      maker.row.restingLots -= decreased.lots;
      this.decrease(maker, decreased.lots);
      this.trimHold(maker);
      this.changed(maker);
    }
    if (decreasedBy > 0 && !slicing && outcome !== 'SELF_TRADE_CANCELLED') {
      if (order.lots > 0) this.decrease(order, decreasedBy);
      else {
        // A market order sized by quote loses from quote_size what the lots cut would have cost or raised had
        // they traded, fee included: what it spent still fits in what is left, and what it raised still reaches
        // it. Unchanged, it read FILLED with most of its quote unused and nothing saying why.
        const cut = order.side === 'BUY' ? costWithFee(decreasedNotional, order.takerRatePpm) : decreasedNotional - feeOf(decreasedNotional, order.takerRatePpm);
        row.quoteSize = market.quote(order.quoteAtoms - cut);
      }
    }

    if (slicing) {
      // A slice that traded was reported by each fill (settle); one that did not changed only the plan, which
      // is persisted and not reported: the trader sees nothing new. A slice is an IOC order: self-trade
      // prevention ends the slice, not the TWAP, which is done when its window ends or it fills (it ended the
      // whole TWAP at the first slice that met the trader's own resting order).
      if (fills.length === 0) this.changedOrders.add(order);
    } else {
      switch (outcome) {
        case 'RESTED':
          order.row.restingLots = restingLots;
          this.setStatus(order, 'ACTIVE');
          this.trimHold(order);
          break;
        case 'FILLED':
          this.finish(order, 'FILLED', '');
          break;
        case 'CANCELLED': {
          const filled = order.lots > 0 && order.filledLots >= order.lots;
          const fokMissed = tif === 'FOK' && fills.length === 0;
          this.finish(order, filled ? 'FILLED' : 'CANCELED', fokMissed ? 'E0203_FillOrKillNotFilled' : '');
          break;
        }
        case 'POST_ONLY_WOULD_TAKE':
          this.finish(order, 'REJECTED', 'E0202_PostOnlyWouldMatch');
          break;
        case 'SELF_TRADE_CANCELLED':
          this.finish(order, 'CANCELED', 'E0204_SelfTradePrevented');
          break;
      }
    }
    if (fills.length > 0) {
      let low = Number.POSITIVE_INFINITY;
      let high = 0;
      for (const fill of fills) {
        if (fill.priceTicks < low) low = fill.priceTicks;
        if (fill.priceTicks > high) high = fill.priceTicks;
      }
      this.fireStops(market, low, high);
    }
  }

  /** The worst price at which the exact-quote order's size plus fees fits its quote amount (or is raised by it). */
  private exactQuoteLimit(order: LiveOrder): number {
    return exactQuoteLimitTicks(order.side, order.quoteAtoms, order.takerRatePpm, order.market.notional(1, order.lots));
  }

  private settle(taker: LiveOrder, fill: Fill, reportTaker: boolean): void {
    const maker = this.bySeq.get(fill.makerSeq);
    if (maker === undefined) throw new Error(`fill against unknown maker ${fill.makerSeq}`);
    const { market } = taker;
    const notional = BigInt(fill.notional);
    const base = market.baseAtoms(fill.lots);
    const buyer = taker.side === 'BUY' ? taker : maker;
    const seller = taker.side === 'BUY' ? maker : taker;
    const buyerFee = feeOf(notional, buyer === taker ? buyer.takerRatePpm : buyer.makerRatePpm);
    const sellerFee = feeOf(notional, seller === taker ? seller.takerRatePpm : seller.makerRatePpm);
    const quote = market.quoteAsset;

    this.ledger.payFromLocked(buyer.row.userId, seller.row.userId, quote, notional);
    this.ledger.payFromLocked(buyer.row.userId, FEE_ACCOUNT_ID, quote, buyerFee);
    buyer.hold -= notional + buyerFee;
    this.ledger.payFromLocked(seller.row.userId, buyer.row.userId, market.baseAsset, base);
    seller.hold -= base;
    this.ledger.payFromFree(seller.row.userId, FEE_ACCOUNT_ID, quote, sellerFee);

    const now = this.options.now();
    const trade: TradeRow = {
      id: this.options.newId(),
      seq: ++this.tradeSeq,
      productId: market.id,
      price: market.price(fill.priceTicks),
      size: market.size(fill.lots),
      takerSide: taker.side,
      makerOrderId: maker.row.orderId,
      takerOrderId: taker.row.orderId,
      makerUserId: maker.row.userId,
      takerUserId: taker.row.userId,
      makerFee: market.quote(maker === buyer ? buyerFee : sellerFee),
      takerFee: market.quote(taker === buyer ? buyerFee : sellerFee),
      time: now,
    };
    this.newTrades.push(trade);
    market.remember(trade, fill.priceTicks, fill.lots);
    for (const [order, fee] of [
      [maker, maker === buyer ? buyerFee : sellerFee],
      [taker, taker === buyer ? buyerFee : sellerFee],
    ] as const) {
      order.filledLots += fill.lots;
      order.filledNotional += notional;
      order.fees += fee;
      order.trades.push(trade);
      order.row.filledBaseSize = market.size(order.filledLots);
      order.row.filledQuoteSize = market.quote(order.filledNotional);
      order.row.feeTotal = market.quote(order.fees);
      order.row.updatedAt = now;
      const user = this.mustUser(order.row.userId);
      user.row.tradingVolume += notional;
      this.changedUsers.add(user);
      // An order this fill completes is reported once, as filled, by finish(): never as partially filled.
      const completes = order === maker ? fill.makerDone : order.lots > 0 && order.filledLots >= order.lots;
      if (order === taker && !reportTaker) this.changedOrders.add(order);
      else if (!completes) this.changed(order);
    }
    if (fill.makerDone) {
      maker.row.restingLots = 0;
      this.finish(maker, 'FILLED', '', false);
    } else {
      maker.row.restingLots -= fill.lots;
      this.trimHold(maker);
    }
  }

  /** Every stop met by the trades just printed, from `low` to `high` ticks, goes to work in arrival order. */
  private fireStops(market: Market, low: number, high: number): void {
    for (const seq of market.stops.triggered(low, high)) {
      const order = this.bySeq.get(seq);
      if (order !== undefined && order.row.status === 'SCHEDULED') this.trigger(order);
    }
  }

  private planTwap(order: LiveOrder): void {
    // The window is the order's own, from scheduled_at (the clock starts it a tick later) or acceptance to
    // expired_at: measured from the tick and floored, a 2-second TWAP was one slice. A start a whole slice late
    // (the venue was down at scheduled_at) spreads the order over what is left of the window instead.
    const scheduled = order.row.scheduledAt ?? order.row.createdAt;
    const now = this.options.now();
    const start = now - scheduled >= TWAP_INTERVAL_NS ? now : scheduled;
    order.twap = { lotsLeft: order.lots, ...twapSlices(order.lots, start, order.row.expiredAt ?? start) };
    this.setStatus(order, 'ACTIVE');
    this.timed.add(order);
    this.expireOnTime(order);
    this.slice(order, true);
  }

  /** One TWAP slice: an even share of what is left, as an IOC capped by the order's limit price. */
  private slice(order: LiveOrder, first = false): void {
    const plan = order.twap;
    if (plan === undefined || plan.slicesLeft <= 0 || plan.lotsLeft <= 0) return;
    const lots = Math.ceil(plan.lotsLeft / plan.slicesLeft);
    plan.slicesLeft -= 1;
    plan.lotsLeft -= lots;
    plan.nextAt += plan.intervalNs;
    order.row.twapState = JSON.stringify({ lotsLeft: plan.lotsLeft, slicesLeft: plan.slicesLeft, nextAt: String(plan.nextAt), intervalNs: String(plan.intervalNs) });
    this.takeFreshSeq(order);
    if (holdsPerSlice(order)) {
      // Uncapped buys reserve per slice: what the book asks for this slice right now.
      const estimate = order.market.book.estimate('BUY', 0, lots, Number.POSITIVE_INFINITY, order.owner, order.stp);
      const amount = costWithFee(BigInt(estimate.notional), order.takerRatePpm);
      // A slice the trader cannot fund ends the TWAP and says why; skipped, it ran out of time without a word.
      // Its first unfunded, it never held anything: not accepted.
      if (!this.ledger.hold(order.row.userId, order.row.holdAsset, amount)) return this.finish(order, 'CANCELED', 'E0201_InsufficientBalance');
      order.hold += amount;
      if (first) this.countAccepted(order);
    }
    this.match(order, lots);
    if (this.byId.has(order.row.orderId) && holdsPerSlice(order)) {
      this.ledger.release(order.row.userId, order.row.holdAsset, order.hold);
      order.hold = 0n;
    }
    if (this.byId.has(order.row.orderId) && order.filledLots >= order.lots) this.finish(order, 'FILLED', '');
  }

  /** The order's hold was taken, later than its placement (holdsAtStart, holdsPerSlice). */
  private countAccepted(order: LiveOrder): void {
    const user = this.mustUser(order.row.userId);
    user.row.totalAcceptedOrders += 1n;
    this.changedUsers.add(user);
  }

  private cancelLive(order: LiveOrder): void {
    order.row.cancelRequestedAt = this.options.now();
    this.finish(order, 'CANCELED', '');
  }

  /**
   * The order is done: off the book and the stop book, its hold released (an exact-quote order's leftover is
   * charged to the fee account instead), counters updated, and it leaves the live maps.
   */
  private finish(order: LiveOrder, reason: Exclude<DoneReason, ''>, rejectReason: string, removeFromBook = true): void {
    const { row, market } = order;
    if (row.status === 'DONE') return;
    const user = this.mustUser(row.userId);
    if (row.status === 'ACTIVE') user.openOrders -= 1;
    else user.pendingOrders -= 1;
    if (removeFromBook && market.book.has(row.seq)) {
      market.book.cancel(row.seq);
      market.touchBook();
    }
    market.stops.remove(row.seq);
    this.timed.delete(order);
    this.expiries.remove(order);
    if (order.exactQuote && reason === 'FILLED') this.settleExactQuote(order);
    if (order.hold > 0n) this.ledger.release(row.userId, row.holdAsset, order.hold);
    order.hold = 0n;
    row.status = 'DONE';
    row.doneReason = reason;
    row.rejectReason = rejectReason;
    row.restingLots = 0;
    row.updatedAt = this.options.now();
    user.row.totalDoneOrders += 1n;
    this.changedUsers.add(user);
    this.untrack(order);
    this.changedOrders.delete(order);
    row.holdRemaining = 0n;
    this.doneRows.push(row);
    this.emit(order, row);
  }

  /** The trader's quote balance moves by exactly the exact quote size; what fills and fees left goes to fees. */
  private settleExactQuote(order: LiveOrder): void {
    const { row } = order;
    const quote = order.market.quoteAsset;
    if (order.side === 'BUY') {
      this.ledger.payFromLocked(row.userId, FEE_ACCOUNT_ID, quote, order.hold);
      order.fees += order.hold;
      order.hold = 0n;
    } else {
      const proceeds = order.filledNotional - order.fees;
      const excess = proceeds - order.quoteAtoms;
      if (excess > 0n) this.ledger.payFromFree(row.userId, FEE_ACCOUNT_ID, quote, excess);
      if (excess > 0n) order.fees += excess;
    }
    row.feeTotal = order.market.quote(order.fees);
  }

  /** Self-trade prevention took `lots` off the order's size (see match). */
  private decrease(order: LiveOrder, lots: number): void {
    order.lots -= lots;
    order.row.baseSize = order.market.size(order.lots);
    order.row.updatedAt = this.options.now();
  }

  /** A resting buy keeps exactly what its remaining size at its limit price could cost; the rest goes back. */
  private trimHold(order: LiveOrder): void {
    if (order.side === 'SELL' || order.exactQuote) {
      if (order.side === 'SELL') {
        const needed = order.market.baseAtoms(order.row.restingLots);
        if (order.hold > needed) {
          this.ledger.release(order.row.userId, order.row.holdAsset, order.hold - needed);
          order.hold = needed;
        }
      }
      return;
    }
    const needed = costWithFee(order.market.notional(order.limitTicks, order.row.restingLots), holdRatePpm(order));
    if (order.hold > needed) {
      this.ledger.release(order.row.userId, order.row.holdAsset, order.hold - needed);
      order.hold = needed;
    }
  }

  private setStatus(order: LiveOrder, status: 'ACTIVE' | 'SCHEDULED'): void {
    const user = this.mustUser(order.row.userId);
    const wasOpen = order.row.status === 'ACTIVE';
    if (wasOpen !== (status === 'ACTIVE')) {
      if (status === 'ACTIVE') {
        user.openOrders += 1;
        user.pendingOrders -= 1;
      } else {
        user.openOrders -= 1;
        user.pendingOrders += 1;
      }
    }
    order.row.status = status;
    order.row.updatedAt = this.options.now();
    this.changed(order);
  }

  private changed(order: LiveOrder): void {
    this.changedOrders.add(order);
    this.emit(order, order.row);
  }

  private emit(order: LiveOrder, row: OrderRow): void {
    if (this.listeners.size === 0) return;
    const event: OrderEvent = { row: { ...row }, trades: order.trades.slice() };
    for (const listener of this.listeners) listener(event);
  }

  private track(order: LiveOrder): void {
    this.bySeq.set(order.row.seq, order);
    this.byId.set(order.row.orderId, order);
    if (order.row.clientOrderId !== '') this.mustUser(order.row.userId).byClientId.set(order.row.clientOrderId.toLowerCase(), order);
    // Restored orders only: a new one joins the clock once accepted. An order that started at its scheduled_at
    // has nothing more of it, and every tick would walk it for as long as it rests.
    const { row } = order;
    if (row.status === 'SUBMITTED') return;
    this.expireOnTime(order);
    if ((row.status === 'SCHEDULED' && row.scheduledAt !== null) || order.twap !== undefined) this.timed.add(order);
  }

  private untrack(order: LiveOrder): void {
    this.bySeq.delete(order.row.seq);
    this.byId.delete(order.row.orderId);
    if (order.row.clientOrderId !== '') {
      const byClientId = this.mustUser(order.row.userId).byClientId;
      const key = order.row.clientOrderId.toLowerCase();
      if (byClientId.get(key) === order) byClientId.delete(key);
    }
  }

  /** The caller's working order named by id or client order id (case-insensitive), if there is one. */
  findLive(userId: string, target: CancelTarget): LiveOrder | undefined {
    if (target.orderId !== undefined) {
      const order = this.byId.get(target.orderId);
      return order !== undefined && order.row.userId === userId ? order : undefined;
    }
    if (target.clientOrderId !== undefined) return this.users.get(userId)?.byClientId.get(target.clientOrderId.toLowerCase());
    return undefined;
  }

  private archive: OrderArchive | undefined;

  /** Where finished orders are looked up (the store); without it every unknown order is "not found". */
  setArchive(archive: OrderArchive): void {
    this.archive = archive;
  }

  private findArchived(userId: string, target: CancelTarget): OrderRow | undefined {
    const pending = this.doneRows.find((r) =>
      r.userId === userId && (target.orderId !== undefined ? r.orderId === target.orderId : r.clientOrderId.toLowerCase() === target.clientOrderId?.toLowerCase()),
    );
    if (pending !== undefined) return pending;
    if (this.archive === undefined) return undefined;
    if (target.orderId !== undefined) return this.archive.orderById(userId, target.orderId);
    if (target.clientOrderId !== undefined) return this.archive.newestOrderByClientId(userId, target.clientOrderId);
    return undefined;
  }

  private liveFromRow(row: OrderRow, market: Market, trades: TradeRow[]): LiveOrder {
    const user = this.mustUser(row.userId);
    const maker = parseRate(row.makerFeeRate);
    const taker = parseRate(row.takerFeeRate);
    if (isReason(maker) || isReason(taker)) throw new Error(`order ${row.orderId} has an unreadable fee rate`);
    const ticks = (text: string): number => market.ticksOf(text);
    const lots = market.lotsOf(row.baseSize);
    const quoteText = row.exactQuoteSize !== '0' ? row.exactQuoteSize : row.quoteSize;
    let filledLots = 0;
    let filledNotional = 0n;
    let fees = 0n;
    for (const t of trades) {
      const tradeLots = market.lotsOf(t.size);
      filledLots += tradeLots;
      filledNotional += market.notional(ticks(t.price), tradeLots);
      fees += market.quoteAtomsOf(t.makerOrderId === row.orderId ? t.makerFee : t.takerFee);
    }
    let twap: LiveOrder['twap'];
    if (row.twapState !== '') {
      const state = JSON.parse(row.twapState) as { lotsLeft: number; slicesLeft: number; nextAt: string; intervalNs?: string };
      const end = row.expiredAt ?? 0n;
      const nextAt = BigInt(state.nextAt);
      const now = this.options.now();
      // Slices missed while the venue was down are not run in a burst: what is left is spread over what is left
      // of the window, from now.
      const behind = state.slicesLeft > 1 && end > now && now - nextAt >= TWAP_INTERVAL_NS;
      // Otherwise the plan goes on as it was: the interval as planned, not worked out again from what is left of
      // the window, whose floor differs by a few nanoseconds and moved the later slices (the last one past the
      // window's end, so it never ran). A row from before the interval was kept has only the recomputed one.
      const planned = state.intervalNs !== undefined ? BigInt(state.intervalNs) : state.slicesLeft > 0 && end > nextAt ? (end - nextAt) / BigInt(state.slicesLeft) : 0n;
      twap = behind ? { lotsLeft: state.lotsLeft, ...twapSlices(state.lotsLeft, now, end) } : { lotsLeft: state.lotsLeft, slicesLeft: state.slicesLeft, nextAt, intervalNs: planned };
    }
    return {
      row,
      market,
      type: row.type,
      owner: user.row.number,
      side: row.side,
      tif: row.timeInForce,
      stp: row.stp as LiveOrder['stp'],
      limitTicks: ticks(row.limitPrice),
      lots,
      quoteAtoms: market.quoteAtomsOf(quoteText),
      exactQuote: row.exactQuoteSize !== '0',
      stopTriggerTicks: ticks(row.stopTriggerPrice),
      makerRatePpm: maker,
      takerRatePpm: taker,
      hold: row.holdRemaining,
      raiseLots: undefined,
      filledLots,
      filledNotional,
      fees,
      trades,
      twap,
    };
  }

  private mustUser(userId: string): UserState {
    const user = this.users.get(userId);
    if (user === undefined) throw apiError('E0304_UserNotFound', `no user ${userId}`);
    return user;
  }

  private mustRate(text: string): number {
    const rate = parseRate(text);
    if (isReason(rate)) throw new Error(`fee rate ${text}: ${rate.reason}`);
    return rate;
  }
}

/**
 * A stop order that does not say which kind it is (the WebSocket's data table has no order_stop_type) is the
 * kind its trigger implies against the last trade: a BUY triggering above it or a SELL below it is a
 * stop-loss, the other way round a take-profit (the contract's definitions). With no trade yet there is nothing to
 * tell them apart by: E0213. A trigger right at the last trade is either kind, already met: place() refuses it.
 */
function stopTypeFromLastTrade(market: Market, request: NewOrderRequest): 'STOP_LOSS' | 'TAKE_PROFIT' {
  const last = market.book.lastTradeTicks;
  if (last === undefined) {
    throw apiError('E0213_InvalidStopPrice', `order_stop_type: required while ${market.id} has no last trade to place stop_trigger_price against`);
  }
  return (request.side === 'BUY') === request.stopTriggerTicks > last ? 'STOP_LOSS' : 'TAKE_PROFIT';
}

/**
 * A market order sized by base_size has no price of its own to hold to min_notional, as a limit order has
 * (limit_price × base_size): what it would fill walking the book, self-trade prevention and any quote budget as
 * its match applies them, must reach it. That fill when it is some but less than the minimum; a fill of nothing is
 * not below it, and the match ends that order as any other (an empty book, or the trader's own order first).
 */
function fillBelowMinimum(market: Market, side: Side, lots: number, quoteBudget: number, owner: number, stp: SelfTradePrevention): Estimate | undefined {
  const fill = market.book.estimate(side, 0, lots, quoteBudget, owner, stp);
  return fill.notional > 0 && fill.notional < market.rules.minNotionalAtoms ? fill : undefined;
}

/** Scheduled for after its arrival: it meets the book then, not at placement. Read from the row, so across a restart too. */
function startsLater(row: OrderRow): boolean {
  return row.scheduledAt !== null && row.scheduledAt > row.createdAt;
}

/** An uncapped TWAP buy: what a slice costs is the book's price then, so it holds slice by slice (see slice). */
function holdsPerSlice(order: LiveOrder): boolean {
  return order.type === 'TWAP' && order.side === 'BUY' && order.limitTicks === 0;
}

/**
 * The slices of a TWAP's `lots` over the window from `start` to `end`: about a second apart, the count rounded so
 * that a window a few milliseconds short of N seconds (a client's "N seconds from now", on arrival) still gets N,
 * and never more slices than lots. The first is due at `start`.
 */
function twapSlices(lots: number, start: bigint, end: bigint): { slicesLeft: number; nextAt: bigint; intervalNs: bigint } {
  const window = end > start ? end - start : 0n;
  const slices = Math.max(1, Math.min(lots, Math.round(Number(window) / Number(TWAP_INTERVAL_NS))));
  return { slicesLeft: slices, nextAt: start, intervalNs: window / BigInt(slices) };
}


