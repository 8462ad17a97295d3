// The market per product: book, trades, ticker and candles, replaced whole as the desk reports them.
import type { StateCreator } from 'zustand';
import type { BookSnapshot, Ticker } from '../../src-shared/ipc/contract';
import type { Product, PublicTrade } from '../../src-shared/protocol/records';
import type { Candle } from '../../src-shared/protocol/ws';
import { upsertCandles } from '../features/chart/candles';
import type { DeskState } from './desk-store';
import { compareDecimal } from '../ui/decimal-text';

/** The tape keeps this many trades per product, newest first. */
export const TAPE_LENGTH = 500;

export interface MarketSlice {
  products: Product[];
  books: Record<string, BookSnapshot>;
  trades: Record<string, PublicTrade[]>;
  tickers: Record<string, Ticker>;
  candles: Record<string, Candle[]>;
  setProducts: (products: Product[]) => void;
  setBook: (book: BookSnapshot) => void;
  addTrades: (productId: string, trades: PublicTrade[]) => void;
  setTicker: (ticker: Ticker) => void;
  addCandles: (productId: string, candles: Candle[]) => void;
  /** Forgets what is known of these products' markets: the window no longer watches them. */
  forgetMarket: (productIds: readonly string[]) => void;
  /** Forgets the books, trades, tickers and candles of the venue shown so far. */
  clearMarketData: () => void;
}

export const createMarketSlice: StateCreator<DeskState, [], [], MarketSlice> = (set) => ({
  products: [],
  books: {},
  trades: {},
  tickers: {},
  candles: {},
  setProducts: (products) => set({ products }),
  setBook: (book) => set((s) => ({ books: { ...s.books, [book.productId]: book } })),
  addTrades: (productId, incoming) =>
    set((s) => {
      const known = s.trades[productId] ?? [];
      const seen = new Set(known.map((t) => t.id));
      const fresh = incoming.filter((t) => !seen.has(t.id));
      if (fresh.length === 0) return {};
      // Newest first across both: a REST read can bring trades older than some the stream already showed.
      const merged = [...fresh, ...known].sort((a, b) => compareDecimal(b.time, a.time));
      return { trades: { ...s.trades, [productId]: merged.slice(0, TAPE_LENGTH) } };
    }),
  setTicker: (ticker) => set((s) => ({ tickers: { ...s.tickers, [ticker.productId]: ticker } })),
  addCandles: (productId, candles) =>
    set((s) => ({ candles: { ...s.candles, [productId]: upsertCandles(s.candles[productId] ?? [], candles) } })),
  forgetMarket: (productIds) =>
    set((s) => {
      const without = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).filter(([id]) => !productIds.includes(id)));
      return { books: without(s.books), trades: without(s.trades), tickers: without(s.tickers), candles: without(s.candles) };
    }),
  clearMarketData: () => set({ books: {}, trades: {}, tickers: {}, candles: {} }),
});
