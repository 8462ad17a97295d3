/**
 * The matching engine's vocabulary. Prices are whole ticks and sizes whole lots (plain numbers, far below 2^53
 * by the product bounds); a notional is ticks × lots × notionalPerTickLot quote atoms.
 */

export type Side = 'BUY' | 'SELL';

/** GTT rests like GTC: its expiry is the caller's job, done with `cancel`. */
export type TimeInForce = 'GTC' | 'IOC' | 'FOK' | 'GTT';

export type SelfTradePrevention = 'CANCEL_TAKER' | 'CANCEL_MAKER' | 'CANCEL_BOTH' | 'DECREASE_AND_CANCEL';

/** What the caller submits. */
export interface OrderIn {
  /** Unique, increasing arrival number assigned by the caller; it is the order's time priority. */
  seq: number;
  /** Account number, compared for self-trade prevention. */
  owner: number;
  side: Side;
  /** 0 = market (no price limit). */
  limitTicks: number;
  /** Size to trade; may be 0 (meaning "no lot bound") when `quoteBudget` bounds an IOC order. */
  lots: number;
  /** Most notional (quote atoms) the order may trade; Number.POSITIVE_INFINITY = unbounded. */
  quoteBudget: number;
  tif: TimeInForce;
  postOnly: boolean;
  stp: SelfTradePrevention;
}

export interface Fill {
  makerSeq: number;
  makerOwner: number;
  takerSeq: number;
  priceTicks: number;
  lots: number;
  notional: number;
  /** The maker has nothing left and is off the book. */
  makerDone: boolean;
}

/** What happened to the incoming order. */
export type TakerOutcome =
  /** Some or all remains on the book (GTC/GTT limit). */
  | 'RESTED'
  /** Fully traded (for a budget-bounded order: traded until the budget could not pay for one more lot). */
  | 'FILLED'
  /** IOC/market remainder, or an FOK that could not fill (then no fills at all). */
  | 'CANCELLED'
  /** Rejected: it would have crossed on arrival. Nothing happened. */
  | 'POST_ONLY_WOULD_TAKE'
  /** Self-trade prevention ended the taker (CANCEL_TAKER, CANCEL_BOTH, or DECREASE_AND_CANCEL leaving it at zero). */
  | 'SELF_TRADE_CANCELLED';

export interface MakerCancelled {
  seq: number;
  owner: number;
  lots: number;
  reason: 'SELF_TRADE';
}

export interface MakerDecreased {
  seq: number;
  owner: number;
  /** By how many lots the maker shrank; it still rests with the rest. */
  lots: number;
}

export interface MatchResult {
  outcome: TakerOutcome;
  fills: Fill[];
  /** Lots left resting (0 unless RESTED). */
  restingLots: number;
  filledLots: number;
  filledNotional: number;
  /** Makers removed by self-trade prevention. */
  makersCancelled: MakerCancelled[];
  /** Makers shrunk by DECREASE_AND_CANCEL that still rest. */
  makersDecreased: MakerDecreased[];
}

export interface RestingOrderView {
  seq: number;
  owner: number;
  side: Side;
  limitTicks: number;
  lots: number;
}

export interface DepthLevel {
  priceTicks: number;
  lots: number;
  orders: number;
}

export interface Estimate {
  lots: number;
  notional: number;
  /** Price of the last level touched; 0 when nothing would trade. */
  worstTicks: number;
}
