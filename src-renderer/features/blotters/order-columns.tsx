// The columns the order blotters share, each with the text that sorting and CSV export use.
import type { Order } from '../../../src-shared/protocol/records';
import type { Column } from '../../ui/VirtualTable';
import type { CsvColumn } from '../../ui/csv';
import { findErrorRecord } from '../../../src-shared/errors/catalogue';
import { compareDecimal, formatDecimal, formatNanosIso, formatNanosStamp } from '../../ui/decimal-text';
import { Side } from '../../ui/Side';

const num = (text: string): string => (text === '0' || text === '' ? '' : formatDecimal(text));

const stopTrigger = (o: Order): string => (o.stop_trigger_price === undefined || o.stop_trigger_price === '0' ? '' : o.stop_trigger_price);
const STOP_WORDS: Readonly<Record<string, string>> = { STOP_LOSS: 'SL', TAKE_PROFIT: 'TP' };

/**
 * What became of an order, as a trader reads it: a working order that has traded says it is partly filled (ACTIVE
 * alone read as untouched), and one the venue ended early says why, in the catalogue's words with its code
 * (REJECTED alone left the trader guessing: balance, post-only, ...).
 */
export function statusOf(order: Order): string {
  const filled = compareDecimal(order.filled_base_size, '0') > 0;
  const word = order.status !== 'DONE' ? (order.cancel_requested_at !== '0' ? 'CANCELLING' : order.status) : order.done_reason === '' ? 'DONE' : order.done_reason;
  const partly = filled && order.done_reason !== 'FILLED' ? ' (partly filled)' : '';
  const ref = order.reject_reason ?? '';
  if (ref === '') return `${word}${partly}`;
  const record = findErrorRecord(ref);
  return `${word}${partly}: ${record === undefined ? ref : `${record.title} (${record.code})`}`;
}

/**
 * An order in words, for the names of controls that act on one: side, size, product, price and the trader's id
 * for it, so a screen reader (or a test) can tell one row's Cancel from the next one's.
 */
export function orderName(order: Order): string {
  const size = order.base_size !== '0' ? order.base_size : `${order.quote_size} quote of`;
  const stop = order.stop_trigger_price !== undefined && order.stop_trigger_price !== '0' ? ` stop ${order.stop_trigger_price}` : '';
  const price = order.limit_price !== '0' ? ` at ${order.limit_price}` : order.type === 'MARKET' ? ' at market' : '';
  return `${order.side} ${size} ${order.product_id}${price}${stop} (${order.client_order_id || order.order_id})`;
}

export const ORDER_COLUMNS: Column<Order>[] = [
  { key: 'time', header: 'Time', value: (o) => o.created_at, render: (o) => formatNanosStamp(o.created_at), kind: 'decimal' },
  { key: 'product', header: 'Product', value: (o) => o.product_id },
  { key: 'side', header: 'Side', value: (o) => o.side, render: (o) => <Side side={o.side} /> },
  { key: 'type', header: 'Type', value: (o) => o.type },
  { key: 'price', header: 'Price', value: (o) => o.limit_price, render: (o) => num(o.limit_price), kind: 'decimal', align: 'right' },
  // A stop order waits for its trigger: without it a stop-market read as an order with no price at all.
  { key: 'stop', header: 'Stop', value: stopTrigger, render: (o) => (stopTrigger(o) === '' ? '' : `${STOP_WORDS[o.order_stop_type ?? ''] ?? ''} ${formatDecimal(stopTrigger(o))}`.trim()), kind: 'decimal', align: 'right' },
  { key: 'size', header: 'Size', value: (o) => o.base_size, render: (o) => num(o.base_size) || (o.quote_size !== '0' ? `${formatDecimal(o.quote_size)} q` : ''), kind: 'decimal', align: 'right' },
  { key: 'filled', header: 'Filled', value: (o) => o.filled_base_size, render: (o) => num(o.filled_base_size), kind: 'decimal', align: 'right' },
  { key: 'avg', header: 'Avg price', value: (o) => o.average_fill_price, render: (o) => num(o.average_fill_price), kind: 'decimal', align: 'right' },
  { key: 'tif', header: 'TIF', value: (o) => o.time_in_force },
  { key: 'status', header: 'Status', value: statusOf },
  { key: 'client', header: 'Client id', value: (o) => o.client_order_id },
];

export const ORDER_CSV: CsvColumn<Order>[] = [
  { header: 'order_id', value: (o) => o.order_id },
  { header: 'client_order_id', value: (o) => o.client_order_id },
  { header: 'created_at', value: (o) => formatNanosIso(o.created_at) },
  { header: 'updated_at', value: (o) => formatNanosIso(o.updated_at) },
  { header: 'product_id', value: (o) => o.product_id },
  { header: 'side', value: (o) => o.side },
  { header: 'type', value: (o) => o.type },
  { header: 'time_in_force', value: (o) => o.time_in_force },
  { header: 'expired_at', value: (o) => formatNanosIso(o.expired_at) },
  { header: 'scheduled_at', value: (o) => formatNanosIso(o.scheduled_at) },
  { header: 'limit_price', value: (o) => o.limit_price },
  { header: 'order_stop_type', value: (o) => o.order_stop_type ?? '' },
  { header: 'stop_trigger_price', value: (o) => o.stop_trigger_price ?? '' },
  { header: 'base_size', value: (o) => o.base_size },
  { header: 'quote_size', value: (o) => o.quote_size },
  { header: 'filled_base_size', value: (o) => o.filled_base_size },
  { header: 'filled_quote_size', value: (o) => o.filled_quote_size },
  { header: 'average_fill_price', value: (o) => o.average_fill_price },
  { header: 'fee_total', value: (o) => o.fee_total ?? '' },
  { header: 'status', value: (o) => o.status },
  { header: 'done_reason', value: (o) => o.done_reason },
  { header: 'reject_reason', value: (o) => o.reject_reason ?? '' },
];
