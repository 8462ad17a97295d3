/**
 * Keeps this window's store current: a first load of everything, then the desk's events (polling stands in
 * where no event source is given). Either way features read only the store, never the bridge.
 */
import type { ConnectionStatus, EventName, EventPayload } from '../../src-shared/ipc/contract';
import { BridgeError, call, onBridgeLink } from '../bridge';
import { attempt, currentView, nextView, OTHER_SESSION, otherSessionAnswersSoFar, readOfShownSession, refreshOrders } from './desk-actions';
import { useDesk } from './desk-store';
import { readLayout } from './layout-slice';
import { notifyFills } from './fill-alerts';
import { staleness } from './connection-view';
import { TAPE_LENGTH, type MarketPart } from './market-slice';

export type Subscribe = <E extends EventName>(name: E, handler: (payload: EventPayload<E>) => void) => () => void;

const POLL = { book: 250, trades: 500, orders: 1000, account: 2000, fills: 1000, connection: 2000, unreadMarket: 3000 } as const;

/** Products this window shows: the desk's and any a panel is linked to. */
function watchedProducts(): string[] {
  const { layout } = useDesk.getState();
  return [...new Set([layout.productId, ...layout.panels.flatMap((p) => (p.productId === undefined ? [] : [p.productId]))])];
}

/** A product's book, trades and candles as the desk has them now. */
async function loadMarket(productId: string): Promise<void> {
  await Promise.all([watchMarket(productId), loadTape(productId)]);
}

/**
 * A read of one part of a product's market: its answer, or undefined once the failure is kept for the panel showing
 * that part (the feed reads it again, retryUnreadMarkets). A failure was a notice, gone in a moment, and the read was
 * not made again until an outage or the link coming back: a window opened then kept an empty ladder, saying nothing.
 */
async function readMarket<T>(productId: string, part: MarketPart, read: Promise<T>): Promise<T | undefined> {
  const view = currentView();
  const answer = await read.then(
    (value) => ({ value, problem: undefined }),
    (err: unknown) => ({ value: undefined, problem: err instanceof Error ? err.message : String(err) }),
  );
  // An answer that comes after the window stopped watching the product would be kept as if live.
  if (view !== currentView() || !watchedProducts().includes(productId)) return undefined;
  useDesk.getState().setMarketRead(productId, part, answer.problem);
  return answer.value;
}

/**
 * The product watched (its book) and its candles. Each answer is taken as it comes, and a book or candles the desk
 * streamed meanwhile win over the answer's: they are newer, and the next change may be long coming.
 */
async function watchMarket(productId: string): Promise<void> {
  await Promise.all([watchBook(productId), loadCandles(productId)]);
}

/**
 * The watch answers with the book and which of the product's other streams are in doubt: the tape and candles reads
 * say nothing of it, nor do the desk's events until it changes (a window starting to watch, or whose link to the desk
 * is back, missed the event). It is as the desk stood after the events told before it, and before those after.
 */
async function watchBook(productId: string): Promise<void> {
  const asked = useDesk.getState().books[productId];
  const answer = await readMarket(productId, 'book', call('market.watch', { product_id: productId }));
  if (answer === undefined) return;
  const { feedsInDoubt = [], ...book } = answer;
  const s = useDesk.getState();
  if (s.books[productId] === asked) s.setBook(book);
  s.setFeedInDoubt('trades', productId, feedsInDoubt.includes('trades'));
  s.setFeedInDoubt('candles', productId, feedsInDoubt.includes('candles'));
  // A ticker held is marked, never cleared: held while the events were missed, it may be older than the desk's.
  const ticker = s.tickers[productId];
  if (ticker !== undefined && ticker.inDoubt !== true && feedsInDoubt.includes('ticker')) s.setTicker({ ...ticker, inDoubt: true });
}

async function loadCandles(productId: string): Promise<void> {
  const asked = useDesk.getState().candles[productId];
  const candles = await readMarket(productId, 'candles', call('market.candles', { product_id: productId }));
  const s = useDesk.getState();
  // A streamed candles list is the desk's whole list, newer than this answer's.
  if (candles !== undefined && s.candles[productId] === asked) s.addCandles(productId, candles);
}

