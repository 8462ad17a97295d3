/**
 * One environment (the local venue, development or production) as the desk sees it: the REST client and the
 * WebSocket together, and the single source of truth for the trader's orders, books, trades and account.
 *
 * Orders come from WebSocket updates and REST answers into one OrderBlotter keyed by order id. Each time the
 * socket is (re)connected and subscribed to `orders`, the session reconciles over REST: the active orders,
 * the most recently updated history, and any order it still believed working that neither list shows. The
 * subscription is in force before those reads start, so a change is either in the reads or on the socket
 * after them; the blotter keeps whichever record is newer. No order goes missing, none appears twice.
 *
 * Books come from level2 (snapshot, then updates in sequence; a gap resubscribes the product), or from REST
 * polling for a product whose market-data subscription the venue refused. A streamed book is in doubt from a gap
 * or a lost connection until its next snapshot; a streamed tape, ticker or candles from the moment its sub is sent
 * (the product watched, the connection lost and made again) until that sub is answered.
 */
import type { Account, Order, PublicTrade } from '../../src-shared/protocol/records';
import type { CandlesEvent, TickerEvent } from '../../src-shared/protocol/ws';
import { clientOrderIdKey } from '../../src-shared/client-order-id';
import { backoffDelay, sleep } from './backoff';
import { DisposableStore, Emitter, nextEvent, toDisposable, type Disposable, type Event } from './events';
import { LocalBook, type BookView } from './local-book';
import { MarketPoller } from './market-poller';
import { OrderBlotter, isDone, type UpdateResult } from './order-blotter';
import {
  VenueRestClient,
  type OrderSelection,
  type PlaceOrderRequest,
  type RateBound,
  type VenueCredentials,
  type VenueRestClientOptions,
} from './rest-client';
import { VenueSocket, type SocketStatus, type VenueSocketOptions } from './venue-socket';
import { OutcomeUnknownError, VenueError, type LostPlacement } from './venue-error';

/** Trades read per product after a reconnection: the venue's recent-trades default. */
const BACKFILL_TRADES = 100;

export interface VenueSessionOptions {
  readonly baseUrl: string;
  readonly wsUrl: string;
  readonly credentials: VenueCredentials;
  /** The account to read; learned from the first order when absent. */
  readonly userId?: string;
  readonly rest?: Omit<VenueRestClientOptions, 'baseUrl' | 'credentials'>;
  readonly socket?: Omit<VenueSocketOptions, 'url' | 'credentials'>;
  /** How many of the most recently updated orders each reconcile reads (at most 1000). */
  readonly historyWindow?: number;
  /** Polling interval for products without a market-data stream. */
  readonly pollIntervalMs?: number;
  /** First wait before a placement whose outcome is unknown is looked up again (it doubles while lookups fail). */
  readonly placementLookupMs?: number;
}

/** Where the session stands: `live` means the blotter is reconciled and the socket feeds it. */
export type SyncState = 'connecting' | 'reconciling' | 'live' | 'reconnecting' | 'refused' | 'closed';

export interface ConnectionChange {
  readonly sync: SyncState;
  readonly socket: SocketStatus;
}

export interface ReconcileReport {
  /** Which connection of the socket this reconcile followed (1 for the first). */
  readonly connection: number;
  /** Orders whose record changed (or that were new to the desk). */
  readonly changed: number;
  /** Orders read over REST. */
  readonly read: number;
}

/** A placement whose outcome was unknown, settled by a later reconcile. */
export interface PlacementResolution {
  readonly clientOrderId: string;
  /** The order the venue holds under the id, or undefined: it was never placed. */
  readonly order: Order | undefined;
}

export interface TradesChange {
  readonly productId: string;
  /** Oldest first. */
  readonly trades: readonly PublicTrade[];
  /** 'poll': read from the REST endpoint, by a poller or after a reconnection (and may repeat trades already sent). */
  readonly source: 'stream' | 'poll';
}

/**
 * The streams besides level2, each in doubt until its sub is answered: they bring no sequence, so nothing else tells
 * a stream that is not in force from a quiet market.
 */
