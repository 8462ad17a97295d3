/**
 * The desk: what the windows call, under plain Node (ARCHITECTURE rule 2) so Electron and browser mode run the
 * same thing. It owns the environments (Local, the embedded venue, by default; Development and Production at
 * addresses the trader sets), the one venue session of the active environment, the trader's keys and settings,
 * and the event hub the windows' transports listen to.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import { lookupErrors } from '../../src-shared/errors/api-error';
import type { ErrorCodeRecord, ErrorRef } from '../../src-shared/errors/catalogue';
import type {
  BookSnapshot,
  ConnectionStatus,
  Environment,
  EnvironmentId,
  EnvironmentsView,
  EventPayload,
  Fill,
  ParsedRequest,
  PlaceResult,
  Session,
  Settings,
  StoredKey,
  Ticker,
  WatchAnswer,
} from '../../src-shared/ipc/contract';
import { MAX_LAYOUT_BYTES, MarketFeed } from '../../src-shared/ipc/contract';
import { ENVIRONMENT_NAMES as NAMES } from '../../src-shared/ipc/environment-names';
import { sameClientOrderId } from '../../src-shared/client-order-id';
import type { Account, BookLevel, Order, Product, PublicTrade } from '../../src-shared/protocol/records';
import { MAX_ARCHIVED_LIMIT, MAX_BOOK_DEPTH } from '../../src-shared/protocol/queries';
import type { Candle } from '../../src-shared/protocol/ws';
import { DisposableStore, type Disposable } from '../connection/events';
import type { BookView } from '../connection/local-book';
import { MarketPoller } from '../connection/market-poller';
import { VenueRestClient, type RateBound, type VenueCredentials } from '../connection/rest-client';
import { OutcomeUnknownError, VenueError, VenueProtocolError, VenueUnreachableError } from '../connection/venue-error';
import { VenueSession, type VenueSessionOptions } from '../connection/venue-session';
import { SecretStoreError, type SecretStore } from '../secrets';
import type { FolderLock } from '../venue/store/folder-lock';
import { DeskError } from './desk-error';
import { SessionReadFailure } from './dispatch';
import { DeskEvents } from './desk-events';
import { DeskFile, type KeyRecord } from './desk-file';
import { lockDeskFolder } from './desk-lock';
import type { EmbeddedVenue } from './embedded-venue';
import { KeyVault, type RevealSecretOnce } from './key-vault';
import { limitPriceOf, measuredByBook, preTradeIssues, type MarketReference } from './pre-trade';

export interface DeskOptions {
  /** The desk's data folder: desk.json, and the local venue's folder under it. */
  readonly dataDir: string;
  readonly secrets: SecretStore;
  /** Starts the embedded venue on a data folder (a worker thread in Electron and in browser mode). */
  readonly launchLocalVenue: (venueDataDir: string) => EmbeddedVenue;
  /** The desktop app shows a created key's secret once in a native dialog; browser mode and tests have none. */
  readonly revealSecretOnce?: RevealSecretOnce;
  /** Electron's build of SQLite, for the data folder's lock (see desk-lock.ts); Node's own is found without it. */
  readonly nativeBinding?: string;
  /** Tuning of the venue clients (tests shorten timeouts). */
  readonly session?: Pick<VenueSessionOptions, 'rest' | 'socket' | 'historyWindow' | 'pollIntervalMs' | 'placementLookupMs'>;
  /** How long a note stays in the connection status (NOTE_SHOWN_MS; tests shorten it). */
  readonly noteShownMs?: number;
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
/** How deep a book reaches a window: a ladder's worth. */
export const BOOK_DEPTH = 50;
const MAX_CANDLES = 60;
/** Reads of order history a fills list may take: up to this many thousand orders back. */
const FILL_READS = 10;
const PUBLIC_POLL_MS = 1_000;
/** How long a failed background read, or a placement's lookup, stays in the connection status (see shownNote). */
const NOTE_SHOWN_MS = 60_000;

export class Desk implements Disposable {
  readonly events = new DeskEvents();
  readonly keys: KeyVault;
  private readonly file: DeskFile;
  private readonly folderLock: FolderLock | undefined;
  private readonly localVenue: EmbeddedVenue;
  private session: VenueSession | undefined;
  private sessionKey: KeyRecord | undefined;
  private sessionEnvironment: EnvironmentId;
  private readonly sessionListeners = new Set<Disposable>();
  private publicClient: VenueRestClient | undefined;
  /** Without a key there is no session; the public endpoints still show the market, polled. */
  private readonly publicPollers = new Map<string, MarketPoller>();
  private detail = '';
  /**
   * The last background read of the session that failed (a reconcile, an account refresh, a read after cancel
   * all): the session retries some and not others, and the trader would otherwise not know the panels may lag.
   */
  private backgroundFailure: { text: string; at: number } | undefined;
  /**
   * What the lookup of each order whose outcome was unknown found, by environment and client_order_id: the
   * trader, told to wait for it rather than send the order again, reads it here, since a placement that never
   * happened shows nowhere else. One a placement, each for its minute, whatever the desk does meanwhile: two lost
   * at once must not have the first's answer replaced by the second's, nor a reconnect (another key, an address
   * saved, a switch) take away an answer given a moment before. Each names its environment. `notPlaced`: the
   * lookup found none, which the status also gives by client_order_id.
   */
  private readonly placementNotes = new Map<string, { text: string; at: number; notPlaced?: true }>();
  /** Sends the status again when the next note shown runs out (see scheduleNoteExpiry). */
  private noteExpiry: ReturnType<typeof setTimeout> | undefined;
  /** Product → the windows that watch it. */
  private readonly watched = new Map<string, Set<string>>();
  /**
   * Window → product → the latest watch or unwatch call of it. A watch waits for the product check before it
   * counts the window: one overtaken meanwhile by the window's unwatch, or by its closing, must not count it then,
   * or the product would stay streamed for a window that is gone.
   */
  private readonly watchCalls = new Map<string, Map<string, number>>();
  private lastWatchCall = 0;
  private readonly tickers = new Map<string, Ticker>();
  private readonly candles = new Map<string, Candle[]>();
  private products: Product[] | undefined;
  /** Switches run one after another, so two quick clicks cannot leave two sessions open. */
  private switching: Promise<unknown> = Promise.resolve();
  private readonly disposables = new DisposableStore();
  private disposed = false;
  /** The active environment cannot be reached at all (the local venue did not start): `detail` says why. */
  private unreachable = false;

  private constructor(private readonly options: DeskOptions) {
    mkdirSync(options.dataDir, { recursive: true });
    // Before the desk file is read or the local venue started: a second desk on the folder does neither.
    this.folderLock = lockDeskFolder(options.dataDir, options.nativeBinding);
    try {
      this.file = DeskFile.open(options.dataDir);
      this.keys = new KeyVault(this.file, options.secrets, options.revealSecretOnce);
      this.localVenue = options.launchLocalVenue(join(options.dataDir, 'local-venue'));
    } catch (err) {
      this.folderLock?.release();
      throw err;
    }
    this.sessionEnvironment = this.file.get().active;
    this.disposables.add(this.events);
  }

  /**
   * Opens the desk and connects the active environment once the local venue has started or failed to. A local
   * venue that cannot start (a folder another venue holds, a native module built for another runtime) leaves the
   * desk open: its status says why, and Development and Production still work.
   */
  static async open(options: DeskOptions): Promise<Desk> {
    const desk = new Desk(options);
    try {
      await desk.localVenue.ready().catch(() => undefined);
      await desk.connect();
    } catch (err) {
      // What stopped the opening is the news; a close that fails after it would only hide it.
      await desk.close().catch(() => undefined);
      throw err;
    }
    return desk;
  }

  // ---- environments and connection

  venueStatus(): ReturnType<EmbeddedVenue['status']> {
    return this.localVenue.status();
  }

