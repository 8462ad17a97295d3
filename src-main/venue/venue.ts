/**
 * The local venue's state: the exchange in memory, made durable by the store, with the API keys. Opening a
 * data folder restores everything a previous run acknowledged; the first open of an empty folder creates the
 * venue's fee account and the local user (funded, admin) and writes bootstrap.json.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, existsSync, fchmodSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { apiError, type ApiError } from '../../src-shared/errors/api-error';
import { isReason, toAtoms } from '../../src-shared/protocol/decimal';
import { DEFAULT_MAKER_FEE_RATE, DEFAULT_TAKER_FEE_RATE, LOCAL_USER_BALANCES, findAsset } from '../../src-shared/protocol/products';
import { KeyRing } from './accounts/key-ring';
import { UsedSignatures } from './accounts/used-signatures';
import { DEFAULT_MAX_OPEN_ORDERS } from './defaults';
import { newUuidV7 } from './ids';
import type { Level2Change, TickerEvent } from '../../src-shared/protocol/ws';
import { Exchange, FEE_ACCOUNT_ID, STARTING_BALANCES_KEY, type CancelTarget, type OrderEvent } from './exchange/exchange';
import { RECENT_TRADES, bookSequenceKey } from './exchange/market';
import { tickerOf } from './market-data/feed';
import { PublishedBook } from './market-data/level2';
import { claimDatabase, lockDataFolder, openStore, syncFolder, type ApiKeyRow, type CandleRow, type ChangeSet, type FolderLock, type Snapshot, type TradeRow, type VenueStore } from './store';

export interface VenueOptions {
  dataDir: string;
  nativeBinding?: string;
  maxOpenOrders?: number;
  /** UNIX nanoseconds; injected so tests can move time. */
  now?: () => bigint;
  /**
   * Whether bootstrap.json carries the local user's api_secret (the venue contract's headless default). The
   * desk's embedded venue turns it off and takes the credentials in memory from localCredentials().
   */
  secretInBootstrap?: boolean;
  /** A turn of the event loop that runs this many commands commits them without waiting for its end. */
  commitEvery?: number;
}

/** What one commit made durable. */
export interface CommittedBatch {
  orders: OrderEvent[];
  trades: TradeRow[];
  /** Level diffs of the books someone watches (see watchBook). */
  books: BookChange[];
  /** Every product whose book changed. */
  changedBooks: string[];
  /** The candles its trades changed, as they stood when it was taken. */
  candles: CandleRow[];
  /** The ticker of every watched product whose book or trades it changed, taken with it (see watchTicker). */
  tickers: Map<string, TickerEvent>;
}

export interface BookChange {
  productId: string;
  sequence: number;
  changes: Level2Change[];
}

/**
 * Commands per commit within one turn of the event loop. Measured (bench/committed-orders.ts, 2,000 in flight):
 * one commit per turn 33 k orders/s, every 64 commands 42-44 k/s, every 256 about the same; bench/ws.ts (256 in
 * flight on one connection) did best at 64.
 */
export const DEFAULT_COMMIT_EVERY = 64;

interface PendingCommit {
  commands: number;
  done: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}
const MASTER_KEY_FILE = 'venue.key';
/** What a fresh folder's master key is made of (KeyRing takes no less). */
const MASTER_KEY_BYTES = 32;
const DATABASE_FILE = 'venue.sqlite';
const BOOTSTRAP_FILE = 'bootstrap.json';
/** The name of the local user's first key, by which a restart finds it. */
const LOCAL_KEY_NAME = 'local';


