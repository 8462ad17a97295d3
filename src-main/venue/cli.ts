/**
 * `npm run venue -- --port 8787 --data ./venue-data [--simulate] [--seed 1] [--max-open-orders 1000]
 * [--order-rate 50] [--request-rate 200]`: the local venue headless, exactly as the venue contract describes it.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_MAX_OPEN_ORDERS, DEFAULT_ORDER_RATE, DEFAULT_REQUEST_RATE, DEFAULT_SEED } from './defaults';
// Only type imports of the venue here: it is loaded (a good half second) once the signal handlers are in place.
import type { RunningVenue } from './server';

const USAGE = `usage: npm run venue -- [--port 8787] [--data ./venue-data] [--simulate] [--seed 1]
                     [--max-open-orders ${DEFAULT_MAX_OPEN_ORDERS}] [--order-rate ${DEFAULT_ORDER_RATE}] [--request-rate ${DEFAULT_REQUEST_RATE}]

  --port             loopback port to listen on; 0 picks a free one (default 8787)
  --data             data folder, created if missing (default ./venue-data)
  --simulate         run the market simulator: simulated makers and takers on every product
  --seed             the simulator's seed: the same seed, the same market (default ${DEFAULT_SEED})
  --max-open-orders  per account (default ${DEFAULT_MAX_OPEN_ORDERS})
  --order-rate       orders per key and second, 0 for no limit (default ${DEFAULT_ORDER_RATE})
  --request-rate     requests per key and second, 0 for no limit (default ${DEFAULT_REQUEST_RATE})

Exit codes: 0 stopped by SIGINT or SIGTERM, 1 could not start or run (busy port, unusable or busy folder),
2 bad arguments.
`;

function die(reason: string, code = 2): never {
  process.stderr.write(`venue: ${reason}\n`);
  process.exit(code);
}

function count(text: string | undefined, flag: string, fallback: number, min = 0, max = 65535 * 1000): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) die(`--${flag} must be a whole number, got ${JSON.stringify(text.slice(0, 40))}`);
  const value = Number(text);
  if (value < min || value > max) die(`--${flag} must be between ${min} and ${max}`);
  return value;
}

let args;
try {
  const parsed = parseArgs({
    options: {
      port: { type: 'string' },
      data: { type: 'string' },
      simulate: { type: 'boolean', default: false },
      seed: { type: 'string' },
      'max-open-orders': { type: 'string' },
      'order-rate': { type: 'string' },
      'request-rate': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
    tokens: true,
  });
  // parseArgs keeps the last of a repeated flag: `--port abc --port 0` would drop the bad one without a word.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name)) die(`--${token.name} is given more than once`);
    seen.add(token.name);
  }
  args = parsed.values;
} catch (err) {
  die(err instanceof Error ? err.message.split('\n')[0] ?? 'bad arguments' : 'bad arguments');
}

if (args.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const port = count(args.port, 'port', 8787, 0, 65535);
const dataDir = args.data ?? './venue-data';
if (dataDir === '') die('--data must name a folder');

// Signals are taken from the start: one that arrives while the venue opens stops it once it has opened, so
// the folder is left as a clean stop leaves it, and the exit is 0 as for any stop.
let running: RunningVenue | undefined;
let stopRequested = false;
const stop = (): void => {
  if (stopRequested) return;
  stopRequested = true;
  running?.close().then(
    () => process.exit(0),
    (err: unknown) => die(`could not stop cleanly: ${err instanceof Error ? err.message : String(err)}`, 1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const { startVenue } = await import('./server');
// Stopped before anything was opened: nothing to close.
if (stopRequested) process.exit(0);
startVenue({
  port,
  dataDir,
  simulate: args.simulate,
  seed: count(args.seed, 'seed', DEFAULT_SEED, 0, 2 ** 31),
  maxOpenOrders: count(args['max-open-orders'], 'max-open-orders', DEFAULT_MAX_OPEN_ORDERS, 1),
  orderRate: count(args['order-rate'], 'order-rate', DEFAULT_ORDER_RATE),
  requestRate: count(args['request-rate'], 'request-rate', DEFAULT_REQUEST_RATE),
  // Exiting non-zero lets whatever supervises the venue start it again; it resumes from what it committed.
  onHalt: (reason) => die(`${reason.message}; start it again to resume`, 1),
})
  .then((started) => {
    running = started;
    if (stopRequested) {
      stopRequested = false;
      stop();
      return;
    }
    process.stdout.write(`venue listening on ${started.baseUrl}\n`);
  })
  .catch((err: unknown) => {
    const code = (err as { code?: unknown }).code;
    if (code === 'EADDRINUSE') die(`port ${port} is busy`, 1);
    die(err instanceof Error ? err.message : String(err), 1);
  });