  environments(): EnvironmentsView {
    const content = this.file.get();
    const local = this.localVenue.status();
    const environment = (id: EnvironmentId): Environment => {
      // A desk file from before addresses with a user name and password were refused may hold one: the desk does
      // not connect there (addressesRefusal), and no window is shown the password.
      const shown = (stored: { baseUrl: string; wsUrl: string }): { baseUrl: string; wsUrl: string } => ({ baseUrl: withoutUserInfo(stored.baseUrl), wsUrl: withoutUserInfo(stored.wsUrl) });
      const addresses = id === 'local' ? { baseUrl: local.baseUrl, wsUrl: local.wsUrl } : shown(content.addresses[id]);
      const activeKey = content.activeKeys[id];
      return {
        id,
        name: NAMES[id],
        ...addresses,
        production: id === 'production',
        confirmOrders: content.settings.confirmOrders[id],
        ...(activeKey === undefined ? {} : { activeKey }),
      };
    };
    return { active: content.active, environments: [environment('local'), environment('development'), environment('production')], secretStorage: this.keys.storage };
  }

  async configureEnvironment(request: ParsedRequest<'environments.configure'>): Promise<EnvironmentsView> {
    const refused = this.addressesRefusal(request.id, request);
    if (refused !== undefined) throw new DeskError('E0101_InvalidArgument', `${refused.field}: ${refused.reason}`);
    this.file.update((draft) => {
      draft.addresses[request.id] = { baseUrl: request.baseUrl, wsUrl: request.wsUrl };
    });
    if (this.file.get().active === request.id) await this.reconnect();
    this.events.emit('environments.changed', this.environments());
    return this.environments();
  }

  /**
   * Why addresses may not be used for `id`, or undefined: the trader's, and those the desk file holds (an earlier
   * build, or a hand, may have written them without these checks). Production is reached only over TLS (see
   * addressRefusal). Development at Production's venue would trade real money unmarked and unconfirmed,
   * with Development's keys sent there; Production at Development's would send Production's keys to a venue that
   * is not Production.
   */
  private addressesRefusal(id: 'development' | 'production', addresses: { baseUrl: string; wsUrl: string }): { field: 'baseUrl' | 'wsUrl'; reason: string } | undefined {
    const own = addressRefusal(id, addresses);
    if (own !== undefined) return own;
    const other = id === 'production' ? 'development' : 'production';
    const theirs = this.file.get().addresses[other];
    const taken = [theirs.baseUrl, theirs.wsUrl].filter((url) => url !== '').map(venueOf);
    for (const [field, url] of [['baseUrl', addresses.baseUrl], ['wsUrl', addresses.wsUrl]] as const) {
      const venue = venueOf(url);
      if (taken.includes(venue)) return { field, reason: `${venue} is ${NAMES[other]}'s venue; ${NAMES[id]} must be another, or its orders and keys would go to ${NAMES[other]}` };
    }
    return undefined;
  }

  async switchEnvironment(id: EnvironmentId): Promise<ConnectionStatus> {
    if (id !== 'local') {
      if (this.file.get().addresses[id].baseUrl === '') throw new DeskError('E0101_InvalidArgument', `id: set the ${NAMES[id]} addresses before switching to it`);
      try {
        this.addresses(id);
      } catch (err) {
        if (err instanceof DeskError) throw new DeskError(err.ref, `id: ${err.description}`);
        throw err;
      }
    }
    this.file.update((draft) => {
      draft.active = id;
    });
    await this.reconnect();
    this.events.emit('environments.changed', this.environments());
    return this.status();
  }

  /** The environment the desk's session is on: status().environment, without building the rest of the status. */
  get environment(): EnvironmentId {
    return this.sessionEnvironment;
  }

  status(): ConnectionStatus {
    const environment = this.sessionEnvironment;
    const key = this.sessionKey;
    const socket = this.session?.socket.currentStatus;
    const lastError = socket?.lastError;
    const stale = this.session === undefined ? this.publicStaleNote() : '';
    return {
      environment,
      production: environment === 'production',
      // 'unavailable' rather than 'no_key' while the public polls fail: no_key reads as a current market.
      state: this.session?.syncState ?? (this.unreachable || stale !== '' ? 'unavailable' : 'no_key'),
      ...(key?.userId === undefined ? {} : { userId: key.userId }),
      ...(key === undefined ? {} : { apiKey: key.apiKey, readOnly: key.readOnly }),
      ...(socket?.latencyMs === undefined ? {} : { latencyMs: socket.latencyMs }),
      // What a placement's lookup found is shown beside a socket's error, not hidden by it: the trader was told to
      // wait for it here, and REST may settle it while the socket cannot reconnect.
      detail: this.keys.scrub([lastError ?? (this.detail || this.failureNote()), this.placementNote(), stale].filter((part) => part !== '').join('; ')),
      ...this.notPlaced(environment),
    };
  }

  /** The client order ids whose notes, still shown, say the lookup found them not placed on `environment`. */
  private notPlaced(environment: EnvironmentId): { notPlaced?: string[] } {
    const prefix = `${environment}/`;
    const ids = [...this.placementNotes].filter(([key, note]) => note.notPlaced === true && key.startsWith(prefix) && this.shownNote(note) !== '').map(([key]) => key.slice(prefix.length));
    return ids.length === 0 ? {} : { notPlaced: ids };
  }

  private notePlacement(environment: EnvironmentId, clientOrderId: string, note: { text: string; at: number; notPlaced?: true }): void {
    const key = `${environment}/${clientOrderId}`;
    // The newest last: the status lists them in the order they came.
    this.placementNotes.delete(key);
    this.placementNotes.set(key, note);
    this.scheduleNoteExpiry();
  }

  /**
   * A new placement under a client order id the desk noted a lookup of: the note spoke of the one before, and
   * "not placed" (the status's notPlaced) would be read as this one's while it may be on its way to the venue. The
   * lookup of this one, if its outcome is unknown too, notes it afresh. Client order ids are case-insensitive.
   */
  private dropPlacementNote(environment: EnvironmentId, clientOrderId: string): void {
    const prefix = `${environment}/`;
    const dropped = [...this.placementNotes.keys()].filter((k) => k.startsWith(prefix) && sameClientOrderId(k.slice(prefix.length), clientOrderId));
    if (dropped.length === 0) return;
    for (const k of dropped) this.placementNotes.delete(k);
    this.scheduleNoteExpiry();
    this.emitStatus();
  }

  /**
   * A note's minute running out changes the status too: without sending it then, a window kept showing an
   * in-doubt placement's answer (or a failed read) until some other change sent the status again.
   */
  private scheduleNoteExpiry(): void {
    if (this.noteExpiry !== undefined) clearTimeout(this.noteExpiry);
    this.noteExpiry = undefined;
    if (this.disposed) return;
    const now = Date.now();
    const shownMs = this.options.noteShownMs ?? NOTE_SHOWN_MS;
    const shown = [...this.placementNotes.values(), ...(this.backgroundFailure === undefined ? [] : [this.backgroundFailure])].filter((note) => now - note.at <= shownMs);
    if (shown.length === 0) return;
    const oldest = Math.min(...shown.map((note) => note.at));
    // shownNote drops a note once strictly past its time: one millisecond after.
    this.noteExpiry = setTimeout(() => {
      this.noteExpiry = undefined;
      this.emitStatus();
      this.scheduleNoteExpiry();
    }, oldest + shownMs + 1 - now);
  }

  /** Every placement's lookup still in its minute, oldest first; those past it are forgotten. */
  private placementNote(): string {
    const shown: string[] = [];
    for (const [id, note] of this.placementNotes) {
      const text = this.shownNote(note);
      if (text === '') this.placementNotes.delete(id);
      else shown.push(text);
    }
    return shown.join('; ');
  }

  private publicStaleNote(): string {
    const stale = [...this.publicPollers].flatMap(([productId, poller]) => (poller.staleness === undefined ? [] : [`${productId}: ${poller.staleness}`]));
    return stale.length === 0 ? '' : `the market data shown is stale, its public endpoints do not answer (${stale.join('; ')})`;
  }