export class Venue {
  readonly exchange: Exchange;
  readonly store: VenueStore;
  readonly keys: KeyRing;
  /** WebSocket auth signatures taken, committed with the venue's other changes (see UsedSignatures). */
  readonly usedSignatures: UsedSignatures;
  readonly now: () => bigint;
  /**
   * The time as clients' clocks tell it: the wall clock, without the floor `now` keeps at the folder's newest time.
   * The WebSocket auth's timestamp window is measured against it: a folder written while the clock ran ahead would
   * otherwise refuse every auth as stale until the real time caught up. Expiries (keys, GTT orders) stay on `now`,
   * which never goes back: on this clock a key that expired while the clock ran ahead would work again.
   */
  readonly wallNow: () => bigint;
  private closed = false;
  /** Why a commit failed, once one has: from then on memory holds changes the disk does not (see run). */
  private halted: Error | undefined;
  private readonly haltListeners = new Set<(reason: Error) => void>();
  private turn: PendingCommit | undefined;
  /** The time of the command running (see run): the exchange's clock while it runs. */
  private commandAt: bigint | undefined;
  private readonly orderEvents: OrderEvent[] = [];
  private readonly committedListeners = new Set<(batch: CommittedBatch) => void>();
  private stopCollecting: (() => void) | undefined;
  /** Books someone watches as level diffs, with how many watchers. */
  private readonly level2 = new Map<string, { book: PublishedBook; watchers: number }>();
  /** Products whose ticker someone watches, with how many watch it (see watchTicker). */
  private readonly tickerWatchers = new Map<string, number>();
  /** Commits handed over and not yet complete (see settle). */
  private readonly committing = new Set<Promise<void>>();
  /** Reads waiting for the turn in progress to end (see afterTurn). */
  private readonly turnReaders: (() => void)[] = [];

  static async open(options: VenueOptions): Promise<Venue> {
    const venue = new Venue(options);
    try {
      if (venue.fresh) await venue.createLocalUser();
    } catch (err) {
      await venue.close().catch(() => undefined);
      throw err;
    }
    return venue;
  }

  private readonly fresh: boolean;
  /** This folder is ours while the venue is open (see folder-lock.ts). */
  private readonly lock: FolderLock;
  private readonly commitEvery: number;

  /** The wall clock, unless the options gave one (tests): held at or past what the folder holds (see restore). */
  private readonly wallClock: ReturnType<typeof monotonicNanos> | undefined;

