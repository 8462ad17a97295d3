/**
 * A simulated market maker: rests a ladder of post-only limit orders on both sides of the reference price and
 * keeps it there. Each step it cancels the quotes the reference moved off its ladder (or that takers ate down to
 * less than half their size) and fills the gaps, nearest the mid first, while its free balances cover them.
 */
import type { Side } from '../engine';
import type { Exchange } from '../exchange/exchange';
import type { Market } from '../exchange/market';
import type { OrderEntry } from './order-entry';
import { ladderSizes, levelPrice, tradableLots, type QuoteGrid } from './quote-ladder';
import type { SeededRandom } from '../../../src-shared/seeded-random';

export interface MakerProfile {
  /** Levels quoted on each side; at most 10 keeps the simulator's resting orders bounded. */
  readonly levels: number;
  /** Size of this maker's best level, in percent of the product's standard clip. */
  readonly sizePercent: number;
  /** Where this maker's prices sit between grid lines, in percent of a step: makers quoting between each other's levels make a denser book. */
  readonly offsetPercent: number;
}

export interface QuoteContext {
  readonly exchange: Exchange;
  readonly entry: OrderEntry;
  readonly rng: SeededRandom;
  readonly referenceTicks: number;
  readonly grid: QuoteGrid;
  /** Lots of the product's standard clip at the reference. */
  readonly clipLots: number;
  /** False while the market is paused: the makers quote, and trade with nobody. */
  readonly trading: boolean;
}

const SIDES: readonly Side[] = ['BUY', 'SELL'];
/** Placed sizes vary around the ladder's nominal size by this much either way, in percent. */
const SIZE_JITTER_PERCENT = 25;
/** A bid must leave this share of its notional free on top, for the fee its hold includes (in percent). */
const FEE_ALLOWANCE_PERCENT = 1n;

export class MarketMaker {
  /** Price in ticks → id of the order resting there, per side. */
  private readonly quotes: Record<Side, Map<number, string>> = { BUY: new Map(), SELL: new Map() };
  /** Price in ticks → nominal lots of the ladder worked out by the last withdrawStale. */
  private ladder: Record<Side, Map<number, number>> = { BUY: new Map(), SELL: new Map() };
  /** Ids of quotes a paused market placed behind a trader's order rather than at their level (see quoteLevel). */
  private readonly displaced = new Set<string>();
  /**
   * Levels each side quotes: the profile's, within the account's open-order cap (--max-open-orders) shared by both
   * sides. An odd cap's spare order goes to the bids of even slots and the asks of odd ones, so under a cap of 1
   * the product's two makers still make a two-sided book between them.
   */
  private readonly levels: Record<Side, number>;

  constructor(
    readonly userId: string,
    readonly market: Market,
    readonly profile: MakerProfile,
    maxOpenOrders: number,
    slot: number,
  ) {
    const bids = slot % 2 === 0 ? Math.ceil(maxOpenOrders / 2) : Math.floor(maxOpenOrders / 2);
    this.levels = { BUY: Math.min(profile.levels, bids), SELL: Math.min(profile.levels, maxOpenOrders - bids) };
  }

  /**
   * Work out the ladder for this reference, then cancel every quote that is not on it, is mostly eaten, or is
   * well above what a fresh quote at its level would be: when the reference trends, quotes placed near the mid
   * end up deep in the ladder, and kept at full size they made depth grow away from the mid on one side.
   */
  withdrawStale(ctx: QuoteContext): void {
    const { grid, referenceTicks } = ctx;
    const offset = Math.floor((grid.step * this.profile.offsetPercent) / 100);
    const bestLots = Math.max(1, Math.floor((ctx.clipLots * this.profile.sizePercent) / 100));
    for (const side of SIDES) {
      const ladder = new Map<number, number>();
      ladderSizes(bestLots, this.levels[side]).forEach((lots, level) => {
        const price = levelPrice(side, referenceTicks, grid, offset, level, this.market.rules.maxTicks);
        if (price !== undefined) ladder.set(price, lots);
      });
      this.ladder[side] = ladder;
      for (const [price, orderId] of this.quotes[side]) {
        const displaced = this.displaced.delete(orderId);
        const live = ctx.exchange.liveOrder(orderId);
        if (live === undefined || live.row.status !== 'ACTIVE') {
          this.quotes[side].delete(price);
          continue;
        }
        const nominal = ladder.get(price);
        // A quote moved behind a trader's order is laid again each time: the order may have gone, and a running
        // market trades into it instead.
        if (displaced || nominal === undefined || live.row.restingLots * 2 < nominal || live.row.restingLots * 4 > this.largestFresh(price, nominal) * 5) {
          ctx.entry.cancel(this.userId, orderId);
          this.quotes[side].delete(price);
        }
      }
    }
  }