export type FeedChannel = 'trades' | 'ticker' | 'candles';
const FEED_CHANNELS: readonly FeedChannel[] = ['trades', 'ticker', 'candles'];

export interface FeedDoubt {
  readonly productId: string;
  readonly channel: FeedChannel;
  /** True: what was streamed is the last known, not the venue's, until the channel's sub is answered. */
  readonly inDoubt: boolean;
}

export interface PollingSwitch {
  readonly productId: string;
  readonly reason: VenueError;
}

const DEFAULT_HISTORY_WINDOW = 500;
const DEFAULT_POLL_MS = 1_000;
const DEFAULT_PLACEMENT_LOOKUP_MS = 2_000;
/** Fills arrive in bursts; one account read per burst. */
const ACCOUNT_REFRESH_DELAY_MS = 200;

export class VenueSession implements Disposable {
  readonly rest: VenueRestClient;
  readonly socket: VenueSocket;
  private userId: string | undefined;
  private readonly blotter = new OrderBlotter();
  private readonly books = new Map<string, LocalBook>();
  private readonly pollers = new Map<string, MarketPoller>();
  private readonly watched = new Set<string>();
  private readonly feedsInDoubt: Record<FeedChannel, Set<string>> = { trades: new Set(), ticker: new Set(), candles: new Set() };
  /**
   * Placements whose outcome is unknown, as the REST client sent them, until a lookup settles them: the latest sent
   * under each client_order_id, keyed in lower case (the venue's ids are case-insensitive; see unresolvedKey).
   */
  private readonly unresolved = new Map<string, LostPlacement>();
  private accountRecord: Account | undefined;
  private sync: SyncState = 'connecting';
  private reconciling: Promise<void> | undefined;
  private connectionSeen = 0;
  private reconcileAgain = false;
  private accountTimer: ReturnType<typeof setTimeout> | undefined;
  private lookupTimer: ReturnType<typeof setTimeout> | undefined;
  private lookupFailures = 0;
  private settling: Promise<void> | undefined;
  private readonly placementLookupMs: number;
  private readonly historyWindow: number;
  private readonly pollIntervalMs: number;
  private readonly disposables = new DisposableStore();
  private disposed = false;

  private readonly _onDidChangeOrders = new Emitter<readonly Order[]>();
  /** Orders that are new to the desk or whose record changed. */
  readonly onDidChangeOrders: Event<readonly Order[]> = this._onDidChangeOrders.event;
  private readonly _onDidChangeBook = new Emitter<BookView>();
  readonly onDidChangeBook: Event<BookView> = this._onDidChangeBook.event;
  private readonly _onDidReceiveTrades = new Emitter<TradesChange>();
  readonly onDidReceiveTrades: Event<TradesChange> = this._onDidReceiveTrades.event;
  private readonly _onDidChangeTicker = new Emitter<TickerEvent>();
  readonly onDidChangeTicker: Event<TickerEvent> = this._onDidChangeTicker.event;
  private readonly _onDidChangeFeedDoubt = new Emitter<FeedDoubt>();
  readonly onDidChangeFeedDoubt: Event<FeedDoubt> = this._onDidChangeFeedDoubt.event;
  private readonly _onDidChangeCandles = new Emitter<CandlesEvent>();
  readonly onDidChangeCandles: Event<CandlesEvent> = this._onDidChangeCandles.event;
  private readonly _onDidChangeAccount = new Emitter<Account>();
  readonly onDidChangeAccount: Event<Account> = this._onDidChangeAccount.event;
  private readonly _onDidChangeConnection = new Emitter<ConnectionChange>();
  readonly onDidChangeConnection: Event<ConnectionChange> = this._onDidChangeConnection.event;
  private readonly _onDidReconcile = new Emitter<ReconcileReport>();
  readonly onDidReconcile: Event<ReconcileReport> = this._onDidReconcile.event;
  private readonly _onDidResolvePlacement = new Emitter<PlacementResolution>();
  readonly onDidResolvePlacement: Event<PlacementResolution> = this._onDidResolvePlacement.event;
  private readonly _onDidSwitchToPolling = new Emitter<PollingSwitch>();
  readonly onDidSwitchToPolling: Event<PollingSwitch> = this._onDidSwitchToPolling.event;
  private readonly _onDidFail = new Emitter<Error>();
  /** Background work that failed (a reconcile read, an account refresh, a poll); it is retried. */
  readonly onDidFail: Event<Error> = this._onDidFail.event;