  private failureNote(): string {
    const failure = this.shownNote(this.backgroundFailure);
    return failure === '' ? '' : `a background read failed (${failure}); the panels may lag until it succeeds`;
  }

  /** A note is shown for a minute after it happened: long enough to be read, not for good. */
  private shownNote(note: { text: string; at: number } | undefined): string {
    return note === undefined || Date.now() - note.at > (this.options.noteShownMs ?? NOTE_SHOWN_MS) ? '' : note.text;
  }

  private reconnect(): Promise<void> {
    const next = this.switching.then(() => this.connect());
    this.switching = next.catch(() => undefined);
    return next;
  }

  private async connect(): Promise<void> {
    // A desk closed while this waited its turn (or while it awaits below) starts nothing more.
    if (this.disposed) return;
    this.closeSession();
    const environment = this.file.get().active;
    this.sessionEnvironment = environment;
    this.detail = '';
    this.unreachable = false;
    // A local venue that did not start, or addresses in the desk file refused (an earlier build's, start-up
    // included): the environment stays unconnected, saying why, and no key, public read or socket goes out.
    let baseUrl: string;
    let wsUrl: string;
    try {
      ({ baseUrl, wsUrl } = this.addresses(environment));
    } catch (err) {
      if (!(err instanceof DeskError)) throw err;
      this.unreachable = true;
      this.detail = err.description;
      this.emitStatus();
      return;
    }
    // A keychain that cannot be read now (locked, with no one to type its password) leaves the desk without a
    // session, saying so: the secret is still there, and "no key" or "import it again" would send the trader wrong.
    let keychainTrouble: string | undefined;
    const fromKeychain = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await read();
      } catch (err) {
        if (!(err instanceof SecretStoreError)) throw err;
        keychainTrouble ??= err.message;
        return undefined;
      }
    };
    if (environment === 'local') await fromKeychain(() => this.keys.adoptBootstrap(this.localVenue.localCredentials()));
    if (this.disposed) return;
    this.publicClient = new VenueRestClient({ ...this.options.session?.rest, baseUrl });
    const key = this.keys.activeKey(environment);
    const credentials = key === undefined ? undefined : await fromKeychain(() => this.keys.credentials(environment, key.apiKey));
    if (this.disposed) {
      this.closeSession();
      return;
    }
    if (key === undefined || credentials === undefined) {
      this.detail =
        keychainTrouble !== undefined
          ? `${keychainTrouble}; unlock the keychain, then switch to ${NAMES[environment]} again`
          : key === undefined
            ? `no API key for ${NAMES[environment]}: create or import one`
            : this.keys.secrets.keychainProblem !== undefined
              ? `the secret of key ${key.apiKey} is not in this session's memory, and the keychain, which may hold it, was not available when the desk started (${this.keys.secrets.keychainProblem}): make it available (unlock it) and restart the desk, or import the key again`
              : `the secret of key ${key.apiKey} is no longer stored (${this.keys.storage.kind}): import the key again`;
      for (const productId of this.watched.keys()) this.pollPublicly(productId);
      this.emitStatus();
      return;
    }
    this.sessionKey = key;
    const session = new VenueSession({
      ...this.options.session,
      baseUrl,
      wsUrl,
      credentials,
      ...(key.userId === undefined ? {} : { userId: key.userId }),
    });
    this.session = session;
    this.listen(session, environment, key);
    for (const productId of this.watched.keys()) this.watchOnSession(session, productId);
    this.emitStatus();
    session.start().catch((err: unknown) => {
      if (this.session !== session) return;
      this.detail = err instanceof Error ? err.message : String(err);
      this.emitStatus();
    });
  }

  /**
   * Where an environment's venue is: the one way to it for a session, a public read, a key tried or revoked, so
   * none goes to addresses the desk refuses (addressesRefusal), whatever wrote them to the desk file.
   */
  private addresses(environment: EnvironmentId): { baseUrl: string; wsUrl: string } {
    if (environment === 'local') {
      const local = this.localVenue.status();
      if (local.state !== 'ready') throw new DeskError('E0902_ServiceUnavailable', `the local venue is ${local.state}${local.detail === '' ? '' : `: ${local.detail}`}`);
      return { baseUrl: local.baseUrl, wsUrl: local.wsUrl };
    }
    const addresses = this.file.get().addresses[environment];
    const refused = this.addressesRefusal(environment, addresses);
    if (refused !== undefined) {
      throw new DeskError('E0101_InvalidArgument', `${NAMES[environment]}'s ${refused.field} in the desk file is refused (${refused.reason}): set its addresses again under Environments; the desk sends nothing to it until then`);
    }
    return addresses;
  }

  private listen(session: VenueSession, environment: EnvironmentId, key: KeyRecord): void {
    const add = (d: Disposable): void => void this.sessionListeners.add(d);
    add(
      session.onDidChangeOrders((orders) => {
        const first = orders[0];
        if (key.userId === undefined && first !== undefined) {
          this.keys.learnUserId(environment, key.apiKey, first.user_id);
          this.sessionKey = this.keys.record(environment, key.apiKey) ?? key;
        }
        this.events.emit('orders.changed', [...orders]);
      }),
    );
    add(session.onDidChangeBook((view) => this.events.emit('book.changed', snapshotOf(view, BOOK_DEPTH))));
    const tradesOf = (productId: string, trades: readonly PublicTrade[]): EventPayload<'trades.received'> => ({
      productId,
      trades: [...trades],
      ...(session.feedInDoubt(productId, 'trades') && { inDoubt: true }),
    });
    add(session.onDidReceiveTrades((change) => this.events.emit('trades.received', tradesOf(change.productId, change.trades))));
    const candlesOf = (productId: string): EventPayload<'candles.changed'> => ({
      productId,
      candles: this.candles.get(productId) ?? [],
      ...(session.feedInDoubt(productId, 'candles') && { inDoubt: true }),
    });
    add(
      session.onDidChangeFeedDoubt(({ productId, channel, inDoubt }) => {
        if (channel === 'trades') return this.events.emit('trades.received', tradesOf(productId, []));
        if (channel === 'candles') return this.events.emit('candles.changed', candlesOf(productId));
        // Cut off from the stream, the ticker is marked so, and the checks read the market from the venue rather
        // than take it, frozen, while the session is live. The ticker the answered sub brings replaces it.
        const ticker = this.tickers.get(productId);
        if (!inDoubt || ticker === undefined) return;
        const doubted = { ...ticker, inDoubt: true };
        this.tickers.set(productId, doubted);
        this.events.emit('ticker.changed', doubted);
      }),
    );
    add(
      session.onDidChangeTicker((t) => {
        const ticker: Ticker = { productId: t.product_id, price: t.price, bestBid: t.best_bid, bestAsk: t.best_ask, volume24h: t.volume_24h, time: t.time };
        // One that arrives after the unwatch (sent before the venue took the unsub) would be kept, never updated.
        if (this.watched.has(t.product_id)) this.tickers.set(t.product_id, ticker);
        this.events.emit('ticker.changed', ticker);
      }),
    );
    add(
      session.onDidChangeCandles((e) => {
        // One that arrives after the unwatch (sent before the venue took the unsub) would be kept, never updated.
        if (!this.watched.has(e.product_id)) return;
        const merged = new Map((e.type === 'snapshot' ? [] : (this.candles.get(e.product_id) ?? [])).map((c) => [c.start, c]));
        for (const candle of e.candles) merged.set(candle.start, candle);
        const list = [...merged.values()].sort((a, b) => (BigInt(a.start) < BigInt(b.start) ? -1 : 1)).slice(-MAX_CANDLES);
        this.candles.set(e.product_id, list);
        this.events.emit('candles.changed', candlesOf(e.product_id));
      }),
    );
    add(session.onDidChangeAccount((account) => this.events.emit('account.changed', account)));
    add(session.onDidChangeConnection(() => this.emitStatus()));
    add(
      session.onDidResolvePlacement(({ clientOrderId, order }) => {
        this.notePlacement(environment, clientOrderId, {
          text:
            order === undefined
              ? `the order ${clientOrderId}, whose outcome was unknown, was not placed: ${NAMES[environment]} holds no order from it under that client order id`
              : `the order ${clientOrderId}, whose outcome was unknown, was placed: order ${order.order_id}, ${order.status}`,
          at: Date.now(),
          ...(order === undefined && { notPlaced: true }),
        });
        this.emitStatus();
      }),
    );
    add(
      session.onDidFail((err) => {
        this.backgroundFailure = { text: err.message, at: Date.now() };
        this.scheduleNoteExpiry();
        this.emitStatus();
      }),
    );
  }

  private closeSession(): void {
    this.backgroundFailure = undefined;
    // The trader was told these are being looked up: a session closed (a switch, another key) stops that, so say so.
    const where = NAMES[this.sessionEnvironment];
    for (const id of this.session?.unresolvedPlacements() ?? []) {
      this.notePlacement(this.sessionEnvironment, id, {
        text: `the desk stopped looking up the order ${id} on leaving its ${where} session, whose outcome is unknown: look for it among ${where}'s orders before sending it again`,
        at: Date.now(),
      });
    }
    for (const listener of this.sessionListeners) listener.dispose();
    this.sessionListeners.clear();
    this.session?.dispose();
    this.session = undefined;
    this.sessionKey = undefined;
    for (const poller of this.publicPollers.values()) poller.dispose();
    this.publicPollers.clear();
    this.publicClient?.dispose();
    this.publicClient = undefined;
    this.tickers.clear();
    this.candles.clear();
    // Another environment may list other products.
    this.products = undefined;
  }

  private emitStatus(): void {
    if (!this.disposed) this.events.emit('connection.changed', this.status());
  }

  private requireSession(): VenueSession {
    if (this.session === undefined) throw new DeskError('E0001_AuthRequired', this.detail || `no API key for ${NAMES[this.sessionEnvironment]}`);
    return this.session;
  }

  /**
   * The client for a market read. One asked during a switch waits for it, since the switch makes the client (it
   * answered "not connected" in 1 of 4 tries). Orders never wait like this: one meant for the venue being left
   * must not go to the next.
   */
  private async marketClient(): Promise<VenueRestClient> {
    await this.switching;
    return this.rest();
  }

  private rest(): VenueRestClient {
    const client = this.session?.rest ?? this.publicClient;
    if (client === undefined) throw new DeskError('E0902_ServiceUnavailable', `${NAMES[this.sessionEnvironment]} is not connected`);
    return client;
  }

  // ---- orders

  async placeOrder(request: ParsedRequest<'orders.place'>): Promise<PlaceResult> {
    const session = this.requireSession();
    const environment = this.environmentAskedOn('environment', request.environment, 'sent this order on', 'it was not sent');
    this.environmentAskedOn('confirmed', request.confirmed, 'confirmed this order for', 'it was not sent');
    const { settings } = this.file.get();
    // The order goes out within the client's bound of the trader's click or not at all: the reads for its checks
    // share the rate limits with it, and one waiting out a Retry-After of seconds would send it that late.
    const bound = { latest: session.rest.orderDeadline() };
    const product = (await notSentIfFails(() => this.listProducts(bound))).find((p) => p.id === request.product_id);
    // Checks that need the product's market are never skipped for want of it: the venue would refuse it anyway.
    if (product === undefined) throw new DeskError('E0104_InvalidSymbol', `product_id: ${request.product_id} is not traded on ${NAMES[environment]}`);
    // The market is only read when a check needs it: an order is not slowed by checks that are off. A limit
    // price of "0" is a market order's (the interface asks for it), so the notional check needs the market too.
    const needsMarket =
      request.override_checks !== true &&
      (settings.preTrade.maxDeviationPercent !== '' || (settings.preTrade.maxNotional !== '' && limitPriceOf(request) === undefined));
    const issues = preTradeIssues(request, {
      environment,
      environmentName: NAMES[environment],
      confirmOrders: settings.confirmOrders[environment],
      settings: settings.preTrade,
      market: needsMarket ? await notSentIfFails(() => this.marketOf(request, settings.preTrade.maxNotional !== '', bound)) : { price: undefined },
      quoteAsset: product.quote_asset_id,
    });
    if (issues.length > 0) return { status: 'held', issues };
    // Checked against one venue, sent to that venue: a switch while the checks awaited sends nothing.
    if (session !== this.session) throw new DeskError('E0902_ServiceUnavailable', `the desk switched away from ${NAMES[environment]} while the order was checked: it was not sent`);
    const { environment: _sentOn, confirmed: _confirmed, override_checks: _override, ...order } = request;
    if (order.client_order_id !== undefined) this.dropPlacementNote(environment, order.client_order_id);
    try {
      return { status: 'placed', order: await session.placeOrder(order, bound) };
    } catch (err) {
      if (err instanceof OutcomeUnknownError && err.clientOrderId !== undefined) throw new DeskError('E0802_OrderOutcomeUnknown', outcomeUnknownPlacement(err, err.clientOrderId, environment));
      throw err;
    }
  }

  /**
   * The last trade, else the mid of the book: what "far from the market" is measured against. The ticker is that
   * only while it streams: a live session, the product watched, the ticker not in doubt; else it is a price from before
   * and the venue is asked.
   * An order measured by the book for its notional (measuredByBook) also gets the side it would take from: the
   * streamed book while it is the venue's, else one read deep enough to walk.
   */
  private async marketOf(order: ParsedRequest<'orders.place'>, measuresNotional: boolean, bound: RateBound): Promise<MarketReference> {
    const { product_id: productId } = order;
    const walks = measuresNotional && measuredByBook(order);
    const live = this.session?.syncState === 'live';
    const streamed = live ? this.session?.book(productId) : undefined;
    type Book = { readonly bids: readonly BookLevel[]; readonly asks: readonly BookLevel[]; readonly whole: boolean };
    // The stream holds only the venue's top levels (50): a buy that walks past them is measured on a deeper read.
    let book: Book | undefined =
      walks && streamed !== undefined && streamed.source === 'stream' && !streamed.inDoubt && streamed.sequence > 0 && (order.side === 'SELL' || holds(streamed.asks, order.base_size))
        ? { bids: streamed.bids, asks: streamed.asks, whole: false }
        : undefined;
    // One read serves both: deep enough to walk when the order is measured by the book. A side shorter than the
    // depth asked for is all there is; one as long may hold more.
    const readBook = async (): Promise<Book> => {
      if (book !== undefined) return book;
      const depth = walks ? MAX_BOOK_DEPTH : 1;
      const { bids, asks } = await this.rest().getOrderBook(productId, depth, bound);
      return (book = { bids, asks, whole: (order.side === 'BUY' ? asks : bids).length < depth });
    };
    let onlySide: MarketReference['onlySide'];
    const price = await (async (): Promise<string | undefined> => {
      const ticker = live ? this.tickers.get(productId) : undefined;
      if (ticker !== undefined && ticker.inDoubt !== true && ticker.price !== '') return ticker.price;
      const [last] = await this.rest().listTrades(productId, 1, bound);
      if (last !== undefined) return last.price;
      const { bids, asks } = await readBook();
      const [bid] = bids;
      const [ask] = asks;
      if (bid !== undefined && ask !== undefined) return midOf(bid.price, ask.price);
      onlySide = bid !== undefined ? { side: 'bid', price: bid.price } : ask !== undefined ? { side: 'ask', price: ask.price } : undefined;
      return undefined;
    })();
    const found = { price, ...(onlySide !== undefined && { onlySide }) };
    if (!walks) return found;
    const { bids, asks, whole } = await readBook();
    return { ...found, opposite: { levels: order.side === 'BUY' ? asks : bids, whole } };
  }

  /** `environment`: the one the trader asked on; another than the desk's (it switched meanwhile) cancels nothing. */
  cancelOrder(request: ParsedRequest<'orders.cancel'>): Promise<Order> {
    const session = this.requireSession();
    const { environment, ...selection } = request;
    this.environmentAskedOn('environment', environment, 'asked to cancel this order on', 'it was not cancelled');
    return session.cancelOrder(selection);
  }

  /** `environment`: the one the trader asked on; another than the desk's (it switched meanwhile) cancels nothing. */
  async cancelBulk(request: ParsedRequest<'orders.cancelBulk'>): Promise<{ cancelRequested: string[]; notOpened: string[]; alreadyRequested: string[] }> {
    const session = this.requireSession();
    const { environment, ...selection } = request;
    this.environmentAskedOn('environment', environment, 'asked to cancel these orders on', 'nothing was cancelled');
    const answer = await session.rest.cancelOrders(selection);
    return {
      cancelRequested: answer.cancel_requested_orders.map((o) => o.id),
      notOpened: answer.not_opened_orders.map((o) => o.id),
      alreadyRequested: answer.already_cancel_requested_orders.map((o) => o.id),
    };
  }

  /**
   * The environment the session is on, for a request the trader gave on `asked` (a confirmation, a question, a
   * click): one given for another environment than the desk's (it switched meanwhile) is refused, having done
   * nothing, so that a yes given on Local never acts on Production.
   */
  private environmentAskedOn(field: 'confirmed' | 'environment', asked: EnvironmentId | undefined, gave: string, nothingDone: string): EnvironmentId {
    const on = this.sessionEnvironment;
    if (asked !== undefined && asked !== on) {
      throw new DeskError('E0101_InvalidArgument', `${field}: the trader ${gave} ${NAMES[asked]}, but the desk is on ${NAMES[on]}: ${nothingDone}`);
    }
    // A switch waiting its turn behind a reconnect has not moved the session yet, but the desk is leaving it.
    const going = this.file.get().active;
    if (asked !== undefined && going !== on) {
      throw new DeskError('E0101_InvalidArgument', `${field}: the trader ${gave} ${NAMES[asked]}, but the desk is switching to ${NAMES[going]}: ${nothingDone}`);
    }
    return on;
  }

  /** `environment`: the one the trader asked on; another than the desk's (it switched meanwhile) cancels nothing. */
  async cancelAll(productId: string | undefined, environment: EnvironmentId): Promise<{ cancelRequested: number }> {
    const session = this.requireSession();
    this.environmentAskedOn('environment', environment, 'asked to cancel all on', 'nothing was cancelled');
    return { cancelRequested: await session.cancelAllOrders(productId) };
  }

  /**
   * A read of the account's own data (orders, fills, balances) with the session it was read on: the desk's as the
   * read began. Each such read takes its session in its first, synchronous step, right after this names it. The desk
   * may switch while the read is out, and a window that has not heard of the switch yet compares the two.
   */
  async onSession<T>(read: () => Promise<T>): Promise<{ session: Session; value: T }> {
    const key = this.sessionKey;
    const session = { environment: this.sessionEnvironment, ...(key === undefined ? {} : { apiKey: key.apiKey }) };
    try {
      return { session, value: await read() };
    } catch (err) {
      // A refusal is named by its session too: met as the desk switched, it is the next environment's.
      throw new SessionReadFailure(session, err);
    }
  }

  activeOrders(productId: string | undefined): Promise<Order[]> {
    return this.requireSession().rest.listActiveOrders(productId === undefined ? {} : { product_id: productId });
  }

  history(filter: ParsedRequest<'orders.history'>): Promise<Order[]> {
    return this.requireSession().rest.listOrderHistory(filter);
  }

  /**
   * The trader's fills, newest first, from the trades of their orders: the most recently updated first (a resting
   * order filled just now), then back by creation time while a full read may hide more, so a run of orders that
   * filled nothing (IOCs, cancels) does not push older fills out of reach. At most FILL_READS reads.
   */
  async fills(productId: string | undefined, limit = 200): Promise<Fill[]> {
    const { rest } = this.requireSession();
    const products = productId === undefined ? {} : { product_ids: [productId] };
    const seen = new Set<string>();
    const fills: Fill[] = [];
    const take = (orders: readonly Order[]): void => {
      for (const order of orders) {
        if (seen.has(order.order_id)) continue;
        seen.add(order.order_id);
        fills.push(...fillsOf(order));
      }
    };
    let page = await rest.listOrderHistory({ sort: '-updated_at', limit: MAX_ARCHIVED_LIMIT, ...products });
    take(page);
    let before: string | undefined;
    for (let reads = 1; page.length === MAX_ARCHIVED_LIMIT && fills.length < limit && reads < FILL_READS; reads++) {
      page = await rest.listOrderHistory({ sort: '-created_at', limit: MAX_ARCHIVED_LIMIT, ...products, ...(before === undefined ? {} : { end_time: before }) });
      take(page);
      const oldest = page.at(-1)?.created_at;
      if (oldest === undefined || oldest === '0') break;
      before = (BigInt(oldest) - 1n).toString();
    }
    fills.sort((a, b) => (BigInt(b.time) > BigInt(a.time) ? 1 : BigInt(b.time) < BigInt(a.time) ? -1 : 0));
    return fills.slice(0, limit);
  }

  // ---- market data

  async listProducts(bound: RateBound = {}): Promise<Product[]> {
    if (this.products !== undefined) return this.products;
    const client = await this.marketClient();
    const products = await client.listProducts(bound);
    // Kept only while the client that read it is still the current one: a switch meanwhile means another venue.
    if (client === this.session?.rest || client === this.publicClient) this.products = products;
    return products;
  }

  /**
   * `window` wants the product's book, tape and candles. The desk watches a product while any window does: one
   * window's unwatch (a pop-out following another product) must not freeze the others.
   */
  async watch(productId: string, window: string): Promise<WatchAnswer> {
    const call = ++this.lastWatchCall;
    const calls = this.watchCalls.get(window) ?? new Map<string, number>();
    this.watchCalls.set(window, calls);
    calls.set(productId, call);
    try {
      await this.requireProduct(productId);
    } catch (err) {
      if (calls.get(productId) === call) calls.delete(productId);
      throw err;
    }
    if (this.watchCalls.get(window)?.get(productId) !== call) return this.watchAnswer(productId);
    const watchers = this.watched.get(productId);
    if (watchers !== undefined) watchers.add(window);
    else {
      this.watched.set(productId, new Set([window]));
      if (this.session !== undefined) this.watchOnSession(this.session, productId);
      else this.pollPublicly(productId);
    }
    return this.watchAnswer(productId);
  }

  /** The book, and the feeds in doubt as they stand once it is read: a later change is told by an event. */
  private async watchAnswer(productId: string): Promise<WatchAnswer> {
    const book = await this.book(productId, BOOK_DEPTH);
    const feedsInDoubt = MarketFeed.options.filter((feed) => this.session?.feedInDoubt(productId, feed) === true);
    return { ...book, ...(feedsInDoubt.length > 0 && { feedsInDoubt }) };
  }

  private pollPublicly(productId: string): void {
    const client = this.publicClient;
    if (client === undefined || this.publicPollers.has(productId)) return;
    const poller = new MarketPoller(client, productId, this.options.session?.pollIntervalMs ?? PUBLIC_POLL_MS, {
      book: (book) => this.events.emit('book.changed', { productId, sequence: book.sequence, time: book.time, source: 'poll', bids: book.bids, asks: book.asks }),
      trades: (trades) => this.events.emit('trades.received', { productId, trades: [...trades] }),
      // The next poll tries again; staleness tells the trader meanwhile.
      failed: () => undefined,
      // The status reads each poller's staleness (publicStaleNote); a disposed one's no longer counts.
      staleness: () => {
        if (this.publicPollers.get(productId) === poller) this.emitStatus();
      },
    });
    this.publicPollers.set(productId, poller);
    poller.start();
  }

  private watchOnSession(session: VenueSession, productId: string): void {
    // A watch that came while the session was being made may have started polling publicly: one source a product.
    this.publicPollers.get(productId)?.dispose();
    this.publicPollers.delete(productId);
    void session.watchMarket(productId);
  }

  /** `window` no longer needs the product; the desk stops watching it once no window does. */
  async unwatch(productId: string, window: string): Promise<{ watching: string[] }> {
    this.watchCalls.get(window)?.delete(productId);
    const watchers = this.watched.get(productId);
    watchers?.delete(window);
    if (watchers !== undefined && watchers.size === 0) await this.stopWatching(productId);
    return { watching: [...this.watched.keys()] };
  }

  /** A window closed (or its page went): what only it watched is watched no more. */
  windowClosed(window: string): void {
    this.watchCalls.delete(window);
    for (const [productId, watchers] of this.watched) {
      if (watchers.delete(window) && watchers.size === 0) void this.stopWatching(productId).catch(() => undefined);
    }
  }

  private async stopWatching(productId: string): Promise<void> {
    this.watched.delete(productId);
    // Its ticker is no longer subscribed: kept, it would be the pre-trade check's market, frozen. Its candles too:
    // kept, a window watching it again would be handed them as current, and updates merged into them.
    this.tickers.delete(productId);
    this.candles.delete(productId);
    const poller = this.publicPollers.get(productId);
    poller?.dispose();
    this.publicPollers.delete(productId);
    if (poller?.staleness !== undefined) this.emitStatus();
    if (this.session !== undefined) {
      // Its unsubs go out now, together (unwatchMarket): one sent after awaiting the others would follow, and undo,
      // the sub of a window that watched the product meanwhile, and drop it from what the socket restores on reconnecting.
      await this.session.unwatchMarket(productId);
    }
  }

  async book(productId: string, depth = BOOK_DEPTH): Promise<BookSnapshot> {
    const held = this.session?.book(productId);
    if (held !== undefined && held.sequence > 0) return snapshotOf(held, depth);
    const book = await (await this.marketClient()).getOrderBook(productId, depth);
    return { productId, sequence: book.sequence, time: book.time, source: 'rest', bids: book.bids, asks: book.asks };
  }

  async trades(productId: string, limit: number | undefined): Promise<PublicTrade[]> {
    return (await this.marketClient()).listTrades(productId, limit);
  }

  async candlesOf(productId: string): Promise<Candle[]> {
    await this.requireProduct(productId);
    return this.candles.get(productId) ?? [];
  }

  private async requireProduct(productId: string): Promise<void> {
    if (!(await this.listProducts()).some((p) => p.id === productId)) {
      throw new DeskError('E0104_InvalidSymbol', `product_id: ${productId} is not traded on ${NAMES[this.sessionEnvironment]}`);
    }
  }

  // ---- account

  async account(): Promise<Account> {
    const session = this.requireSession();
    const userId = this.sessionKey?.userId ?? session.orders()[0]?.user_id;
    if (userId === undefined) {
      throw new DeskError('E0304_UserNotFound', 'the user id of this key is not known yet: import the key with its user id, or place an order first');
    }
    return session.rest.getAccount(userId);
  }

  // ---- keys

  listKeys(environment: EnvironmentId = this.sessionEnvironment): Promise<StoredKey[]> {
    return this.keys.list(environment);
  }

  /**
   * POST /api-keys with the key in use; the venue shows the new secret once, and it goes straight into the
   * store (and, in the desktop app, to the trader once through the host's dialog). The answer describes the key
   * and says where its secret went; it never holds the secret.
   */
  async createKey(request: ParsedRequest<'keys.create'>): Promise<{ key: StoredKey; note: string }> {
    const session = this.requireSession();
    // A key on Production trades real money (and with `use`, the desk trades with it at once): like an order
    // there, it is made only when the trader confirmed it for Production, never on a yes given elsewhere.
    const environment = this.environmentAskedOn('environment', request.environment, 'made this key on', 'no key was created');
    this.environmentAskedOn('confirmed', request.confirmed, 'confirmed this key for', 'no key was created');
    if (environment === 'production' && request.confirmed !== 'production') {
      throw new DeskError('E0101_InvalidArgument', 'confirmed: a key on Production is created only once the trader confirms it for Production; no key was created');
    }
    // The venue shows a new secret once: a key made while the store cannot keep it would exist there with a
    // secret nobody holds, which no one could ever use. So the store is tried first.
    await this.keys.checkWritable(environment);
    const created = await session.rest.createApiKey({
      ...(request.name === undefined ? {} : { name: request.name }),
      ...(request.read_only === undefined ? {} : { read_only: request.read_only }),
      ...(request.expiration_time === undefined ? {} : { expiration_time: request.expiration_time }),
    });
    if (created.api_secret === undefined) throw new DeskError('E0901_InternalError', 'the venue created a key but did not show its secret');
    const userId = this.sessionKey?.userId;
    const record: KeyRecord = {
      environment,
      apiKey: created.api_key,
      name: created.name,
      readOnly: created.is_read_only,
      expiredAt: created.expired_at,
      createdAt: created.created_at,
      ...(userId === undefined ? {} : { userId }),
      origin: 'created',
    };
    const shown = await this.keys.storeCreated(record, created.api_secret, request.use === true);
    if (request.use === true) await this.reconnect();
    return this.describeStored(record, shown);
  }

  /**
   * The one call that carries a secret into main (the trader typed it). The key is tried on the venue first
   * when it can be reached: a key the venue refuses is not stored; its user id is learned from an order when
   * the trader did not give it.
   */
  async importKey(request: ParsedRequest<'keys.import'>): Promise<{ key: StoredKey; note: string }> {
    const environment = request.environment ?? this.sessionEnvironment;
    // Tried on the venue whenever it can be reached, a user id given or not: a mistyped secret must not
    // replace a working one in the keychain.
    const { checked, userId: discovered } = await this.discoverUserId(environment, request.api_key, request.api_secret);
    // A venue never changes a key's secret: another one for a key stored here is a slip unless the venue takes it.
    if (!checked && this.keys.record(environment, request.api_key) !== undefined) {
      const stored = await this.keys.credentials(environment, request.api_key);
      if (stored !== undefined && stored.apiSecret !== request.api_secret) {
        throw new DeskError(
          'E0902_ServiceUnavailable',
          `api_secret: key ${request.api_key} is stored with another secret, and this one could not be checked (${NAMES[environment]} cannot be asked now); the stored secret was kept: import it again once ${NAMES[environment]} answers, or remove the key first`,
        );
      }
    }
    if (request.user_id !== undefined && discovered !== undefined && discovered !== request.user_id) {
      throw new DeskError('E0101_InvalidArgument', `user_id: this key trades for user ${discovered}, not ${request.user_id}; it was not stored`);
    }
    const userId = request.user_id ?? discovered;
    const record: KeyRecord = {
      environment,
      apiKey: request.api_key,
      name: request.name ?? 'Imported key',
      // The interface tells neither of a key it did not just make: the keys panel shows both as not known.
      readOnly: false,
      expiredAt: '0',
      createdAt: '0',
      ...(userId === undefined ? {} : { userId }),
      origin: 'imported',
    };
    await this.keys.store(record, request.api_secret, request.use === true);
    if (environment === this.sessionEnvironment && (request.use === true || this.session === undefined)) await this.reconnect();
    return this.describeStored(record);
  }

  /** The key tried on the venue: `checked` once the venue took it, with its user id when an order shows it. */
  private async discoverUserId(environment: EnvironmentId, apiKey: string, apiSecret: string): Promise<{ checked: boolean; userId?: string }> {
    let baseUrl: string;
    try {
      baseUrl = this.addresses(environment).baseUrl;
    } catch {
      return { checked: false };
    }
    if (baseUrl === '') return { checked: false };
    return this.withKey(baseUrl, { apiKey, apiSecret }, async (client) => {
      try {
        const [order] = await client.listOrderHistory({ limit: 1 });
        return order === undefined ? { checked: true } : { checked: true, userId: order.user_id };
      } catch (err) {
        if (err instanceof VenueError && (err.ref === 'E0001_AuthRequired' || err.ref === 'E0002_ApiKeyExpired' || err.ref === 'E0005_ApiKeyRevoked')) {
          throw new DeskError(err.ref, `${NAMES[environment]} refused this key (${err.description}); it was not stored`);
        }
        return { checked: false };
      }
    });
  }

  /** A call made with a key other than the session's, on a client of its own that is closed after it. */
  private async withKey<T>(baseUrl: string, credentials: VenueCredentials, work: (client: VenueRestClient) => Promise<T>): Promise<T> {
    const client = new VenueRestClient({ baseUrl, credentials, maxRetries: 0 });
    try {
      return await work(client);
    } finally {
      client.dispose();
    }
  }

  private async describeStored(record: KeyRecord, shownOnce = false): Promise<{ key: StoredKey; note: string }> {
    const key = (await this.keys.list(record.environment)).find((k) => k.apiKey === record.apiKey);
    if (key === undefined) throw new DeskError('E0901_InternalError', `key ${record.apiKey} was stored but cannot be listed`);
    const storage = this.keys.storage;
    const shown = shownOnce ? 'The secret was shown once, in its own dialog. ' : '';
    const note =
      storage.kind === 'keychain'
        ? `${shown}The secret is stored in the system keychain; it is not shown again.`
        : `${shown}${storage.notice ?? 'The secret is kept in memory for this session only.'} It is not shown again.`;
    return { key, note };
  }

  /** `environment`: the one whose key the trader chose; another than the desk's (it switched meanwhile) changes nothing. */
  async useKey(environment: EnvironmentId, apiKey: string): Promise<ConnectionStatus> {
    const stillThere = (): EnvironmentId => this.environmentAskedOn('environment', environment, 'chose a key to trade with on', 'no key was changed');
    stillThere();
    if (this.keys.record(environment, apiKey) === undefined) throw new DeskError('E0101_InvalidArgument', `api_key: no key ${apiKey} is stored for ${environment}`);
    // A key whose secret is gone cannot trade: switching to it would drop the session the desk trades on and
    // leave none, for a window that listed the key before its secret went.
    let credentials: VenueCredentials | undefined;
    try {
      credentials = await this.keys.credentials(environment, apiKey);
    } catch (err) {
      if (!(err instanceof SecretStoreError)) throw err;
      throw new DeskError('E0801_KeychainUnavailable', `${err.message}; the key in use was not changed: unlock the keychain and choose key ${apiKey} again`);
    }
    if (credentials === undefined) {
      const problem = this.keys.secrets.keychainProblem;
      throw problem !== undefined
        ? new DeskError('E0801_KeychainUnavailable', `the secret of key ${apiKey} is not in this session's memory, and the keychain, which may hold it, was not available when the desk started (${problem}); the key in use was not changed: make the keychain available and restart the desk, or import the key again`)
        : new DeskError('E0101_InvalidArgument', `api_key: the secret of key ${apiKey} is no longer stored (${this.keys.storage.kind}); the key in use was not changed: import the key again to use it`);
    }
    // The desk may have switched environment while the secret was read.
    stillThere();
    this.keys.use(environment, apiKey);
    await this.reconnect();
    return this.status();
  }

  /**
   * Revokes a key of the local venue there, then forgets it here, only once the venue no longer takes it.
   * `environment`: the one whose key the trader asked to revoke; another than the desk's revokes nothing.
   */
  async revokeKey(environment: EnvironmentId, apiKey: string): Promise<StoredKey[]> {
    this.environmentAskedOn('environment', environment, 'asked to revoke a key of', 'nothing was revoked');
    if (this.sessionEnvironment !== 'local') {
      throw new DeskError('E0101_InvalidArgument', `${NAMES[this.sessionEnvironment]} offers no way to revoke a key: remove it from the desk, and revoke it where it was made`);
    }
    const record = this.keys.record('local', apiKey);
    if (record === undefined) throw new DeskError('E0101_InvalidArgument', `api_key: no key ${apiKey} is stored for ${NAMES.local}`);
    // The key itself first (a trading key revokes itself; an imported one's scope is not known until the venue
    // says), then the other keys of its user stored here, each until one can; else the key in use. The venue
    // takes no other user's key for this, so that one is not tried: its 404 would read as if the key did not exist.
    const { userId } = record;
    const inUse = this.sessionKey;
    const siblings = userId === undefined ? [] : (await this.keys.list('local')).filter((k) => k.userId === userId && k.apiKey !== apiKey && k.apiKey !== inUse?.apiKey && !k.readOnly && k.storedIn !== 'missing');
    for (const candidate of [...(record.readOnly ? [] : [apiKey]), ...siblings.map((k) => k.apiKey)]) {
      const credentials = await this.keys.credentials('local', candidate);
      if (credentials === undefined) continue;
      const outcome = await this.tryRevoking(credentials, apiKey);
      // The key itself refused as revoked already: that is what revoking it was for.
      if (outcome === 'revoked' || (candidate === apiKey && outcome === 'E0005_ApiKeyRevoked')) return this.forgetStored('local', apiKey);
    }
    if (userId !== undefined && inUse?.userId !== undefined && inUse.userId !== userId) {
      throw new DeskError('E0003_PermissionDenied', `key ${apiKey} is read-only and belongs to user ${userId}, and no trading key of that user stored here could revoke it: import one (or use it) to revoke this key`);
    }
    // Switched while the keys above were tried: the session now is another environment's, whose venue may hold
    // a key of the same name.
    if (this.sessionEnvironment !== 'local') throw new DeskError('E0902_ServiceUnavailable', `the desk left ${NAMES.local} while key ${apiKey} was being revoked: nothing was revoked`);
    await this.requireSession().rest.revokeApiKey(apiKey);
    return this.forgetStored('local', apiKey);
  }

  /** Revokes `apiKey` with the given key; the reference when that key cannot (read-only, expired, revoked). */
  private async tryRevoking(credentials: VenueCredentials, apiKey: string): Promise<'revoked' | ErrorRef> {
    return this.withKey(this.addresses('local').baseUrl, credentials, async (client) => {
      try {
        await client.revokeApiKey(apiKey);
        return 'revoked';
      } catch (err) {
        if (err instanceof VenueError && (err.ref === 'E0004_InsufficientScope' || err.ref === 'E0002_ApiKeyExpired' || err.ref === 'E0005_ApiKeyRevoked')) return err.ref;
        throw err;
      }
    });
  }

  /**
   * Forgets the key here. `environment`: the one whose key the trader asked to remove; another than the desk's
   * (it switched meanwhile) removes nothing.
   */
  async forgetKey(environment: EnvironmentId, apiKey: string): Promise<StoredKey[]> {
    this.environmentAskedOn('environment', environment, 'asked to remove a key of', 'nothing was removed');
    return this.forgetStored(environment, apiKey);
  }

  /** On Local, forgetting the key in use goes back to the local user's own key. */
  private async forgetStored(environment: EnvironmentId, apiKey: string): Promise<StoredKey[]> {
    const wasActive = this.sessionEnvironment === environment && this.sessionKey?.apiKey === apiKey;
    await this.keys.forget(environment, apiKey);
    if (wasActive) {
      // The running venue's own key: a folder made afresh leaves older local users' keys behind in the file.
      const own = environment === 'local' ? this.localVenue.localCredentials()?.api_key : undefined;
      if (own !== undefined && own !== apiKey && this.keys.record('local', own) !== undefined) this.keys.use('local', own);
      await this.reconnect();
    }
    return this.listKeys();
  }

  // ---- the error catalogue, settings, layouts

  errorCatalogue(filter: ParsedRequest<'errors.catalogue'>): readonly ErrorCodeRecord[] {
    const found = lookupErrors({
      ...(filter.ref === undefined ? {} : { ref: filter.ref }),
      ...(filter.category === undefined ? {} : { category: filter.category }),
    });
    if (found instanceof Error) throw found;
    return found;
  }

  settings(): Settings {
    return this.file.get().settings;
  }

  updateSettings(change: ParsedRequest<'settings.update'>): Settings {
    // A key sent as undefined (structured clone keeps it) changes nothing, as a key left out does.
    const given = <T extends object>(part: T | undefined): Partial<T> => Object.fromEntries(Object.entries(part ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
    this.file.update((draft) => {
      Object.assign(draft.settings.preTrade, given(change.preTrade));
      Object.assign(draft.settings.confirmOrders, given(change.confirmOrders));
    });
    this.events.emit('environments.changed', this.environments());
    return this.settings();
  }

  layouts(): string[] {
    return Object.keys(this.file.get().layouts).sort();
  }

  saveLayout(name: string, layout: unknown): string[] {
    if (Buffer.byteLength(JSON.stringify(layout)) > MAX_LAYOUT_BYTES) throw new DeskError('E0103_BodyTooLarge', `layout: larger than ${MAX_LAYOUT_BYTES} bytes`);
    this.file.update((draft) => {
      draft.layouts[name] = layout;
    });
    return this.layouts();
  }

  loadLayout(name: string): unknown {
    const layouts = this.file.get().layouts;
    if (!Object.hasOwn(layouts, name)) throw new DeskError('E0101_InvalidArgument', `name: no layout is saved as ${name}`);
    return layouts[name];
  }

  deleteLayout(name: string): string[] {
    this.loadLayout(name);
    this.file.update((draft) => {
      delete draft.layouts[name];
    });
    return this.layouts();
  }

  // ---- lifecycle

  /** Resolves once the active environment's session is live (tests, and the web CLI's ready line). */
  whenLive(): Promise<void> {
    return this.session?.whenLive() ?? Promise.reject(new DeskError('E0001_AuthRequired', this.detail));
  }

  async close(): Promise<void> {
    if (this.disposed) return;
    this.shutDown();
    // Let go once the venue has: a desk opened on the folder next finds its local venue's folder free too.
    try {
      await this.localVenue.stop();
    } finally {
      this.folderLock?.release();
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.shutDown();
    this.folderLock?.release();
  }

  private shutDown(): void {
    this.disposed = true;
    this.closeSession();
    this.scheduleNoteExpiry();
    this.disposables.dispose();
  }
}

/**
 * The reads an order placement makes before it sends anything (the products, the market for the checks). Lost,
 * each would say the venue may have acted, and the trader would go looking for an order that was never sent.
 */
async function notSentIfFails<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof OutcomeUnknownError) throw new DeskError('E0902_ServiceUnavailable', `the order was not sent: a read for its checks failed (${err.lostAnswer})`);
    if (err instanceof VenueError && err.isRateLimit) throw new DeskError(err.code === 'E0503' ? 'E0503_OrderRateLimitExceeded' : 'E0501_RateLimitExceeded', `the order was not sent: a read for its checks is held back by the venue's rate limit (${err.description})`);
    if (err instanceof VenueUnreachableError || err instanceof VenueProtocolError) throw new DeskError('E0902_ServiceUnavailable', `the order was not sent: a read for its checks failed (${err.message})`);
    throw err;
  }
}

