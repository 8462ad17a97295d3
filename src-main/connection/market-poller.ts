/**
 * Market data from the public REST endpoints, for a product whose WebSocket feed the venue refused (the
 * interface shows no market-data channels, so a development or production environment may have none): the
 * order book and the recent trades every interval, one poll at a time, new trades passed on oldest first.
 */
import type { OrderBook, PublicTrade } from '../../src-shared/protocol/records';
import type { Disposable } from './events';
import type { VenueRestClient } from './rest-client';

export interface MarketPollerListener {
  book(book: OrderBook): void;
  /** Trades not passed on before, oldest first; on the first poll, the recent history. */
  trades(trades: readonly PublicTrade[]): void;
  failed(err: unknown): void;
  /**
   * What was passed on stopped being current (why), or is current again (undefined); told on each change.
   * Polling has no connection whose loss says the data froze, so this is the only word of it.
   */
  staleness?(reason: string | undefined): void;
}

export interface MarketPollerOptions {
  readonly depth?: number;
  readonly tradeLimit?: number;
  /**
   * With no poll answered for this long the data is stale, even while a poll still waits: a venue that takes
   * the connection and never answers fails a read only after the client's timeouts and retries, tens of seconds.
   */
  readonly staleAfterMs?: number;
}

/** Trades remembered for telling new from already seen; more than one poll's page. */
const SEEN_TRADES = 2_000;
/** The most trades one read may ask for (GET /products/{id}/trades). */
const MAX_TRADES_PAGE = 1_000;
/** Polls that may go unanswered before the data counts as stale, and the least time that is. */
const STALE_AFTER_POLLS = 3;
const MIN_STALE_AFTER_MS = 3_000;

export class MarketPoller implements Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private stale: string | undefined;
  private readonly seen = new Set<string>();
  /** Whether a poll has read the trades: from then on, what `seen` lacks is new. */
  private tradesKnown = false;
  private readonly depth: number;
  private readonly tradeLimit: number;
  private readonly staleAfterMs: number;

  constructor(
    private readonly rest: VenueRestClient,
    readonly productId: string,
    private readonly intervalMs: number,
    private readonly listener: MarketPollerListener,
    options: MarketPollerOptions = {},
  ) {
    this.depth = options.depth ?? 50;
    this.tradeLimit = options.tradeLimit ?? 100;
    this.staleAfterMs = options.staleAfterMs ?? Math.max(MIN_STALE_AFTER_MS, STALE_AFTER_POLLS * intervalMs);
  }

  /** Why the data passed on is not current, or undefined while it is. */
  get staleness(): string | undefined {
    return this.stale;
  }

  start(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.armWatchdog();
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      void this.poll().finally(() => {
        if (!this.stopped) this.schedule(this.intervalMs);
      });
    }, delayMs);
  }

  /** One round: the book, then the trades. */
  async poll(): Promise<void> {
    try {
      const [book, page] = await Promise.all([this.rest.getOrderBook(this.productId, this.depth), this.rest.listTrades(this.productId, this.tradeLimit)]);
      // A full page of trades all new since a poll that was answered: more may have been made since than a page
      // holds (a busy market, polls failing for a while), and the older ones would never be passed on.
      const behind = this.tradesKnown && page.length >= this.tradeLimit && this.tradeLimit < MAX_TRADES_PAGE && page.every((t) => !this.seen.has(t.id));
      // A venue that refuses so long a read still has the page passed on: a hole, not a stalled feed.
      const trades = behind ? await this.rest.listTrades(this.productId, MAX_TRADES_PAGE).catch(() => page) : page;
      if (this.stopped) return;
      this.armWatchdog();
      this.listener.book(book);
      const fresh = trades.filter((t) => !this.seen.has(t.id)).reverse();
      for (const t of fresh) this.seen.add(t.id);
      if (this.seen.size > SEEN_TRADES) for (const id of [...this.seen].slice(0, this.seen.size - SEEN_TRADES)) this.seen.delete(id);
      this.tradesKnown = true;
      if (fresh.length > 0) this.listener.trades(fresh);
      this.setStale(undefined);
    } catch (err) {
      if (this.stopped) return;
      this.listener.failed(err);
      this.setStale(err instanceof Error ? err.message : String(err));
    }
  }

  private armWatchdog(): void {
    if (this.watchdog !== undefined) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      // A failure already said why, more precisely.
      if (!this.stopped && this.stale === undefined) this.setStale(`no answer for ${Math.round(this.staleAfterMs / 1000)} s`);
    }, this.staleAfterMs);
  }

  private setStale(reason: string | undefined): void {
    if (reason === this.stale) return;
    this.stale = reason;
    this.listener.staleness?.(reason);
  }

  dispose(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.watchdog !== undefined) clearTimeout(this.watchdog);
  }
}