  constructor(options: VenueSessionOptions) {
    this.userId = options.userId;
    this.historyWindow = Math.min(1000, options.historyWindow ?? DEFAULT_HISTORY_WINDOW);
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_MS;
    this.placementLookupMs = options.placementLookupMs ?? DEFAULT_PLACEMENT_LOOKUP_MS;
    this.rest = new VenueRestClient({ ...options.rest, baseUrl: options.baseUrl, credentials: options.credentials });
    this.socket = new VenueSocket({ venueClock: () => this.rest.venueTime(), ...options.socket, url: options.wsUrl, credentials: options.credentials });
    const d = this.disposables;
    for (const emitter of [
      this._onDidChangeOrders,
      this._onDidChangeBook,
      this._onDidReceiveTrades,
      this._onDidChangeTicker,
      this._onDidChangeFeedDoubt,
      this._onDidChangeCandles,
      this._onDidChangeAccount,
      this._onDidChangeConnection,
      this._onDidReconcile,
      this._onDidResolvePlacement,
      this._onDidSwitchToPolling,
      this._onDidFail,
    ]) {
      d.add(emitter);
    }
    d.add(this.socket.onDidChangeStatus((status) => this.socketChanged(status)));
    d.add(this.socket.onDidUpdateOrder(({ order }) => this.take(this.blotter.applyUpdate(order))));
    d.add(
      this.socket.onDidReceiveBookSnapshot((snapshot) => {
        if (!this.streams(snapshot.product_id)) return;
        const book = this.bookOf(snapshot.product_id);
        book.applySnapshot(snapshot, 'stream');
        this._onDidChangeBook.fire(book.view());
      }),
    );
    d.add(
      this.socket.onDidReceiveBookUpdate((update) => {
        if (!this.streams(update.product_id)) return;
        const book = this.bookOf(update.product_id);
        book.applyUpdate(update);
        this._onDidChangeBook.fire(book.view());
      }),
    );
    d.add(
      // A gap, or a connection lost or made again: until the product's snapshot comes, the book shown is the last
      // one known, and says so (a session live again over a level2 sub never answered would show it frozen).
      this.socket.onDidAwaitBookSnapshot((productId) => {
        const book = this.books.get(productId);
        if (book === undefined || this.pollers.has(productId) || book.isInDoubt) return;
        book.markInDoubt();
        this._onDidChangeBook.fire(book.view());
      }),
    );
    d.add(
      // A tape, ticker or candles in doubt since its sub was sent streams now (the ticker and candles subs are followed
      // by the current ones). The trades sub brings no snapshot: answered after the reconcile's read of the tape, or
      // after a window's read of it when first watched, the trades made meanwhile are read now.
      this.socket.onDidAnswerSubscription(({ channel, productIds }) => {
        if (channel === 'level2') return;
        for (const productId of productIds) {
          if (!this.streams(productId) || !this.setFeedDoubt(channel, productId, false)) continue;
          if (channel === 'trades' && this.sync === 'live') this.backfillTrades([productId]).catch((err: unknown) => this._onDidFail.fire(err as Error));
        }
      }),
    );
    d.add(this.socket.onDidReceiveTrades((e) => this._onDidReceiveTrades.fire({ productId: e.product_id, trades: e.data, source: 'stream' })));
    d.add(this.socket.onDidReceiveTicker((e) => this._onDidChangeTicker.fire(e)));
    d.add(this.socket.onDidReceiveCandles((e) => this._onDidChangeCandles.fire(e)));
    d.add(this.socket.onDidRefuseSubscription(({ productIds, error }) => productIds.forEach((id) => this.switchToPolling(id, error))));
    d.add(toDisposable(() => this.socket.close()));
    d.add(toDisposable(() => this.rest.dispose()));
    d.add(
      toDisposable(() => {
        for (const poller of this.pollers.values()) poller.dispose();
        if (this.accountTimer !== undefined) clearTimeout(this.accountTimer);
        if (this.lookupTimer !== undefined) clearTimeout(this.lookupTimer);
      }),
    );
  }