/**
 * An order sent whose answer was lost (no answer in time, the connection dropped, a gateway's 502, 503 or 504): it may be
 * live. Said so, with the handle it is looked up by; "not sent" or "try again" would have the trader place it twice.
 */
function outcomeUnknownPlacement(err: OutcomeUnknownError, clientOrderId: string, environment: EnvironmentId): string {
  const lookedUp =
    err.placement?.lookup === 'failed'
      ? 'looking it up failed too'
      : `${NAMES[environment]} held no order under its client order id when asked, which a request still on its way would not show yet`;
  return (
    `the order MAY have been placed: it was sent and its answer was lost (${err.message}), and ${lookedUp}. The desk is looking it up by its client order id ${clientOrderId}: ` +
    `it appears among the orders if it was placed, and the connection status says if it was not. Do not send it again until then`
  );
}

/** An order's trades as the trader's fills. */
function fillsOf(order: Order): Fill[] {
  return order.trades.map((trade) => ({
    tradeId: trade.id,
    orderId: order.order_id,
    clientOrderId: order.client_order_id,
    productId: order.product_id,
    side: order.side,
    price: trade.price,
    size: trade.size,
    liquidity: trade.liquidity_indicator,
    feeAsset: trade.fee_asset,
    feeAmount: trade.fee_amount,
    time: trade.time,
  }));
}