  private constructor(readonly options: VenueOptions) {
    if (options.now === undefined) {
      this.wallClock = monotonicNanos();
      this.now = this.wallClock.now;
      this.wallNow = () => BigInt(Date.now()) * 1_000_000n;
    } else {
      this.wallClock = undefined;
      this.now = options.now;
      this.wallNow = options.now;
    }
    this.commitEvery = options.commitEvery ?? DEFAULT_COMMIT_EVERY;
    if (!Number.isSafeInteger(this.commitEvery) || this.commitEvery < 1) throw new RangeError(`commitEvery must be a positive integer, got ${this.commitEvery}`);
    makeDataFolder(options.dataDir);
    this.lock = lockDataFolder(options.dataDir, options.nativeBinding);
    let store: VenueStore | undefined;
    const keyFile = join(options.dataDir, MASTER_KEY_FILE);
    let hadKey = existsSync(keyFile);
    try {
      checkDataFolderWritable(options.dataDir);
      claimDatabase(join(options.dataDir, DATABASE_FILE), options.dataDir, options.nativeBinding);
      this.store = store = openStore(join(options.dataDir, DATABASE_FILE), options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding });
      // The tape's length of trades per product, so GET /products/{id}/trades answers as before the restart.
      const snapshot = this.store.load(RECENT_TRADES);
      this.fresh = snapshot.users.length === 0;
      if (!this.fresh && !hadKey) {
        // A new master key would derive other secrets than the ones the traders hold: every key would fail
        // (REST hashes still match, WebSocket signatures would not) and bootstrap.json would be written wrong.
        throw new Error(`${keyFile} is missing, and this folder has accounts whose API secrets are derived from it: put it back (from a backup), or start on an empty folder`);
      }
      // A first start cut off between making its key file and writing it (a power cut, a kill) left the file short
      // or empty, and every later start refused the folder as if its accounts' key were wrong. With no account yet,
      // nothing derives from it: it is made again.
      if (this.fresh && hadKey && isShortFile(keyFile)) {
        rmSync(keyFile);
        hadKey = false;
      }
      this.keys = openKeyRing(keyFile, snapshot.apiKeys);
      this.usedSignatures = UsedSignatures.restore(snapshot.meta);
      this.exchange = new Exchange({
        now: () => this.commandAt ?? this.now(),
        newId: () => newUuidV7(),
        maxOpenOrders: options.maxOpenOrders ?? DEFAULT_MAX_OPEN_ORDERS,
      });
      this.exchange.setArchive(this.store);
      this.store.onDiskFault((fault) => this.halt(fault));
      if (!this.fresh) this.restore(snapshot);
    } catch (err) {
      // A key made by this open goes too: left behind, the next open would take it for the folder's own.
      if (!hadKey) rmSync(keyFile, { force: true });
      store?.close();
      this.lock.release();
      throw namingFolder(options.dataDir, err);
    }
  }

  /**
   * Run a command against the exchange and make what it changed durable before resolving: callers answer a
   * client only after this resolves. The command runs at once; what the commands of this turn of the event
   * loop changed is taken and committed together once the turn ends (group commit at the source: an order
   * changed by several commands, or a balance by a thousand, is written once), and each caller resolves when
   * that commit is durable. A turn that runs many commands (a burst read off one socket) hands them over every
   * `commitEvery` commands, so the writer thread makes the first ones durable while the core matches the rest
   * instead of both waiting for each other.
   */
  async run<T>(command: () => T): Promise<T> {
    if (this.halted !== undefined) throw haltedError(this.halted);
    let value: T | undefined;
    let failure: unknown;
    let failed = false;
    // The clock ticks every 50 ms: the GTT orders whose expired_at has passed since end as the command comes in,
    // before it runs, so that it neither meets them nor counts their end among its own doings (the WebSocket tags
    // each update of the requesting user's orders made while a request runs as that request's answer). The
    // command runs at the instant it came in, for the exchange: at a later one, an order whose expired_at fell
    // in between would end inside it after all.
    const outer = this.commandAt;
    this.commandAt = outer ?? this.now();
    try {
      this.exchange.expireDue();
      value = command();
    } catch (err) {
      failed = true;
      failure = err;
    } finally {
      this.commandAt = outer;
    }
    // Whatever the command changed is committed even when it then threw: memory and disk never disagree.
    await this.commitTurn();
    if (failed) throw failure;
    return value as T;
  }

  /**
   * The commit that will hold what the command just run changed: scheduled for the end of the turn by the turn's
   * first command, handed over at once by its `commitEvery`-th.
   */
  private commitTurn(): Promise<void> {
    let turn = this.turn;
    if (turn === undefined) {
      const opened: PendingCommit = { commands: 0, done: Promise.resolve(), resolve: () => undefined, reject: () => undefined };
      opened.done = new Promise<void>((resolve, reject) => {
        opened.resolve = resolve;
        opened.reject = reject;
      });
      setImmediate(() => this.endTurn(opened, false));
      this.turn = turn = opened;
    }
    turn.commands += 1;
    if (turn.commands >= this.commitEvery) this.endTurn(turn, true);
    return turn.done;
  }

  private endTurn(turn: PendingCommit, early: boolean): void {
    if (this.turn !== turn) return;
    this.turn = undefined;
    // Taking the turn's changes (its book sequence among them) happens before commitChanges first awaits.
    const committed = this.commitChanges(early).then(turn.resolve, (err: unknown) => {
      this.halt(err instanceof Error ? err : new Error(String(err)));
      turn.reject(err);
    });
    this.committing.add(committed);
    void committed.finally(() => this.committing.delete(committed));
    for (const read of this.turnReaders.splice(0)) read();
  }

  /**
   * Runs `read` where a book is the state its sequence names: at once when no turn is in progress, otherwise
   * as soon as the turn's changes are taken, before the next command. Read in the middle of a turn, a book is
   * half of the change its sequence names: a level2 snapshot so taken made its subscriber skip the update that
   * held the other half, and the subscriber never saw a gap. `read` must not throw.
   */
  afterTurn(read: () => void): void {
    if (this.turn === undefined) read();
    else this.turnReaders.push(read);
  }

  /**
   * Why the caller's order, found not working when this is called, cannot be cancelled: E0302 if it is done, E0301
   * if there is none. Answered once every change made before the call is durable and in the tables (an order done
   * a moment ago is not answered for before its commit), waiting for the tables without blocking this thread; an
   * order made after the call (the same client order id again) is never the one named.
   */
  async cancelRefusal(userId: string, target: CancelTarget): Promise<ApiError> {
    const seenThrough = this.exchange.lastSeq;
    await this.inTables();
    return this.exchange.cancelRefusal(userId, target, seenThrough);
  }

  /**
   * Resolves once every change made before the call is durable and in the tables, without blocking this thread.
   * A turn with nothing to commit resolves at once, before the commits still in flight: those are waited for too,
   * or an order another request finished a moment ago is in neither the exchange nor the tables yet.
   */
  async inTables(): Promise<void> {
    await this.run(() => undefined);
    await Promise.all([...this.committing]);
    await this.store.caughtUp();
  }

  /**
   * An answer read from memory (active orders, an account, a book, the tape): read between turns (afterTurn),
   * and resolved once every commit it can reflect is durable, so it never shows what a crash could still undo.
   * Rejects with `read`'s error, or the commit's if that failed.
   */
  readDurable<T>(read: () => T): Promise<T> {
    return new Promise((resolve, reject) => {
      this.afterTurn(() => {
        let value: T;
        try {
          value = read();
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        // A commit that failed halts the venue (its promise here resolves): what was read is then not durable.
        Promise.all([...this.committing]).then(() => (this.halted === undefined ? resolve(value) : reject(haltedError(this.halted))), reject);
      });
    });
  }

  /**
   * Resolves once every command run so far is committed and its events published (or its commit failed):
   * the turn in progress is handed over now. A host stopping the venue waits for this before it closes its
   * connections, so the answers to what they sent go out first.
   */
  async settle(): Promise<void> {
    if (this.turn !== undefined) this.endTurn(this.turn, true);
    await Promise.all([...this.committing]);
  }

  /**
   * A commit failed: what its turn changed is in memory and not on disk, and later commands would build on it
   * (a trade against an order the tables never got). So the venue stops taking commands rather than diverge,
   * and its host restarts it, which resumes from exactly what was committed. Nothing acknowledged is lost: an
   * answer is sent only after its commit.
   */
  private halt(reason: Error): void {
    if (this.halted !== undefined) return;
    this.halted = reason;
    for (const listener of this.haltListeners) listener(reason);
  }

  /** Called once if the venue halts (see halt): its host should close it and start it again. */
  onHalt(listener: (reason: Error) => void): () => void {
    this.haltListeners.add(listener);
    return () => this.haltListeners.delete(listener);
  }

  /** `now`: hand the batch to the writer thread now rather than with the rest of the turn's commits. */
  private async commitChanges(now: boolean): Promise<void> {
    const changes = this.takeChanges();
    const trades = changes.trades ?? [];
    const books = this.bookChanges();
    const batch: CommittedBatch = { orders: this.orderEvents.splice(0), trades, ...books, candles: changes.candles ?? [], tickers: this.tickers(books.changedBooks, trades) };
    if (Object.keys(changes).length > 0) await this.store.commit(changes, now);
    if (batch.orders.length > 0 || batch.trades.length > 0 || batch.changedBooks.length > 0) {
      for (const listener of this.committedListeners) listener(batch);
    }
  }

  /** Called after each commit with what it made durable, in commit order: the source of every push event. */
  onCommitted(listener: (batch: CommittedBatch) => void): () => void {
    // Order events are copies made on every change: collect them only while someone will read them.
    if (this.committedListeners.size === 0) this.stopCollecting = this.exchange.onOrderEvent((event) => this.orderEvents.push(event));
    this.committedListeners.add(listener);
    return () => {
      this.committedListeners.delete(listener);
      if (this.committedListeners.size > 0) return;
      this.stopCollecting?.();
      this.stopCollecting = undefined;
    };
  }

  /**
   * Someone (a level2 subscriber) wants this product's book changes as level diffs; until nobody does, the
   * venue only counts changes. Returns the function that ends this interest.
   */
  watchBook(productId: string): () => void {
    const market = this.exchange.markets.get(productId);
    if (market === undefined) throw new Error(`unknown product ${productId}`);
    let watched = this.level2.get(productId);
    if (watched === undefined) {
      watched = { book: new PublishedBook(market), watchers: 0 };
      this.level2.set(productId, watched);
    }
    watched.watchers += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const current = this.level2.get(productId);
      if (current === undefined) return;
      current.watchers -= 1;
      if (current.watchers === 0) this.level2.delete(productId);
    };
  }

  /**
   * The tickers a batch publishes, as they stand when it is taken: published later, a ticker read then could show
   * trades and book changes of commands still being committed, ahead of the trades and level2 events.
   */
  private tickers(changedBooks: readonly string[], trades: readonly TradeRow[]): Map<string, TickerEvent> {
    const tickers = new Map<string, TickerEvent>();
    if (this.tickerWatchers.size === 0) return tickers;
    const now = this.now();
    const take = (productId: string): void => {
      const market = this.exchange.markets.get(productId);
      if (market !== undefined && this.tickerWatchers.has(productId) && !tickers.has(productId)) tickers.set(productId, tickerOf(market, now));
    };
    for (const productId of changedBooks) take(productId);
    for (const trade of trades) take(trade.productId);
    return tickers;
  }

  /**
   * Someone (a ticker subscriber) wants this product's ticker with each commit that changes it; a ticker sums a
   * day of candles, so it is built only while someone does. Returns the function that ends this interest.
   */
  watchTicker(productId: string): () => void {
    if (!this.exchange.markets.has(productId)) throw new Error(`unknown product ${productId}`);
    this.tickerWatchers.set(productId, (this.tickerWatchers.get(productId) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.tickerWatchers.get(productId) ?? 1) - 1;
      if (left === 0) this.tickerWatchers.delete(productId);
      else this.tickerWatchers.set(productId, left);
    };
  }

  private bookChanges(): { books: BookChange[]; changedBooks: string[] } {
    const books: BookChange[] = [];
    const changedBooks: string[] = [];
    for (const market of this.exchange.markets.values()) {
      if (!market.bookChanged) continue;
      market.bookChanged = false;
      changedBooks.push(market.id);
      const watched = this.level2.get(market.id);
      if (watched === undefined) continue;
      // The turn's number was taken with its first change (Market.sequence): an update goes out even when the
      // turn's changes cancelled out (an order placed and cancelled), so the numbers stay without gaps.
      books.push({ productId: market.id, sequence: market.sequence, changes: watched.book.diff() });
    }
    return { books, changedBooks };
  }

  /** Write bootstrap.json (mode 0600) with the urls this run listens on. */
  writeBootstrap(baseUrl: string, wsUrl: string): void {
    const file = join(this.options.dataDir, BOOTSTRAP_FILE);
    const local = this.localCredentials();
    if (local === undefined) return;
    const withSecret = this.options.secretInBootstrap ?? true;
    const content = withSecret ? { ...local, base_url: baseUrl, ws_url: wsUrl } : { user_id: local.user_id, api_key: local.api_key, base_url: baseUrl, ws_url: wsUrl };
    replaceDurably(file, JSON.stringify(content, null, 2) + '\n');
  }

  /**
   * The local user and its key, with the secret derived again: for the host that embeds this venue. Found in
   * the tables (the admin's first key, named LOCAL_KEY_NAME), not in bootstrap.json: a first start that stopped
   * before writing the file (a busy port, a signal) or a file deleted by hand loses nothing.
   */
  localCredentials(): { user_id: string; api_key: string; api_secret: string } | undefined {
    const key = this.keys.oldestNamed(LOCAL_KEY_NAME, (userId) => this.exchange.user(userId)?.isAdmin === true);
    if (key === undefined) return undefined;
    const secret = this.keys.secretOf(key.apiKey);
    return secret === undefined ? undefined : { user_id: key.userId, api_key: key.apiKey, api_secret: secret };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.halted === undefined) await this.run(() => undefined);
      await this.store.flush();
      this.store.close();
    } finally {
      // A close that failed left its journal for the next start to apply: that start must find the folder free.
      this.lock.release();
    }
  }

  private restore(snapshot: Snapshot): void {
    this.wallClock?.notBefore(snapshot.newestTime);
    for (const user of snapshot.users) this.exchange.addUser(user);
    for (const b of snapshot.balances) this.exchange.ledger.restore(b.userId, b.asset, b.free, b.locked);
    const starting = snapshot.meta[STARTING_BALANCES_KEY];
    if (starting !== undefined) this.exchange.restoreStartingBalances(starting);
    // Only an order that has traded has fills to restore: asking for all 100,000 resting ones costs a query
    // over a JSON list of every id.
    const tradesByOrder = this.store.tradesByOrder(snapshot.openOrders.filter((o) => o.filledBaseSize !== '0').map((o) => o.orderId));
    for (const order of snapshot.openOrders) this.exchange.restoreOrder(order, tradesByOrder.get(order.orderId) ?? []);
    this.exchange.restoreCounters(snapshot.maxOrderSeq, snapshot.lastTradeSeq);
    for (const market of this.exchange.markets.values()) market.restoreSequence(snapshot.meta[bookSequenceKey(market.id)]);
    for (const m of snapshot.markets) {
      const market = this.exchange.markets.get(m.productId);
      if (market === undefined) continue;
      market.restore(m.lastTradePrice, [...m.recentTrades].reverse(), m.candles);
    }
    // A restart discards nothing in flight: the ledger and rows are exactly as committed.
    this.exchange.ledger.drainChanged();
  }

  private async createLocalUser(): Promise<void> {
    this.exchange.createUser({ isAdmin: false, makerFeeRate: '0', takerFeeRate: '0', id: FEE_ACCOUNT_ID });
    const user = this.exchange.createUser({ isAdmin: true, makerFeeRate: DEFAULT_MAKER_FEE_RATE, takerFeeRate: DEFAULT_TAKER_FEE_RATE });
    for (const [asset, amount] of Object.entries(LOCAL_USER_BALANCES)) {
      const spec = findAsset(asset);
      if (spec === undefined) throw new Error(`LOCAL_USER_BALANCES names unknown asset ${asset}`);
      const atoms = toAtoms(amount, spec.decimals);
      if (isReason(atoms)) throw new Error(`LOCAL_USER_BALANCES ${asset}: ${atoms.reason}`);
      this.exchange.fund(user.id, asset, atoms);
    }
    this.keys.create(user.id, { name: LOCAL_KEY_NAME, readOnly: false, expiredAt: null }, this.now());
    await this.store.commit(this.takeChanges());
  }

  /** What the exchange and the key ring changed since the last call: one change set, so one commit holds both. */
  private takeChanges(): ChangeSet {
    const changes = this.exchange.takeChanges();
    const keys = this.keys.takeChanges();
    if (keys.length > 0) changes.apiKeys = keys;
    const signatures = this.usedSignatures.takeChanges();
    if (signatures !== undefined) changes.meta = { ...changes.meta, ...signatures };
    return changes;
  }
}