  // ---- what the desk reads

  get syncState(): SyncState {
    return this.sync;
  }

  orders(): Order[] {
    return this.blotter.all();
  }

  order(orderId: string): Order | undefined {
    return this.blotter.get(orderId);
  }

  book(productId: string): BookView | undefined {
    return this.books.get(productId)?.view();
  }

  /** Whether the product's streamed trades, ticker or candles are the last known (see FeedDoubt). */
  feedInDoubt(productId: string, channel: FeedChannel): boolean {
    return this.feedsInDoubt[channel].has(productId);
  }

  account(): Account | undefined {
    return this.accountRecord;
  }

  /** client_order_ids of placements whose outcome is still unknown: looked up until the session is disposed. */
  unresolvedPlacements(): string[] {
    return [...this.unresolved.values()].map((placement) => placement.clientOrderId);
  }

  /** Products fed by REST polling rather than the socket. */
  polledProducts(): string[] {
    return [...this.pollers.keys()];
  }

  /** Connect, subscribe to the trader's orders, and resolve once the first reconcile is done. */
  async start(): Promise<void> {
    const live = this.whenLive();
    await this.socket.subscribe('orders');
    this.socket.connect();
    await live;
  }

  /** Resolves the next time the session is `live` (at once if it is); rejects if it is refused or closed. */
  whenLive(): Promise<void> {
    if (this.sync === 'live') return Promise.resolve();
    return nextEvent(this.onDidChangeConnection, (c) => c.sync === 'live' || c.sync === 'refused' || c.sync === 'closed').then((c) => {
      if (c.sync !== 'live') throw new Error(`the session is ${c.sync}: ${c.socket.lastError ?? 'no reason given'}`);
    });
  }

  // ---- trading (REST: it has the unknown-outcome safety of VenueRestClient.placeOrder)

  async placeOrder(request: PlaceOrderRequest, bound: RateBound = {}): Promise<Order> {
    const earlierOrderIds = request.client_order_id === undefined ? new Set<string>() : this.blotter.orderIdsWithClientOrderId(request.client_order_id);
    try {
      const order = await this.rest.placeOrder(request, bound, earlierOrderIds);
      this.take(this.blotter.upsert(order));
      return order;
    } catch (err) {
      // Neither placed for sure nor refused: looked up again shortly (and by every reconcile) until the venue
      // answers, and onDidResolvePlacement reports what it found. Waiting for a reconnection would leave the
      // trader, told to wait, without an answer for as long as the socket stays up.
      if (err instanceof OutcomeUnknownError && err.placement !== undefined) {
        this.unresolved.set(unresolvedKey(err.placement), err.placement);
        this.scheduleLookup();
      }
      throw err;
    }
  }

  async cancelOrder(selection: OrderSelection): Promise<Order> {
    const order = await this.rest.cancelOrder(selection);
    this.take(this.blotter.upsert(order));
    return order;
  }

  /** Cancel every active order (of one product); the socket and the reads after the answer bring the records. */
  async cancelAllOrders(productId?: string): Promise<number> {
    const answer = await this.rest.cancelAllOrders(productId);
    const ids = answer.cancel_requested_orders.map((o) => o.order_id);
    // The answer is the venue's: a read that fails afterwards (a rate limit, a dropped link) must not report a
    // done cancel as failed, nor a round trip per order hold up the trader's panic button.
    this.readCancelled(ids).catch((err: unknown) => this._onDidFail.fire(err as Error));
    return ids.length;
  }

  async refreshAccount(): Promise<Account | undefined> {
    if (this.userId === undefined) return undefined;
    const account = await this.rest.getAccount(this.userId);
    this.accountRecord = account;
    this._onDidChangeAccount.fire(account);
    return account;
  }

  // ---- market data

