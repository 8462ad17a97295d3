// An order the exchange is still working on (submitted, scheduled, resting or slicing), with the integer state
// matching and settlement need beside the row that is persisted and rendered.
import type { OrderType } from '../../../src-shared/protocol/vocabulary';
import type { Side, SelfTradePrevention, TimeInForce } from '../engine';
import type { OrderRow, TradeRow } from '../store';
import type { Market } from './market';

export interface TwapPlan {
  /** Lots still to slice. */
  lotsLeft: number;
  slicesLeft: number;
  nextAt: bigint;
  intervalNs: bigint;
}

export interface LiveOrder {
  readonly row: OrderRow;
  readonly market: Market;
  /** row.type, kept here too so that the order itself is the BuyOrder its hold is sized from. */
  readonly type: OrderType;
  readonly owner: number;
  readonly side: Side;
  readonly tif: TimeInForce;
  readonly stp: SelfTradePrevention;
  /** 0 = market. */
  limitTicks: number;
  /** Ordered size in lots (less what self-trade prevention decreased it by); 0 when a quote amount bounds it. */
  lots: number;
  /** Quote atoms a market order may spend or must receive (fees included), or the exact quote amount. */
  readonly quoteAtoms: bigint;
  readonly exactQuote: boolean;
  readonly stopTriggerTicks: number;
  readonly makerRatePpm: number;
  readonly takerRatePpm: number;
  /** Atoms of row.holdAsset still locked for this order. */
  hold: bigint;
  /** A market sell for a quote amount: the lots its match may take, walked from the book with its hold (reserve). */
  raiseLots: number | undefined;
  filledLots: number;
  filledNotional: bigint;
  fees: bigint;
  trades: TradeRow[];
  twap: TwapPlan | undefined;
}
