/**
 * Public market data as WebSocket events: level2 snapshots and updates, trades, ticker and one-minute candles,
 * built from what each commit made durable. Each Market keeps its candles as trades happen (after a restart, the
 * day of them the store's candles table holds); the ticker's 24-hour figures are summed from a day of candles.
 */
import type { CandlesEvent, Level2SnapshotEvent, MarketDataChannel, TickerEvent } from '../../../src-shared/protocol/ws';
import { orderBookRecord, publicTradeRecord } from '../api/records';
import type { Market } from '../exchange/market';
import type { TradeRow } from '../store';
import type { CommittedBatch } from '../venue';
import { LEVEL2_DEPTH } from './level2';

const DAY_NS = 86_400_000_000_000n;

export interface MarketDataEvent {
  channel: MarketDataChannel;
  productId: string;
  event: unknown;
  /**
   * Level2 and candles: how far the event reaches, in the same count as its channel's snapshot (the book's
   * sequence; the venue-wide number of the newest trade the candles hold). One that reaches no further than the
   * snapshot a subscriber was sent is already in it: its commit was taken before the snapshot was read.
   */
  mark?: number;
}

/** A candles snapshot and its mark (see MarketDataEvent): the number of the newest trade it holds. */
export interface CandleSnapshot {
  event: CandlesEvent;
  mark: number;
}

/**
 * The ticker of a market as it stands. A commit takes its products' tickers when it is taken (Venue), not when it
 * is published: by then later commands, not yet durable, may have traded or changed the book.
 */
export function tickerOf(market: Market, now: bigint): TickerEvent {
  const day = market.candles.summary(now - DAY_NS);
  const bestBid = market.book.depth('BUY', 1)[0];
  const bestAsk = market.book.depth('SELL', 1)[0];
  const last = market.book.lastTradeTicks;
  return {
    channel: 'ticker',
    type: 'update',
    product_id: market.id,
    price: last === undefined ? '' : market.price(last),
    best_bid: bestBid === undefined ? '' : market.price(bestBid.priceTicks),
    best_bid_size: bestBid === undefined ? '' : market.size(bestBid.lots),
    best_ask: bestAsk === undefined ? '' : market.price(bestAsk.priceTicks),
    best_ask_size: bestAsk === undefined ? '' : market.size(bestAsk.lots),
    open_24h: day?.open ?? '',
    high_24h: day?.high ?? '',
    low_24h: day?.low ?? '',
    volume_24h: day?.volume ?? '0',
    time: now.toString(),
  };
}

export class MarketDataFeed {

  constructor(
    private readonly markets: ReadonlyMap<string, Market>,
    private readonly now: () => bigint,
  ) {
  }

  level2Snapshot(productId: string): Level2SnapshotEvent | undefined {
    const market = this.markets.get(productId);
    // The book GET /products/{id}/orderbook answers, at the channel's depth.
    return market === undefined ? undefined : { channel: 'level2', type: 'snapshot', ...orderBookRecord(market, LEVEL2_DEPTH, this.now()) };
  }

  candleSnapshot(productId: string): CandleSnapshot | undefined {
    const market = this.markets.get(productId);
    if (market === undefined) return undefined;
    return {
      event: { channel: 'candles', type: 'snapshot', product_id: productId, candles: market.candles.recent() },
      mark: market.recentTrades.at(-1)?.seq ?? 0,
    };
  }

  ticker(productId: string): TickerEvent | undefined {
    const market = this.markets.get(productId);
    return market === undefined ? undefined : tickerOf(market, this.now());
  }

  /**
   * The events one commit produces, in the order a subscriber should see them. Candles are always kept up to
   * date; an event nobody `wants` is not built.
   */
  eventsOf(batch: CommittedBatch, wants: (channel: MarketDataChannel, productId: string) => boolean): MarketDataEvent[] {
    const out: MarketDataEvent[] = [];
    const time = this.now().toString();
    const touched = new Set<string>(batch.changedBooks);
    for (const book of batch.books) {
      if (!wants('level2', book.productId)) continue;
      out.push({
        channel: 'level2',
        productId: book.productId,
        mark: book.sequence,
        event: { channel: 'level2', type: 'l2update', product_id: book.productId, sequence: book.sequence, time, changes: book.changes },
      });
    }
    const tradesByProduct = new Map<string, TradeRow[]>();
    for (const trade of batch.trades) {
      const list = tradesByProduct.get(trade.productId) ?? [];
      list.push(trade);
      tradesByProduct.set(trade.productId, list);
    }
    for (const [productId, trades] of tradesByProduct) {
      const market = this.markets.get(productId);
      if (market === undefined) continue;
      touched.add(productId);
      if (wants('trades', productId)) out.push({
        channel: 'trades',
        productId,
        event: {
          channel: 'trades',
          type: 'update',
          product_id: productId,
          data: trades.map(publicTradeRecord),
        },
      });
      if (wants('candles', productId)) {
        const candles = batch.candles.filter((c) => c.productId === productId).map(({ productId: _, start, ...prices }) => ({ start: start.toString(), ...prices }));
        // A commit's trades come in seq order, as the snapshot's tape does.
        const mark = trades.at(-1)?.seq ?? 0;
        out.push({ channel: 'candles', productId, mark, event: { channel: 'candles', type: 'update', product_id: productId, candles } });
      }
    }
    for (const productId of touched) {
      if (!wants('ticker', productId)) continue;
      const ticker = batch.tickers.get(productId);
      if (ticker !== undefined) out.push({ channel: 'ticker', productId, event: ticker });
    }
    return out;
  }
}