  /** Book, trades, ticker and candles of a product, over the socket where the venue serves them, else by polling. */
  async watchMarket(productId: string): Promise<void> {
    if (this.watched.has(productId)) return;
    this.watched.add(productId);
    this.bookOf(productId);
    // Until their subs are answered, on this connection or the next: a sub lost on the way (the connection's, a
    // relay's) would leave them frozen, shown as the market's, for as long as the session stays live.
    for (const channel of FEED_CHANNELS) this.setFeedDoubt(channel, productId, true);
    try {
      await Promise.all([this.socket.subscribe('level2', [productId]), ...FEED_CHANNELS.map((channel) => this.socket.subscribe(channel, [productId]))]);
    } catch (err) {
      // A refusal already switched the product to polling (onDidRefuseSubscription); anything else is
      // retried by the socket on its next connection.
      if (!(err instanceof VenueError)) this._onDidFail.fire(err as Error);
    }
  }

  async unwatchMarket(productId: string): Promise<void> {
    this.watched.delete(productId);
    for (const doubted of Object.values(this.feedsInDoubt)) doubted.delete(productId);
    this.pollers.get(productId)?.dispose();
    this.pollers.delete(productId);
    this.books.delete(productId);
    await Promise.all([this.socket.unsubscribe('level2', [productId]), ...FEED_CHANNELS.map((channel) => this.socket.unsubscribe(channel, [productId]))]).catch(() => undefined);
  }

  /** Feed a product from the public REST endpoints instead of the socket. */
  switchToPolling(productId: string, reason: VenueError): void {
    if (this.pollers.has(productId) || this.disposed) return;
    // Its trades come from the polls from now on; its ticker and candles stay in doubt, as nothing polls them.
    this.setFeedDoubt('trades', productId, false);
    const book = this.bookOf(productId);
    const poller = new MarketPoller(this.rest, productId, this.pollIntervalMs, {
      book: (snapshot) => {
        book.applySnapshot(snapshot, 'poll');
        this._onDidChangeBook.fire(book.view());
      },
      trades: (trades) => this._onDidReceiveTrades.fire({ productId, trades, source: 'poll' }),
      failed: (err) => this._onDidFail.fire(err as Error),
      // Polls that fail or go unanswered leave the last book polled: in doubt until one is answered again.
      staleness: (reason) => {
        if (reason === undefined) return;
        book.markInDoubt();
        this._onDidChangeBook.fire(book.view());
      },
    });
    this.pollers.set(productId, poller);
    this._onDidSwitchToPolling.fire({ productId, reason });
    poller.start();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.setSync('closed');
    this.disposables.dispose();
  }

  // ---- keeping the blotter true

  private socketChanged(status: SocketStatus): void {
    switch (status.state) {
      case 'open':
        // Each new connection is reconciled once; later 'open' reports only carry a heartbeat's latency.
        if (status.sessions !== this.connectionSeen) {
          this.connectionSeen = status.sessions;
          this.startReconcile(status.sessions);
        } else {
          this.fireConnection();
        }
        return;
      case 'reconnecting':
        // Nothing more streams on the connection lost, until the next one's subs are answered.
        for (const productId of this.watched) {
          if (this.pollers.has(productId)) continue;
          for (const channel of FEED_CHANNELS) this.setFeedDoubt(channel, productId, true);
        }
        this.setSync('reconnecting');
        return;
      case 'refused':
        this.setSync('refused');
        return;
      case 'closed':
        this.setSync('closed');
        return;
      case 'idle':
      case 'connecting':
      case 'authenticating':
      case 'subscribing':
        // A latency report while live leaves the session live.
        if (this.sync !== 'live') this.fireConnection();
        return;
    }
  }

  private startReconcile(connection: number): void {
    if (this.reconciling !== undefined) {
      this.reconcileAgain = true;
      return;
    }
    this.setSync('reconciling');
    this.reconciling = this.reconcileUntilDone(connection).finally(() => {
      this.reconciling = undefined;
      if (this.reconcileAgain && !this.disposed) {
        this.reconcileAgain = false;
        this.startReconcile(this.socket.currentStatus.sessions);
      }
    });
  }

