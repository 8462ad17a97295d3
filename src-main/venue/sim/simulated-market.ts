/**
 * One product as the simulator drives it: its reference price, its makers and its takers. A step moves the
 * reference, lets every maker withdraw its stale quotes, then lets every maker fill its ladder, then lets the
 * takers trade: withdrawing first means a new quote never meets a maker's own stale one on the other side.
 */
import type { Exchange } from '../exchange/exchange';
import type { Market } from '../exchange/market';
import type { MarketMaker, QuoteContext } from './market-maker';
import type { OrderEntry } from './order-entry';
import { idealGrid, lotsFor, settleGrid, type QuoteGrid } from './quote-ladder';
import type { SeededRandom } from '../../../src-shared/seeded-random';
import type { ReferencePrice } from './reference-price';
import type { TakerFlow } from './taker-flow';

export class SimulatedMarket {
  private grid: QuoteGrid | undefined;
  /** The reference the makers last quoted around; undefined before they first did. */
  quotedTicks: number | undefined;

  constructor(
    readonly market: Market,
    readonly reference: ReferencePrice,
    private readonly makers: readonly MarketMaker[],
    private readonly takers: TakerFlow,
    /** Quote atoms of the standard clip: the size of the main maker's best level. */
    readonly clipAtoms: bigint,
  ) {}

  advance(seconds: number, volatility: number, rng: SeededRandom, exchange: Exchange, entry: OrderEntry): void {
    this.reference.walk(volatility, seconds, rng.gaussian());
    const ctx = this.quote(volatility, rng, exchange, entry, true);
    this.takers.trade({ ...ctx, seconds });
  }

  /**
   * The makers' ladders around the reference as it stands: stale quotes withdrawn, gaps filled. Only when
   * `trading` does a maker trade into a trader's order that crosses its ladder: a paused market stays frozen.
   */
  quote(volatility: number, rng: SeededRandom, exchange: Exchange, entry: OrderEntry, trading = false): QuoteContext {
    const referenceTicks = this.reference.ticks;
    this.quotedTicks = referenceTicks;
    const grid = settleGrid(this.grid, idealGrid(referenceTicks, volatility));
    this.grid = grid;
    const clipLots = Math.max(1, lotsFor(this.market.rules, referenceTicks, this.clipAtoms));
    const ctx = { exchange, entry, rng, referenceTicks, grid, clipLots, trading };
    for (const maker of this.makers) maker.withdrawStale(ctx);
    for (const maker of this.makers) maker.fillGaps(ctx);
    return ctx;
  }
}