/** As many trades as the tape shows, merged by id: an answer older than the stream adds only what it did not bring. */
async function loadTape(productId: string): Promise<void> {
  const trades = await readMarket(productId, 'trades', call('market.trades', { product_id: productId, limit: TAPE_LENGTH }));
  if (trades !== undefined) useDesk.getState().addTrades(productId, trades);
}

/** The watched products' markets whose last read failed, read again: each part that failed, one product at a time. */
async function retryUnreadMarkets(watching: ReadonlySet<string>): Promise<void> {
  for (const id of watching) {
    const unread = useDesk.getState().marketUnread[id];
    if (unread === undefined) continue;
    // Only the parts that failed: a book read again for candles that failed was a watch and a whole book for nothing.
    await Promise.all([unread.book !== undefined && watchBook(id), unread.candles !== undefined && loadCandles(id), unread.trades !== undefined && loadTape(id)]);
  }
}

/** Whether a run of fills reads is on its way (readFillsWhileAsked). */
let fillsLoading = false;
/** Those who asked for the fills since the current read began: each is given the next read's outcome. */
let fillsAsked: Array<(read: Promise<void>) => void> = [];
/** Whether any caller since the last fetch began asked to be told of new fills. */
let fillsAlert = false;
/**
 * The view whose fills the store holds as read. A read in any other (the first, or the first after a switch) finds
 * every fill of the account new, its whole history: told, a tell asked for on the environment left (a fill there
 * while its read was out) popped up the next environment's past fills as fills just made, in its name.
 */
let fillsReadIn: number | undefined;

/**
 * One fetch at a time; a request during one runs once more after it, so a burst of fills costs two. The promise
 * settles with the first read begun after the call, not with the run: while orders kept filling, each read was
 * asked for again before it ended, and a window opening (loadEverything waits for its fills) never opened.
 */
function loadFills(alert: boolean): Promise<void> {
  fillsAlert ||= alert;
  const read = new Promise<void>((settle) => fillsAsked.push(settle));
  if (!fillsLoading) void readFillsWhileAsked();
  return read;
}

async function readFillsWhileAsked(): Promise<void> {
  fillsLoading = true;
  try {
    while (fillsAsked.length > 0) {
      const asked = fillsAsked;
      fillsAsked = [];
      const read = readFills();
      for (const settle of asked) settle(read);
      // Its failure is each asker's, who has it.
      await read.catch(() => undefined);
    }
  } finally {
    fillsLoading = false;
  }
}

async function readFills(): Promise<void> {
  const tell = fillsAlert;
  fillsAlert = false;
  const view = currentView();
  // A failure is shown on the Fills panel: dropped, the blotter stopped updating with nothing said.
  let problem: string | undefined;
  const fills = await readOfShownSession('orders.fills', { limit: 1000 }).catch((err: unknown) => {
    problem = err instanceof Error ? err.message : String(err);
    return undefined;
  });
  if (view !== currentView() || fills === OTHER_SESSION) return;
  useDesk.getState().setFillsProblem(problem);
  if (fills === undefined) return;
  const fresh = useDesk.getState().addFills(fills);
  if (tell && fillsReadIn === view) notifyFills(fresh);
  fillsReadIn = view;
}

/** The account and the connection's status, each taken as soon as it answers: a slow venue holds only its own. */
async function loadAccount(): Promise<void> {
  await Promise.all([loadBalances(), loadStatus()]);
}

/**
 * The poll's read: while the window says the desk cannot be reached, the status alone. The poll is what dials a
 * lost link again, and the status that answers live reads the account (startFeed): read by the poll as well, it
 * was read twice each time the link came back.
 */
function pollAccount(): Promise<void> {
  return useDesk.getState().connection?.state === 'unavailable' ? loadStatus() : loadAccount();
}

async function loadBalances(): Promise<void> {
  const view = currentView();
  // Balances the desk told while this read was out (account.changed, after a fill or an order) are newer than its
  // answer, which the venue may have given before them.
  const asked = useDesk.getState().account;
  let problem: string | undefined;
  const account = await readOfShownSession('account.get', {}).catch((err: unknown) => {
    problem = err instanceof Error ? err.message : String(err);
    return undefined;
  });
  if (account === OTHER_SESSION) return;
  const s = useDesk.getState();
  if (account !== undefined && view === currentView() && s.account === asked) s.setAccount(account);
  if (account === undefined && problem !== undefined && view === currentView()) s.setAccountProblem(problem);
}