  /** The most a fresh quote at this level can hold: its nominal size at the top of the jitter, made tradable. */
  private largestFresh(price: number, nominal: number): number {
    return tradableLots(this.market.rules, price, Math.floor((nominal * (100 + SIZE_JITTER_PERCENT)) / 100));
  }

  /**
   * Quote the ladder's empty levels, nearest the mid first on both sides in turn. Runs after every maker has
   * withdrawn, so no new quote meets a stale one. The ladder fits the open-order cap, so the venue never refuses a
   * quote for it; an IOC into a trader's crossing order goes at a level this maker does not quote, so it fits too.
   */
  fillGaps(ctx: QuoteContext): void {
    const bids = [...this.ladder.BUY];
    const asks = [...this.ladder.SELL];
    for (let level = 0; level < Math.max(bids.length, asks.length); level++) {
      for (const [side, rung] of [['BUY', bids[level]], ['SELL', asks[level]]] as const) {
        if (rung !== undefined && !this.quotes[side].has(rung[0])) this.quoteLevel(ctx, side, rung[0], rung[1], level);
      }
    }
  }

  /** `level`: the rung's place in the ladder, 0 nearest the mid. */
  private quoteLevel(ctx: QuoteContext, side: Side, price: number, nominal: number, level: number): void {
    const { market } = this;
    const book = market.book;
    const jitter = ctx.rng.int(100 - SIZE_JITTER_PERCENT, 100 + SIZE_JITTER_PERCENT);
    // Only a trader's order can rest where this level would cross (every maker withdrew its stale quotes, takers
    // never rest). Skipping the level left that side of the book empty for as long as a bid through the asks
    // rested, waiting for takers; a maker sells into it instead, at most this level's size and down to its price,
    // as one would into a bid above its own ask. The level is quoted at the next step once nothing crosses it.
    const opposite = side === 'BUY' ? book.bestAsk() : book.bestBid();
    const crosses = opposite !== undefined && (side === 'BUY' ? price >= opposite : price <= opposite);
    let at = price;
    if (crosses && !ctx.trading) {
      // A paused market trades with nobody, and skipping every level the order crosses left that side empty until
      // the trader resumed (a reference moved 1 % past their bid: no ask at all). The crossing levels, a prefix of
      // the ladder, stand behind the order instead, from the first price that does not cross it, a step apart.
      at = side === 'BUY' ? opposite - 1 - level * ctx.grid.step : opposite + 1 + level * ctx.grid.step;
      if (at < 1 || at > market.rules.maxTicks) return;
    }
    const taking = crosses && ctx.trading;
    const lots = tradableLots(market.rules, at, Math.floor((nominal * jitter) / 100));
    if (!this.canAfford(ctx.exchange, side, at, lots)) return;
    const order = ctx.entry.place(this.userId, {
      type: 'LIMIT',
      side,
      product_id: market.id,
      limit_price: market.price(at),
      base_size: market.size(lots),
      time_in_force: taking ? 'IOC' : 'GTC',
      post_only: !taking,
    });
    if (order?.row.status !== 'ACTIVE') return;
    this.quotes[side].set(price, order.row.orderId);
    if (at !== price) this.displaced.add(order.row.orderId);
  }

  private canAfford(exchange: Exchange, side: Side, price: number, lots: number): boolean {
    const { market } = this;
    if (side === 'SELL') return exchange.ledger.balance(this.userId, market.baseAsset).free >= market.baseAtoms(lots);
    const notional = market.notional(price, lots);
    return exchange.ledger.balance(this.userId, market.quoteAsset).free >= notional + (notional * FEE_ALLOWANCE_PERCENT) / 100n;
  }
}