function snapshotOf(view: BookView, depth: number): BookSnapshot {
  return {
    productId: view.productId,
    sequence: view.sequence,
    time: view.time,
    source: view.source,
    ...(view.inDoubt && { inDoubt: true }),
    bids: view.bids.slice(0, depth),
    asks: view.asks.slice(0, depth),
  };
}

/**
 * Why an address of this environment will not be kept, each parsed once, or undefined. Not set yet: nothing is sent
 * anywhere. Also applied to addresses read from the desk file, which an earlier build (or a hand) may have written.
 * - A user name or password (https://trader:pw@host): desk.json would hold the password in plain text, every window
 *   would be sent it with the environments, and fetch refuses to send anything to such an address. The reason never
 *   repeats the address.
 * - Production in clear: every request carries the secret in a header (interface section 5), so Production is
 *   reached only over TLS, except on this machine's loopback (a venue or tunnel the trader runs here).
 */
function addressRefusal(id: 'development' | 'production', addresses: { baseUrl: string; wsUrl: string }): { field: 'baseUrl' | 'wsUrl'; reason: string } | undefined {
  for (const [field, address] of [['baseUrl', addresses.baseUrl], ['wsUrl', addresses.wsUrl]] as const) {
    if (address === '') continue;
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      if (id === 'production') return { field, reason: `${JSON.stringify(address)} is not an address` };
      continue;
    }
    if (url.username !== '' || url.password !== '') {
      return { field, reason: `an address may not hold a user name or password (${url.protocol}//…@${url.host}): the desk signs every request with the API key, and keeps no other credential` };
    }
    if (id !== 'production' || url.protocol === 'https:' || url.protocol === 'wss:') continue;
    if ((url.protocol === 'http:' || url.protocol === 'ws:') && LOOPBACK_HOSTS.has(url.hostname)) continue;
    return { field, reason: `Production must be reached over TLS (https:, wss:), not ${url.protocol}//${url.host}; the API secret travels with every request` };
  }
  return undefined;
}

/** The host and port an address reaches, whatever its scheme, path or case: one venue, however it is written. */
function venueOf(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    // Only a desk file written by hand holds one; as written, it still matches itself.
    return address.toLowerCase();
  }
  const port = url.port !== '' ? url.port : url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80';
  return `${url.hostname.toLowerCase()}:${port}`;
}

function midOf(bid: string, ask: string): string {
  return new Decimal(bid).plus(ask).div(2).toFixed();
}

/** Whether `levels` hold at least `size` (measuredByBook has checked it is a positive decimal). */
function holds(levels: readonly BookLevel[], size: string | undefined): boolean {
  return levels.reduce((sum, level) => sum.plus(level.size), new Decimal(0)).greaterThanOrEqualTo(size ?? '0');
}

/** The address without a user name and password in it, if it has them. */
function withoutUserInfo(address: string): string {
  try {
    const url = new URL(address);
    if (url.username === '' && url.password === '') return address;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return address;
  }
}
