// Temporary databases for the store tests, and their rows: every test gets a fresh folder with real SQLite files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import { openStore, type ChangeSet, type OrderRow, type VenueStore } from '../../../src-main/venue/store';
import { captureChangeSet } from '../../../src-main/venue/store/change-set';
import { MergedChanges } from '../../../src-main/venue/store/merged-changes';
import { journalFolder, readJournal, type JournalRecord } from '../../../src-main/venue/store/journal-file';

export { apiKey, balance, order, trade, user } from './sample-rows';

const cleanups: (() => void)[] = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A fresh folder, removed after the test together with every store opened through `open`. */
export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-store-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Opens a store that is closed after the test if the test did not close it. */
export function open(file: string, options?: Parameters<typeof openStore>[1]): VenueStore {
  const store = openStore(file, options);
  cleanups.push(() => store.close());
  return store;
}

/** The journal records on disk, oldest first, as a second process would read them (nothing is repaired). */
export function journalRecords(file: string): JournalRecord[] {
  return readJournal(journalFolder(file), { repair: false });
}

/** The journal records on disk that the tables do not hold yet. */
export function pendingJournal(file: string): JournalRecord[] {
  const db = new Database(file, { readonly: true });
  try {
    const position = Number(db.prepare('SELECT through FROM journal_position').pluck().get());
    return readJournal(journalFolder(file), { repair: false, after: position });
  } finally {
    db.close();
  }
}

/** A journal record's text for these changes, as the store writes it. */
export function journalText(changes: ChangeSet): string {
  const merged = new MergedChanges();
  merged.addSet(captureChangeSet(changes));
  return merged.toJournalText();
}

/**
 * An order as schema 4 and journal format 1 held it: 33 values in the old column order (WIDE_ORDER_COLUMNS), int64
 * values as bigints. Written out here, not derived from the code, so the tests hold the code to the old format.
 */
export const WIDE_ORDER_COLUMNS = [
  'seq', 'order_id', 'user_id', 'client_order_id', 'product_id', 'side', 'type', 'time_in_force', 'post_only',
  'stp', 'stop_type', 'limit_price', 'base_size', 'quote_size', 'exact_quote_size', 'stop_trigger_price',
  'status', 'done_reason', 'reject_reason', 'filled_base_size', 'filled_quote_size', 'fee_total',
  'maker_fee_rate', 'taker_fee_rate', 'resting_lots', 'hold_asset', 'hold_remaining', 'created_at', 'updated_at',
  'cancel_requested_at', 'expired_at', 'scheduled_at', 'twap_state',
] as const;

export function wideOrder(o: OrderRow): unknown[] {
  return [
    o.seq, o.orderId, o.userId, o.clientOrderId, o.productId, o.side, o.type, o.timeInForce, o.postOnly ? 1 : 0,
    o.stp, o.stopType, o.limitPrice, o.baseSize, o.quoteSize, o.exactQuoteSize, o.stopTriggerPrice,
    o.status, o.doneReason, o.rejectReason, o.filledBaseSize, o.filledQuoteSize, o.feeTotal,
    o.makerFeeRate, o.takerFeeRate, o.restingLots, o.holdAsset, o.holdRemaining, o.createdAt, o.updatedAt,
    o.cancelRequestedAt, o.expiredAt, o.scheduledAt, o.twapState,
  ];
}