/**
 * The data folder, made if missing. mkdir's own words name the wrong cause or none: a file in the folder's place is
 * a bare EEXIST, and a read-only disk under a folder to make is ENOENT.
 */
function makeDataFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    let existing = resolve(dir);
    while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
    if (existing === resolve(dir) && !statSync(existing).isDirectory()) throw new Error(`the data folder ${dir} is a file, not a folder`, { cause: err });
    const blocked = statSync(existing).isDirectory() ? writeRefusal(existing) : `${existing} is a file, not a folder`;
    throw new Error(`the data folder ${dir} cannot be made: ${blocked ?? (err instanceof Error ? err.message : String(err))}`, { cause: err });
  }
}

/**
 * A failure to open the folder, naming it: what restoring its rows throws ("Unexpected token ... is not valid
 * JSON", of a damaged meta row) names no place. One that names the folder or a file in it already is kept as it is.
 */
function namingFolder(dir: string, err: unknown): unknown {
  if (!(err instanceof Error) || err.message.includes(dir) || err.message.includes(join(dir))) return err;
  return new Error(`the data folder ${dir} could not be opened: ${err.message}`, { cause: err });
}

/** Why a folder cannot be written in, said plainly, or undefined if it can. */
function writeRefusal(folder: string): string | undefined {
  try {
    accessSync(folder, constants.W_OK);
    return undefined;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'EROFS') return `${folder} is on a read-only file system`;
    if (code === 'EACCES' || code === 'EPERM') return `${folder} may not be written by this user`;
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * A used folder on a read-only disk opens its lock (a lock only reads), then fails in SQLite's words, "unable to
 * open database file", naming neither the folder nor the cause: said here first.
 */
function checkDataFolderWritable(dir: string): void {
  const probe = join(dir, '.writable');
  try {
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (err) {
    const refusal = writeRefusal(dir);
    const reason = refusal === undefined ? (err instanceof Error ? err.message : String(err)) : refusal.startsWith(dir) ? `it${refusal.slice(dir.length)}` : refusal;
    throw new Error(`the data folder ${dir} cannot be written: ${reason}`, { cause: err });
  }
}

/** Shorter than a master key (a folder in its place is not: it is reported as unreadable). */
function isShortFile(file: string): boolean {
  const stats = statSync(file);
  return stats.isFile() && stats.size < MASTER_KEY_BYTES;
}

/** The folder's master key (made for a fresh folder), checked against the keys it derived. */
function openKeyRing(file: string, stored: readonly ApiKeyRow[]): KeyRing {
  if (!existsSync(file)) writeDurably(file, randomBytes(MASTER_KEY_BYTES));
  // A key that cannot be read (permissions, a folder in its place) is not a wrong one: the error says which.
  let master: Buffer;
  try {
    master = readFileSync(file);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`could not read ${file}, the master key of this folder's API secrets (${reason})`, { cause: err });
  }
  try {
    const keys = new KeyRing(master);
    keys.load(stored);
    return keys;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`${file} is not the master key of this folder's API secrets (${reason}): put the right one back (from a backup), or start on an empty folder`, { cause: err });
  }
}

