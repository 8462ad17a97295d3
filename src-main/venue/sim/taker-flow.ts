/**
 * Simulated takers: they arrive at random (a Poisson process) and take liquidity, half of them with market
 * orders and half with IOC limit orders priced a few levels through the reference. Most are a fraction of a
 * maker's best level; now and then a block several times larger walks the book.
 */
import type { Side } from '../engine';
import type { Exchange } from '../exchange/exchange';
import type { Market } from '../exchange/market';
import type { OrderBody, OrderEntry } from './order-entry';
import type { QuoteGrid } from './quote-ladder';
import { tradableLots } from './quote-ladder';
import type { SeededRandom } from '../../../src-shared/seeded-random';

/** Mean arrivals per simulated second on each product. */
const ARRIVALS_PER_SECOND = 2;
/** However long a step, no more takers than this arrive in it on one product. */
const MAX_ARRIVALS_PER_STEP = 50;
const MARKET_ORDER_CHANCE = 0.5;
const BLOCK_CHANCE = 0.1;
const BLOCK_MULTIPLE = 4;
/** An IOC limit reaches this many ladder steps past the makers' best quote. */
const IOC_REACH_STEPS = 3;
/** A buy must have this share of its estimated cost free on top, for fees and slippage (in percent). */
const BUY_ALLOWANCE_PERCENT = 2n;

export interface TakeContext {
  readonly exchange: Exchange;
  readonly entry: OrderEntry;
  readonly rng: SeededRandom;
  readonly seconds: number;
  readonly referenceTicks: number;
  readonly grid: QuoteGrid;
  readonly clipLots: number;
}

export class TakerFlow {
  constructor(
    readonly userIds: readonly string[],
    readonly market: Market,
  ) {
    if (userIds.length === 0) throw new Error(`no simulated takers for ${market.id}`);
  }

  trade(ctx: TakeContext): void {
    const { market } = this;
    const arrivals = ctx.rng.poisson(ARRIVALS_PER_SECOND * ctx.seconds, MAX_ARRIVALS_PER_STEP);
    for (let i = 0; i < arrivals; i++) {
      // Every arrival draws the same numbers whatever the book looks like, so one skipped order does not shift the
      // rest of the stream.
      const userId = this.userIds[ctx.rng.int(0, this.userIds.length - 1)] as string;
      const side: Side = ctx.rng.chance(0.5) ? 'BUY' : 'SELL';
      const useMarket = ctx.rng.chance(MARKET_ORDER_CHANCE);
      const percent = ctx.rng.int(10, 150) * (ctx.rng.chance(BLOCK_CHANCE) ? BLOCK_MULTIPLE : 1);
      const book = market.book;
      const opposite = side === 'BUY' ? book.bestAsk() : book.bestBid();
      if (opposite === undefined) continue;
      const reach = ctx.grid.halfSpread + IOC_REACH_STEPS * ctx.grid.step;
      const limit = side === 'BUY' ? Math.min(market.rules.maxTicks, ctx.referenceTicks + reach) : Math.max(1, ctx.referenceTicks - reach);
      // No taker takes more than half of what rests on the side it trades against: several blocks in one step
      // (ten simulated seconds a real second at speed 10) used to empty a side before the makers' next step.
      const cap = Math.floor(restingLots(market, side === 'BUY' ? 'SELL' : 'BUY') / 2);
      const lots = tradableLots(market.rules, Math.min(opposite, limit), Math.min(Math.floor((ctx.clipLots * percent) / 100), cap));
      if (lots > cap) continue;
      if (!this.canAfford(ctx.exchange, userId, side, lots)) continue;
      const body: OrderBody = useMarket
        ? { type: 'MARKET', side, product_id: market.id, base_size: market.size(lots) }
        : { type: 'LIMIT', side, product_id: market.id, base_size: market.size(lots), limit_price: market.price(limit), time_in_force: 'IOC' };
      ctx.entry.place(userId, body);
    }
  }

  private canAfford(exchange: Exchange, userId: string, side: Side, lots: number): boolean {
    const { market } = this;
    if (side === 'SELL') return exchange.ledger.balance(userId, market.baseAsset).free >= market.baseAtoms(lots);
    const cost = BigInt(market.book.estimate('BUY', 0, lots, Number.POSITIVE_INFINITY).notional);
    return exchange.ledger.balance(userId, market.quoteAsset).free >= cost + (cost * BUY_ALLOWANCE_PERCENT) / 100n;
  }
}

/** Lots resting on one side of the market's book. */
function restingLots(market: Market, side: Side): number {
  let lots = 0;
  for (const level of market.book.depth(side, Number.POSITIVE_INFINITY)) lots += level.lots;
  return lots;
}
