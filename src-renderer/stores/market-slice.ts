// The market per product: book, trades, ticker and candles, replaced whole as the desk reports them.
import type { StateCreator } from 'zustand';
import type { BookSnapshot, Ticker } from '../../src-shared/ipc/contract';
import type { Product, PublicTrade } from '../../src-shared/protocol/records';
import type { Candle } from '../../src-shared/protocol/ws';
import { upsertCandles } from '../features/chart/candles';
import type { DeskState } from './desk-store';
import { compareDecimal } from '../ui/decimal-text';

/** What the window reads of a product's market, each on its own: the book (with its watch), the tape, the candles. */
export type MarketPart = 'book' | 'trades' | 'candles';

/** The tape keeps this many trades per product, newest first. */
export const TAPE_LENGTH = 500;

export interface MarketSlice {
  products: Product[];
  books: Record<string, BookSnapshot>;
  trades: Record<string, PublicTrade[]>;
  tickers: Record<string, Ticker>;
  candles: Record<string, Candle[]>;
  /** Products whose tape is the last trades known: the desk's trades sub is not answered (cut off, or just sent). */
  tradesInDoubt: Record<string, true>;
  /** The same for the products' candles. */
  candlesInDoubt: Record<string, true>;
  /**
   * Why the last read of a product's book, tape or candles failed, while it has not been read since: the panel
   * showing it says so (an empty ladder said nothing), and the feed reads it again.
   */
  marketUnread: Record<string, Partial<Record<MarketPart, string>>>;
  /** `problem` undefined: the part was read. */
  setMarketRead: (productId: string, part: MarketPart, problem: string | undefined) => void;
  setProducts: (products: Product[]) => void;
  setBook: (book: BookSnapshot) => void;
  addTrades: (productId: string, trades: PublicTrade[]) => void;
  setFeedInDoubt: (feed: 'trades' | 'candles', productId: string, inDoubt: boolean) => void;
  setTicker: (ticker: Ticker) => void;
  addCandles: (productId: string, candles: Candle[]) => void;
  /** Forgets what is known of these products' markets: the window no longer watches them. */
  forgetMarket: (productIds: readonly string[]) => void;
  /** Forgets the books, trades, tickers and candles of the venue shown so far. */
  clearMarketData: () => void;
}

/** Where the window keeps each part of a product's market. */
const HELD = { book: 'books', trades: 'trades', candles: 'candles' } as const satisfies Record<MarketPart, keyof MarketSlice>;

/**
 * Why a panel of a product's book, tape or candles could not read it, while the window holds none of that part: one
 * streamed meanwhile (another window's panel watches the product) is the market, and nothing is left to say.
 */
export function unreadOf(s: Pick<MarketSlice, 'books' | 'trades' | 'candles' | 'marketUnread'>, productId: string, part: MarketPart): string | undefined {
  return s[HELD[part]][productId] === undefined ? s.marketUnread[productId]?.[part] : undefined;
}

export const createMarketSlice: StateCreator<DeskState, [], [], MarketSlice> = (set) => ({
  products: [],
  books: {},
  trades: {},
  tickers: {},
  candles: {},
  tradesInDoubt: {},
  candlesInDoubt: {},
  marketUnread: {},
  setMarketRead: (productId, part, problem) =>
    set((s) => {
      const parts = { ...s.marketUnread[productId] };
      // The state itself when nothing changed: a new object, even empty, is an update every listener runs for.
      if (parts[part] === problem) return s;
      if (problem === undefined) delete parts[part];
      else parts[part] = problem;
      const others = Object.fromEntries(Object.entries(s.marketUnread).filter(([id]) => id !== productId));
      return { marketUnread: Object.keys(parts).length === 0 ? others : { ...others, [productId]: parts } };
    }),
  setProducts: (products) => set({ products }),
  setBook: (book) => set((s) => ({ books: { ...s.books, [book.productId]: book } })),
  addTrades: (productId, incoming) =>
    set((s) => {
      const known = s.trades[productId] ?? [];
      // Each trade once, the tape's and within the batch: a frame can bring one twice (the stream's copy and a
      // read of the recent trades that brings it again, coalesced), and this is the one place that keeps it once.
      const seen = new Set(known.map((t) => t.id));
      const fresh: PublicTrade[] = [];
      for (const trade of incoming) {
        if (seen.has(trade.id)) continue;
        seen.add(trade.id);
        fresh.push(trade);
      }
      if (fresh.length === 0) return s;
      // Newest first across both: a REST read can bring trades older than some the stream already showed.
      const merged = [...fresh, ...known].sort((a, b) => compareDecimal(b.time, a.time));
      return { trades: { ...s.trades, [productId]: merged.slice(0, TAPE_LENGTH) } };
    }),
  setFeedInDoubt: (feed, productId, inDoubt) =>
    set((s) => {
      const held = feed === 'trades' ? 'tradesInDoubt' : 'candlesInDoubt';
      if ((s[held][productId] === true) === inDoubt) return s;
      const { [productId]: _, ...others } = s[held];
      return { [held]: inDoubt ? { ...others, [productId]: true } : others };
    }),
  setTicker: (ticker) => set((s) => ({ tickers: { ...s.tickers, [ticker.productId]: ticker } })),
  addCandles: (productId, candles) =>
    set((s) => ({ candles: { ...s.candles, [productId]: upsertCandles(s.candles[productId] ?? [], candles) } })),
  forgetMarket: (productIds) =>
    set((s) => {
      const without = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).filter(([id]) => !productIds.includes(id)));
      return {
        books: without(s.books),
        trades: without(s.trades),
        tradesInDoubt: without(s.tradesInDoubt),
        tickers: without(s.tickers),
        candles: without(s.candles),
        candlesInDoubt: without(s.candlesInDoubt),
        marketUnread: without(s.marketUnread),
      };
    }),
  clearMarketData: () => set({ books: {}, trades: {}, tradesInDoubt: {}, tickers: {}, candles: {}, candlesInDoubt: {}, marketUnread: {} }),
});
