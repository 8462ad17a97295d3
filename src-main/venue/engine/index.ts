export { OrderBook } from './order-book';
export { StopBook, type StopType } from './stops';
export type {
  DepthLevel,
  Estimate,
  Fill,
  MakerCancelled,
  MakerDecreased,
  MatchResult,
  OrderIn,
  RestingOrderView,
  SelfTradePrevention,
  Side,
  TakerOutcome,
  TimeInForce,
} from './types';