  /** Reconcile, retrying with backoff while the socket stays open; a lost socket starts a new one anyway. */
  private async reconcileUntilDone(connection: number): Promise<void> {
    for (let attempt = 0; !this.disposed; attempt++) {
      try {
        const report = await this.reconcile(connection);
        if (this.disposed) return;
        if (this.socket.currentStatus.state === 'open') this.setSync('live');
        this._onDidReconcile.fire(report);
        return;
      } catch (err) {
        this._onDidFail.fire(err as Error);
        if (this.socket.currentStatus.state !== 'open') return;
        await sleep(backoffDelay({ initialMs: 250, maxMs: 5_000 }, attempt));
      }
    }
  }

  private async reconcile(connection: number): Promise<ReconcileReport> {
    const [active, history] = await Promise.all([
      this.rest.listActiveOrders(),
      this.rest.listOrderHistory({ sort: '-updated_at', limit: this.historyWindow }),
    ]);
    let changed = 0;
    const listed = new Set<string>();
    for (const order of [...history, ...active]) {
      listed.add(order.order_id);
      if (this.take(this.blotter.upsert(order))) changed++;
    }
    // Orders the desk holds as working that neither list shows moved on further back than the window.
    const behind = this.blotter.all().filter((o) => !isDone(o) && !listed.has(o.order_id)).map((o) => o.order_id);
    changed += await this.readOrders(behind);
    await this.settlePlacements();
    await this.refreshAccount().catch((err: unknown) => this._onDidFail.fire(err as Error));
    await this.backfillTrades().catch((err: unknown) => this._onDidFail.fire(err as Error));
    return { connection, changed, read: active.length + history.length + behind.length };
  }

  /**
   * The venue sends no trades snapshot on `sub`: trades made while the socket was down would never reach the
   * tape. After each (re)connection the recent trades of every streamed product are read once, oldest first, and
   * again for one whose trades sub is answered only once the session is live; the tape keeps each trade id once,
   * so what it already has is not doubled.
   */
  private async backfillTrades(productIds: Iterable<string> = this.watched): Promise<void> {
    for (const productId of productIds) {
      if (this.pollers.has(productId)) continue;
      const trades = await this.rest.listTrades(productId, BACKFILL_TRADES);
      if (trades.length > 0) this._onDidReceiveTrades.fire({ productId, trades: [...trades].reverse(), source: 'poll' });
    }
  }

  /** Cancelled orders are the latest updated: one page of those, then one by one any it does not hold. */
  private async readCancelled(ids: readonly string[]): Promise<void> {
    if (ids.length === 0 || this.disposed) return;
    const wanted = new Set(ids);
    for (const order of await this.rest.listOrderHistory({ sort: '-updated_at', limit: Math.min(1000, ids.length) })) {
      if (wanted.delete(order.order_id)) this.take(this.blotter.upsert(order));
    }
    await this.readOrders([...wanted]);
  }

  /**
   * Read orders one by one (by id or client_order_id) into the blotter; the number that changed. One the venue
   * says it does not have (E0301: restored from an older copy, a lost row) is reported and passed over: failing the
   * reconcile for it, retried for ever, would keep the session from ever being live again.
   */
  private async readOrders(ids: readonly string[]): Promise<number> {
    let changed = 0;
    for (const id of ids) {
      let order: Order;
      try {
        order = await this.rest.getOrder(id);
      } catch (err) {
        if (!(err instanceof VenueError && err.ref === 'E0301_OrderNotFound')) throw err;
        this._onDidFail.fire(new Error(`order ${id}, which the desk last saw working, is not known to the venue (${err.message}): it is shown as last seen`));
        continue;
      }
      if (this.take(this.blotter.upsert(order))) changed++;
    }
    return changed;
  }

  private scheduleLookup(): void {
    if (this.lookupTimer !== undefined || this.disposed || this.unresolved.size === 0) return;
    // Also as soon as a placement's request can no longer arrive, when that comes first: the lookup that may
    // say "not placed" is not left waiting a whole round.
    const now = Date.now();
    const settling = [...this.unresolved.values()].filter(({ settlesBy }) => settlesBy > now).map(({ settlesBy }) => settlesBy - now + 1);
    const delay = Math.min(this.placementLookupMs * 2 ** this.lookupFailures, 60_000, ...settling);
    this.lookupTimer = setTimeout(() => {
      this.lookupTimer = undefined;
      this.settlePlacements().then(
        () => {
          this.lookupFailures = 0;
          // A placement that went unknown while this lookup ran was not in it: looked up at the next round.
          this.scheduleLookup();
        },
        (err: unknown) => {
          this.lookupFailures++;
          this._onDidFail.fire(err as Error);
          this.scheduleLookup();
        },
      );
    }, delay);
  }