let statusLoading: Promise<void> | undefined;

/**
 * One status read at a time: the poll that dials a lost link again and the link's 'back' that its dialling fires both
 * ask, and read it twice on every return.
 */
function loadStatus(): Promise<void> {
  statusLoading ??= (async () => {
    // A status the desk told since (connection.changed) is newer than this read's: taken, a read answered before a
    // switch would name the environment the desk left, over the data of the one it is on.
    const asked = useDesk.getState().connection;
    await call('connection.status', {}).then(
      (connection) => {
        const s = useDesk.getState();
        if (s.connection === asked) s.setConnection(connection);
      },
      (err: unknown) => deskUnreachable(err),
    );
  })().finally(() => (statusLoading = undefined));
  return statusLoading;
}

/**
 * Browser mode's bridge is a socket to the desk, which can drop (an Electron window's cannot). Its events are lost
 * while it is down, so the window says its connection is unavailable: every panel is then marked stale, and the
 * desk's next status, live, reads the orders, fills and account again (startFeed).
 */
function deskUnreachable(err: unknown): void {
  if (!(err instanceof BridgeError) || err.ref !== 'E0902_ServiceUnavailable') return;
  markUnavailable(err.message);
}

function markUnavailable(detail: string): void {
  const { connection, setConnection } = useDesk.getState();
  if (connection !== undefined && connection.state !== 'unavailable') setConnection({ ...connection, state: 'unavailable', detail, latencyMs: undefined });
}

/**
 * The products whose market loadEverything read, and in which view: the feed, started right after it (main.tsx),
 * begins by watching them, instead of watching and reading each again (its trades as far back as the tape shows).
 * `connection`: the status the window held as it began its reads. One told since (listenWhileOpening) is acted on
 * when the feed starts, as if told to it: a switch then clears what was read and reads it again.
 */
export interface MarketsLoaded {
  view: number;
  products: readonly string[];
  connection?: ConnectionStatus;
}

/** How many times a window opening reads everything while the desk keeps switching under it. */
const FIRST_READ_TRIES = 3;

/**
 * Everything a window shows, read as it opens. The status first: each read of the account is compared with the
 * session it names, so a switch between the status read and the others (a few ms) shows as answers of another
 * session. Those are dropped, and the window, whose feed has not started to act on a switch, would have shown the
 * previous environment's name over nothing, or another's market, until the status poll: it reads everything again.
 */
export async function loadEverything(): Promise<MarketsLoaded> {
  for (let tries = 1; ; tries++) {
    const dropped = otherSessionAnswersSoFar();
    const loaded = await readEverything();
    if (otherSessionAnswersSoFar() === dropped || tries === FIRST_READ_TRIES) return loaded;
    nextView();
    const s = useDesk.getState();
    s.clearAccountData();
    s.clearMarketData();
  }
}

async function readEverything(): Promise<MarketsLoaded> {
  await loadStatus();
  const s = useDesk.getState();
  const { connection } = s;
  const [products, environments, settings, keys, venue] = await Promise.all([
    attempt('market.products', {}),
    call('environments.list', {}).catch(() => undefined),
    call('settings.get', {}).catch(() => undefined),
    call('keys.list', connection === undefined ? {} : { environment: connection.environment }).catch(() => undefined),
    call('venue.status', {}).catch(() => undefined),
  ]);
  if (products !== undefined) s.setProducts(products);
  if (environments !== undefined) s.setEnvironments(environments);
  if (settings !== undefined) s.setSettings(settings);
  if (keys !== undefined) s.setKeys(keys);
  if (venue !== undefined) s.setVenue(venue);
  const loaded = { view: currentView(), products: watchedProducts(), connection };
  await Promise.all([loadBalances(), refreshOrders(), loadFills(false), ...loaded.products.map(loadMarket)]);
  return loaded;
}

/**
 * The saved layout, read into the store. `deskProductId`: the desk product this window opened on (a popped-out
 * panel's), newer than the saved one; so is one the window is told of while the layout is being read.
 */
