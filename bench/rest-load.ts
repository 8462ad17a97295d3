/**
 * The REST load generator, run in a process of its own by bench/rest.ts: autocannon posting limit orders with
 * `wait` true to `<url>/api/v1/orders`, each request a fresh order of a seeded mix, printed as one JSON line.
 *
 *   node --import tsx bench/rest-load.ts '{"url":…,"traders":[{api_key,api_secret}],"connections":50,"seconds":5}'
 *
 * The venue's REST auth is the NOVA-KEY / NOVA-SECRET header pair (docs/api.md, Endpoints), with no per-request
 * signature or timestamp, so each connection keeps one trader's headers and only the body changes per request.
 */
import autocannon from 'autocannon';
import { formatUnits } from '../src-shared/protocol/decimal';
import { SeededRandom } from '../src-shared/seeded-random';

export interface RestLoadArgs {
  url: string;
  traders: { api_key: string; api_secret: string }[];
  connections: number;
  seconds: number;
  seed?: number;
}

export interface RestLoadResult {
  requests: number;
  perSec: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** The book's middle, in ticks of 10,000 VND. */
const MID = 250_000;

/**
 * Three in four orders rest a few ticks off the middle; one in four crosses it by up to three ticks, taking
 * what rests there and resting whatever it cannot fill, as an active market does.
 */
function orderBody(rng: SeededRandom): string {
  const buy = rng.next() < 0.5;
  const cross = rng.next() < 0.25;
  const away = cross ? -1 - Math.floor(rng.next() * 3) : 1 + Math.floor(rng.next() * 50);
  const ticks = buy ? MID - away : MID + away;
  return JSON.stringify({
    product_id: 'BTC-VND',
    side: buy ? 'BUY' : 'SELL',
    type: 'LIMIT',
    limit_price: String(ticks * 10_000),
    base_size: formatUnits(1 + Math.floor(rng.next() * 50), '0.0001'),
    wait: true,
  });
}

async function main(args: RestLoadArgs): Promise<RestLoadResult> {
  const rng = new SeededRandom(args.seed ?? 3);
  let connection = 0;
  const result = await autocannon({
    url: args.url,
    connections: args.connections,
    duration: args.seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/orders',
        setupRequest: (request: autocannon.Request, context: { trader?: number }): autocannon.Request => {
          // Each connection trades as one of the traders, so two traders' orders meet in the book.
          context.trader ??= connection++ % Math.max(1, args.traders.length);
          const trader = args.traders[context.trader];
          return {
            ...request,
            headers: { 'content-type': 'application/json', ...(trader === undefined ? {} : { 'nova-key': trader.api_key, 'nova-secret': trader.api_secret }) },
            body: orderBody(rng),
          };
        },
      },
    ],
  });
  return {
    requests: result.requests.total,
    perSec: result.requests.total / (result.duration || args.seconds),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

const raw = process.argv[2];
if (raw !== undefined) process.stdout.write(`${JSON.stringify(await main(JSON.parse(raw) as RestLoadArgs))}\n`);
