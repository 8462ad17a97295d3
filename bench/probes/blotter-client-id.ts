/**
 * Probe, not part of `npm run bench`: what a placement's "which held orders carry this client_order_id" costs on a
 * blotter of a day's orders, by the blotter's index, against the pass over every order it replaced.
 *
 *   npx tsx bench/probes/blotter-client-id.ts [orders] [lookups]
 */
import { OrderBlotter } from '../../src-main/connection/order-blotter';
import type { Order } from '../../src-shared/protocol/records';

const orders = Number(process.argv[2] ?? 20_000);
const lookups = Number(process.argv[3] ?? 2_000);

function order(i: number): Order {
  return {
    order_id: `o${i}`, client_order_id: `desk-${i}`, user_id: 'u1', status: 'DONE', done_reason: 'FILLED', product_id: 'BTC-VND', side: 'BUY', type: 'LIMIT',
    time_in_force: 'GTC', post_only: 'false', stp: 'CANCEL_TAKER', limit_price: '2500000000', base_size: '0.01', quote_size: '0', exact_quote_size: '0',
    average_fill_price: '0', filled_base_size: '0', filled_quote_size: '0', maker_fee_rate: '0', taker_fee_rate: '0', fee_asset_id: 'VND',
    created_at: String(i), updated_at: String(i), cancel_requested_at: '0', expired_at: '0', scheduled_at: '0', trades: [],
  };
}

const blotter = new OrderBlotter();
for (let i = 0; i < orders; i++) blotter.upsert(order(i));

function time(label: string, count: (id: string) => number): number {
  const started = process.hrtime.bigint();
  let found = 0;
  for (let i = 0; i < lookups; i++) found += count(`DESK-${(i * 7919) % orders}`);
  const perLookupUs = Number(process.hrtime.bigint() - started) / 1_000 / lookups;
  console.log(`${label}: ${perLookupUs.toFixed(2)} µs a lookup (${found} found)`);
  return perLookupUs;
}

const scan = time('pass over every order', (id) => blotter.all().filter((o) => o.client_order_id.toLowerCase() === id.toLowerCase()).length);
const indexed = time('index', (id) => blotter.orderIdsWithClientOrderId(id).size);
console.log(`${orders} orders: the index is ${(scan / indexed).toFixed(0)} times faster`);