export async function loadSavedLayout(name: string, deskProductId?: string): Promise<void> {
  const start = useDesk.getState();
  if (deskProductId !== undefined) start.setLayout({ ...start.layout, productId: deskProductId });
  const toldBefore = deskProductsTold;
  const saved = await call('layouts.load', { name }).catch(() => undefined);
  const s = useDesk.getState();
  if (saved !== undefined) {
    const layout = readLayout(saved);
    // Counted, not compared: told the product the store already held, the window must still keep it.
    const told = deskProductsTold !== toldBefore;
    s.setLayout({ ...layout, productId: deskProductId !== undefined || told ? s.layout.productId : layout.productId });
  }
  s.layoutRead();
}

let deskProductsTold = 0;

/** The workspace told this (popped-out) window the desk product it shows: it is newer than any saved layout. */
export function followDeskProduct(productId: string): void {
  deskProductsTold += 1;
  const s = useDesk.getState();
  s.setLayout({ ...s.layout, productId });
}

function every(ms: number, work: () => Promise<void>): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    work().finally(() => (busy = false)).catch(() => undefined);
  }, ms);
  return () => clearInterval(timer);
}

/**
 * The desk's market, account and connection events into the store. Market events only for what `watched` says: a
 * change sent before the desk took an unwatch, kept, would be shown as live when the product is shown again.
 */
function takeDeskEvents(subscribe: Subscribe, watched: (productId: string) => boolean): Array<() => void> {
  const s = useDesk.getState;
  return [
    subscribe('book.changed', (book) => {
      if (watched(book.productId)) s().setBook(book);
    }),
    subscribe('trades.received', ({ productId, trades, inDoubt }) => {
      if (!watched(productId)) return;
      s().addTrades(productId, trades);
      s().setFeedInDoubt('trades', productId, inDoubt === true);
    }),
    subscribe('ticker.changed', (ticker) => {
      if (watched(ticker.productId)) s().setTicker(ticker);
    }),
    subscribe('candles.changed', ({ productId, candles, inDoubt }) => {
      if (!watched(productId)) return;
      s().addCandles(productId, candles);
      s().setFeedInDoubt('candles', productId, inDoubt === true);
    }),
    subscribe('orders.changed', (orders) => {
      s().applyOrders(orders);
      if (orders.some((o) => o.trades.length > 0)) void loadFills(true);
    }),
    subscribe('account.changed', (account) => s().setAccount(account)),
    subscribe('connection.changed', (connection) => s().setConnection(connection)),
  ];
}

/**
 * The desk's events taken while the window opens, from before its first reads until startFeed takes them over
 * (stop this, then start the feed, in one turn). Events are not kept for a window that is not listening: a trade
 * printed between loadEverything's read of the tape and the feed's start never reached it, and the book and
 * candles stayed as read until their next change. The reads already let what was streamed meanwhile win. The
 * connection's changes are taken too: a switch told after the account was read (while the markets were) left the
 * window showing the environment left, over the next account's balances and both accounts' orders, until the
 * status poll. The feed acts on a status told meanwhile as it starts (MarketsLoaded).
 */
export function listenWhileOpening(subscribe: Subscribe): () => void {
  const stops = takeDeskEvents(subscribe, (productId) => watchedProducts().includes(productId));
  return () => stops.forEach((stop) => stop());
}

