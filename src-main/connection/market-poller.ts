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
}

/** Trades remembered for telling new from already seen; more than one poll's page. */
const SEEN_TRADES = 2_000;

export class MarketPoller implements Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private readonly seen = new Set<string>();

  constructor(
    private readonly rest: VenueRestClient,
    readonly productId: string,
    private readonly intervalMs: number,
    private readonly listener: MarketPollerListener,
    private readonly depth = 50,
    private readonly tradeLimit = 100,
  ) {}

  start(): void {
    if (this.timer !== undefined || this.stopped) return;
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
      const [book, trades] = await Promise.all([this.rest.getOrderBook(this.productId, this.depth), this.rest.listTrades(this.productId, this.tradeLimit)]);
      if (this.stopped) return;
      this.listener.book(book);
      const fresh = trades.filter((t) => !this.seen.has(t.id)).reverse();
      for (const t of fresh) this.seen.add(t.id);
      if (this.seen.size > SEEN_TRADES) for (const id of [...this.seen].slice(0, this.seen.size - SEEN_TRADES)) this.seen.delete(id);
      if (fresh.length > 0) this.listener.trades(fresh);
    } catch (err) {
      if (!this.stopped) this.listener.failed(err);
    }
  }

  dispose(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}
