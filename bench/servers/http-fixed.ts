// The REST baseline: a bare node:http server that reads each request's body and answers one fixed JSON body,
// about the size of the venue's order record. Prints its URL when listening.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = JSON.stringify({
  order: {
    order_id: '019a0000-0000-7000-8000-000000000000',
    client_order_id: '',
    user_id: '019a0000-0000-7000-8000-000000000001',
    status: 'ACTIVE',
    done_reason: '',
    reject_reason: '',
    product_id: 'BTC-VND',
    side: 'BUY',
    type: 'LIMIT',
    time_in_force: 'GTC',
    post_only: 'false',
    stp: 'CANCEL_TAKER',
    order_stop_type: 'STOP_NONE',
    limit_price: '2499990000',
    stop_trigger_price: '0',
    base_size: '0.0025',
    quote_size: '0',
    exact_quote_size: '0',
    average_fill_price: '0',
    filled_base_size: '0',
    filled_quote_size: '0',
    fee_total: '0',
    maker_fee_rate: '0.001',
    taker_fee_rate: '0.002',
    fee_asset_id: 'VND',
    created_at: '1795000000000000000',
    updated_at: '1795000000000000000',
    cancel_requested_at: '0',
    expired_at: '0',
    scheduled_at: '0',
    trades: [],
  },
});

const server = createServer((request, response) => {
  request.on('data', () => undefined);
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`ready http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
server.keepAliveTimeout = 60_000;