/** Written once, synced with its folder: accounts committed after it must never outlive it in a power cut. */
function writeDurably(file: string, bytes: Buffer): void {
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  syncFolder(dirname(file));
}

/**
 * The file replaced whole (mode 0600): written beside it, synced, renamed over it. Written in place, a start killed
 * mid-write, or a client reading it then, found a cut-off file. The name beside it is the venue's alone: the
 * folder is locked, and one left by a kill is written afresh.
 */
function replaceDurably(file: string, text: string): void {
  const temporary = `${file}.tmp`;
  try {
    // Removed first, so the file is made here with its mode, and a link left in its place is not followed.
    rmSync(temporary, { force: true });
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      // The mode asked at creation is narrowed by the umask; the secret's file is the owner's to read and write.
      fchmodSync(fd, 0o600);
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (err) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // What went wrong is the error below; a temporary file that cannot go either is removed by the next start.
    }
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`could not write ${file} (${reason})`, { cause: err });
  }
  syncFolder(dirname(file));
}

function haltedError(reason: Error): Error {
  return apiError('E0901_InternalError', `the venue stopped taking commands after a write failed (${reason.message}); restart it to resume from what it committed`);
}

/**
 * Wall-clock nanoseconds that never go backwards within a run, so created_at orders match seq order, nor behind
 * `notBefore` (what the folder already holds): a system clock set back between two runs would otherwise stamp new
 * trades before the newest stored candle, which takes them for late and leaves them out of the chart and the
 * 24-hour figures, and new orders before older ones.
 */
function monotonicNanos(): { now: () => bigint; notBefore: (floor: bigint) => void } {
  let last = 0n;
  return {
    now: () => {
      const now = BigInt(Date.now()) * 1_000_000n;
      last = now > last ? now : last + 1n;
      return last;
    },
    notBefore: (floor) => {
      if (floor > last) last = floor;
    },
  };
}
