/**
 * Where simulated market makers put their quotes: a ladder of levels on each side of the reference price,
 * laid on a grid so that a reference moving inside one grid cell changes no quote at all. That keeps the write
 * rate modest: a maker re-quotes only the levels the move pushed off its ladder.
 */
import type { ProductRules } from '../../../src-shared/protocol/product-rules';
import type { Side } from '../engine';

/**
 * Half the spread and the gap between levels, in basis points of the reference, per unit of annualised
 * volatility: a maker facing bigger moves stands further back, so spreads widen when volatility rises.
 */
const HALF_SPREAD_BP = 1;
const HALF_SPREAD_BP_PER_VOLATILITY = 3;
const LEVEL_GAP_BP = 1;
const LEVEL_GAP_BP_PER_VOLATILITY = 1;
/** A grid is kept while it is within this share of the ideal one, so a reference hovering where the ideal rounds differently does not make every maker re-quote its whole ladder. */
const GRID_TOLERANCE_PERCENT = 20;
/** Each level holds 4/5 of the size of the one nearer the mid: depth thins away from the mid. */
const THIN_NUMERATOR = 4;
const THIN_DENOMINATOR = 5;

export interface QuoteGrid {
  /** Ticks from the reference to the nearest quote allowed on either side. */
  readonly halfSpread: number;
  /** Ticks between a maker's levels. */
  readonly step: number;
}

export function idealGrid(referenceTicks: number, volatility: number): QuoteGrid {
  const ticksAt = (bp: number): number => Math.max(1, Math.round((referenceTicks * bp) / 10_000));
  return {
    halfSpread: ticksAt(HALF_SPREAD_BP + HALF_SPREAD_BP_PER_VOLATILITY * volatility),
    step: ticksAt(LEVEL_GAP_BP + LEVEL_GAP_BP_PER_VOLATILITY * volatility),
  };
}

export function settleGrid(current: QuoteGrid | undefined, ideal: QuoteGrid): QuoteGrid {
  if (current === undefined) return ideal;
  const near = (have: number, want: number): boolean => Math.abs(have - want) * 100 <= want * GRID_TOLERANCE_PERCENT;
  return near(current.halfSpread, ideal.halfSpread) && near(current.step, ideal.step) ? current : ideal;
}

/** floor(a / b) for integers, exact whatever the sign of a. */
function floorDiv(a: number, b: number): number {
  return (a - (((a % b) + b) % b)) / b;
}

/**
 * The price of a maker's level `level` (0 = best) on `side`: on the maker's grid lines (prices ≡ offset mod
 * step) and at least halfSpread from the reference, so a maker's bids always sit below its asks. Undefined
 * beyond the product's price range.
 */
export function levelPrice(side: Side, referenceTicks: number, grid: QuoteGrid, offset: number, level: number, maxTicks: number): number | undefined {
  const { halfSpread, step } = grid;
  if (side === 'BUY') {
    const best = floorDiv(referenceTicks - halfSpread - offset, step) * step + offset;
    const price = best - level * step;
    return price >= 1 ? price : undefined;
  }
  const best = -floorDiv(-(referenceTicks + halfSpread - offset), step) * step + offset;
  const price = best + level * step;
  return price <= maxTicks ? price : undefined;
}

/** The nominal size of each level, best first. */
export function ladderSizes(bestLots: number, levels: number): number[] {
  const sizes: number[] = [];
  let lots = bestLots;
  for (let i = 0; i < levels; i++) {
    sizes.push(Math.max(1, lots));
    lots = Math.floor((lots * THIN_NUMERATOR) / THIN_DENOMINATOR);
  }
  return sizes;
}

/** Whole lots that `notionalAtoms` of quote buys at `ticks`. */
export function lotsFor(rules: ProductRules, ticks: number, notionalAtoms: bigint): number {
  return Number(notionalAtoms / BigInt(ticks * rules.quoteAtomsPerTickLot));
}

/** `lots` raised to the product's minimum size and minimum notional at `ticks` and capped at its maximum size. */
export function tradableLots(rules: ProductRules, ticks: number, lots: number): number {
  const perLot = ticks * rules.quoteAtomsPerTickLot;
  const forMinNotional = floorDiv(rules.minNotionalAtoms + perLot - 1, perLot);
  return Math.min(rules.maxLots, Math.max(lots, rules.minLots, forMinNotional));
}