/** Starts feeding the store, watching what loadEverything read (`loaded`) as it is; the result stops it. */
export function startFeed(subscribe?: Subscribe, loaded?: MarketsLoaded): () => void {
  const s = useDesk.getState;
  const stops: Array<() => void> = [];
  // A product loaded then and no longer shown is let go by the first rewatch, as after any change of layout. A
  // switch since the read made its markets another venue's: none of them is watched as read.
  let watching = new Set<string>(loaded?.view === currentView() ? loaded.products : []);
  const rewatch = (): void => {
    const now = new Set(watchedProducts());
    for (const id of now) if (!watching.has(id)) void loadMarket(id);
    const left = [...watching].filter((id) => !now.has(id));
    for (const id of left) void call('market.unwatch', { product_id: id }).catch(() => undefined);
    // Unwatched, a product's market moves on unseen: kept, it would show as live when the product is shown again.
    if (left.length > 0) s().forgetMarket(left);
    watching = now;
  };
  stops.push(useDesk.subscribe((state, prev) => state.layout !== prev.layout && rewatch()));
  stops.push(every(POLL.unreadMarket, () => retryUnreadMarkets(watching)));
  const statusChanged = (now: ConnectionStatus | undefined, before: ConnectionStatus | undefined): void => {
    if (now === undefined || now === before) return;
    // Another environment or key is another venue or account: nothing shown so far belongs to it.
    const switched = before !== undefined && (before.environment !== now.environment || before.apiKey !== now.apiKey);
    if (switched) {
      nextView();
      const view = currentView();
      s().clearAccountData();
      s().clearMarketData();
      for (const id of watching) void loadMarket(id);
      // What the desk lists also depends on the venue: its keys and its products. The keys named by environment:
      // unnamed, the desk answers with those of wherever it is by then, which may be one switch further on.
      void attempt('keys.list', { environment: now.environment }).then((keys) => keys && view === currentView() && useDesk.getState().setKeys(keys));
      void attempt('market.products', {}).then((products) => products && view === currentView() && useDesk.getState().setProducts(products));
    }
    // The status that brought this was just read or told: only what it makes out of date is read.
    if (switched || (now.state === 'live' && before?.state !== 'live')) void Promise.all([refreshOrders(), loadFills(false), loadBalances()]);
    // Back from an outage (the desk's session, or this window's link to the desk) to a market that is current
    // again, live or polled without a key: the desk reads back only the last 100 trades when it reconnects, and
    // none that were sent while the link was down, so a busier outage would leave a hole in the tape. As many as
    // the tape shows are read again; it keeps each trade id once.
    const backCurrent = !switched && before !== undefined && staleness(before) !== undefined && staleness(now) === undefined;
    if (backCurrent) for (const id of watching) void loadTape(id);
  };
  stops.push(useDesk.subscribe((state, prev) => statusChanged(state.connection, prev.connection)));
  // A status told while the window read what it shows, after its reads began: they may be of the session left.
  if (loaded !== undefined) statusChanged(s().connection, loaded.connection);
  rewatch();
  stops.push(
    onBridgeLink((state) => {
      // Lost with no call on its way, the link was dialled again by the next poll and nothing was said: the window
      // went on showing as live what the desk no longer sent it.
      if (state === 'lost') return markUnavailable('E0902_ServiceUnavailable: the connection to the desk was lost');
      // The desk takes a link dialled again for a new window, which watches nothing: the book and candles would
      // stay as they were. What else was missed (the tape, orders, fills, account) is read by the return to a
      // current status that the status read brings (above), once: read here as well, each was read twice. A window
      // that never heard a status has none to return from, and reads the tape here.
      const known = useDesk.getState().connection !== undefined;
      for (const id of watching) void (known ? watchMarket(id) : loadMarket(id));
      void loadStatus();
    }),
  );

  if (subscribe !== undefined) {
    stops.push(
      ...takeDeskEvents(subscribe, (productId) => watching.has(productId)),
      subscribe('environments.changed', (environments) => s().setEnvironments(environments)),
    );
    stops.push(every(POLL.connection, pollAccount));
  } else {
    stops.push(
      every(POLL.book, async () => {
        for (const id of watching) {
          const book = await call('market.book', { product_id: id, depth: 200 }).catch(() => undefined);
          if (book !== undefined && watching.has(id)) s().setBook(book);
        }
      }),
      every(POLL.trades, async () => {
        for (const id of watching) {
          const trades = await call('market.trades', { product_id: id, limit: 100 }).catch(() => undefined);
          if (trades !== undefined && watching.has(id)) s().addTrades(id, trades);
        }
      }),
      every(POLL.orders, async () => {
        const open = await readOfShownSession('orders.active', {}).catch(() => undefined);
        if (open === undefined || open === OTHER_SESSION) return;
        const before = s().openOrders;
        const gone = Object.keys(before).filter((id) => !open.some((o) => o.order_id === id));
        s().setOpenOrders(open);
        if (gone.length > 0) await refreshOrders();
      }),
      every(POLL.fills, () => loadFills(true)),
      every(POLL.account, pollAccount),
    );
  }
  return () => stops.forEach((stop) => stop());
}
