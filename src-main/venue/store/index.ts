export {
  openStore,
  VenueStore,
  DEFAULT_MAX_BATCH,
  DEFAULT_MAX_PENDING_ROWS,
  DEFAULT_MATERIALIZE_DELAY_MS,
  DEFAULT_RECENT_TRADES,
} from './venue-store';
export type { ArchivedOrderQuery, ArchivedOrderSort, MarketSnapshot, Snapshot, StoreOptions, StoreStats } from './venue-store';
export type { ChangeSet } from './change-set';
export { claimDatabase, lockDataFolder, type FolderLock } from './folder-lock';
export { syncFolder } from './journal-file';
export type { GroupCommitStats } from './group-commit';
export type { JournalStats } from './journal';
export type { ApiKeyRow, BalanceRow, CandleRow, DoneReason, OrderRow, OrderStatus, OrderType, Side, TimeInForce, TradeRow, UserRow } from './rows';
export { SECRET_HASH_BYTES } from './rows';