  /** One lookup at a time, whether a reconcile or the timer asks: each placement is resolved once. */
  private settlePlacements(): Promise<void> {
    this.settling ??= this.lookUpPlacements().finally(() => {
      this.settling = undefined;
    });
    return this.settling;
  }

  private async lookUpPlacements(): Promise<void> {
    for (const placement of [...this.unresolved.values()]) {
      if (this.disposed) return;
      const askedAt = Date.now();
      const order = await this.rest.lookUpPlacement(placement);
      // Sent again under its client order id, in doubt too, while this lookup ran: what it found (nothing yet, or
      // the new send's order) would be reported of the id, and read as the new send's answer while that may still
      // be on its way. The new send's own lookup answers.
      const key = unresolvedKey(placement);
      if (this.unresolved.get(key) !== placement) continue;
      // No such order yet, while the request may still be on its way (a slow link, a gateway still holding it):
      // "not placed" now could be wrong, and invite the trader to send it twice. Looked up again.
      if (order === undefined && askedAt < placement.settlesBy) continue;
      const { clientOrderId } = placement;
      this.unresolved.delete(key);
      if (order !== undefined) this.take(this.blotter.upsert(order));
      this._onDidResolvePlacement.fire({ clientOrderId, order });
    }
  }

  /** Pass a blotter change on; true when something changed. */
  private take(result: UpdateResult): boolean {
    switch (result.kind) {
      case 'unchanged':
        return false;
      case 'unknown':
        // An update too thin to show (another venue's minimal record): read the order in full.
        void this.rest.getOrder(result.orderId).then(
          (order) => this.take(this.blotter.upsert(order)),
          (err: unknown) => this._onDidFail.fire(err as Error),
        );
        return false;
      case 'changed':
        this.userId ??= result.order.user_id;
        this._onDidChangeOrders.fire([result.order]);
        this.scheduleAccountRefresh();
        return true;
    }
  }

  private scheduleAccountRefresh(): void {
    if (this.accountTimer !== undefined || this.disposed || this.sync !== 'live') return;
    this.accountTimer = setTimeout(() => {
      this.accountTimer = undefined;
      this.refreshAccount().catch((err: unknown) => this._onDidFail.fire(err as Error));
    }, ACCOUNT_REFRESH_DELAY_MS);
  }

  /**
   * Whether the socket feeds the product's book: watched, and not polled. The snapshot of a sub still on its way when
   * the product was unwatched comes after it, and would bring back a book nobody watches.
   */
  private streams(productId: string): boolean {
    return this.watched.has(productId) && !this.pollers.has(productId);
  }

  /** Said once a change: true when the feed's doubt changed. */
  private setFeedDoubt(channel: FeedChannel, productId: string, inDoubt: boolean): boolean {
    const doubted = this.feedsInDoubt[channel];
    if (doubted.has(productId) === inDoubt) return false;
    if (inDoubt) doubted.add(productId);
    else doubted.delete(productId);
    this._onDidChangeFeedDoubt.fire({ productId, channel, inDoubt });
    return true;
  }

  private bookOf(productId: string): LocalBook {
    let book = this.books.get(productId);
    if (book === undefined) {
      book = new LocalBook(productId);
      this.books.set(productId, book);
    }
    return book;
  }

  private setSync(sync: SyncState): void {
    this.sync = sync;
    this.fireConnection();
  }

  private fireConnection(): void {
    this._onDidChangeConnection.fire({ sync: this.sync, socket: this.socket.currentStatus });
  }
}

/**
 * A placement's key among the unresolved: a send under an id that differs only in letter case is a send under the
 * same id, and takes the place of the one before (whose answer would be read as its own).
 */
function unresolvedKey(placement: LostPlacement): string {
  return clientOrderIdKey(placement.clientOrderId);
}
