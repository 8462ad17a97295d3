/**
 * WebSocket create_order throughput: one connection, many orders in flight, each counted when its first
 * update (sent after the commit) comes back, against a bare `ws` echo server measured the same way. The two
 * alternate for a few rounds and the median of the rounds' ratios is the figure: on this shared 2-core machine
 * one pair of runs moves by ±15%, the echo server's rate alone from 59 k to 117 k messages/s in one afternoon.
 *
 *   npx tsx bench/ws.ts [--orders N] [--rounds N]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { frameText } from '../src-main/venue/api/ws-api';
import { signature } from '../test/integration/ws/ws-client';
import { spawnServer, type Server } from './spawn-server';
import { median } from './stats';

export interface WsBenchResult {
  /** Medians over the rounds. */
  venuePerSec: number;
  echoPerSec: number;
  /** The median of the rounds' ratios (each venue run against the echo run just before it). */
  ratio: number;
  /** Each round's ratio, in the order run. */
  ratios: number[];
  /**
   * CPU the bench client itself spent per answer (medians): it shares the machine's two cores with the server,
   * so this is what the server cannot have.
   */
  venueClientMicros: number;
  echoClientMicros: number;
  /** CPU the server process (all its threads) spent per answer (medians). */
  venueServerMicros: number;
  echoServerMicros: number;
}

interface Run {
  perSec: number;
  /** The client process's CPU time (user + system) per request answered. */
  clientMicros: number;
  /** The server process's, all threads. */
  serverMicros: number;
}

const IN_FLIGHT = 256;

/** Send `count` requests keeping IN_FLIGHT outstanding; `answersOf` says which requests a frame completes. */
async function drive(server: Server, url: string, count: number, request: (i: number) => string, answersOf: (frame: string) => number[], setup?: (ws: WebSocket) => Promise<void>): Promise<Run> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  if (setup !== undefined) await setup(ws);
  const answered = new Uint8Array(count);
  let sent = 0;
  let done = 0;
  const start = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const serverBefore = server.cpuMicros();
  await new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      for (const i of answersOf(frameText(data))) {
        if (answered[i] === 1) continue;
        answered[i] = 1;
        done += 1;
        if (sent < count) ws.send(request(sent++));
        if (done === count) resolve();
      }
    });
    while (sent < Math.min(IN_FLIGHT, count)) ws.send(request(sent++));
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const serverMicros = (server.cpuMicros() - serverBefore) / count;
  ws.close();
  return { perSec: count / seconds, clientMicros: (cpu.user + cpu.system) / count, serverMicros };
}

export async function benchWs(opts: { orders: number; rounds?: number }): Promise<WsBenchResult> {
  const rounds = opts.rounds ?? 3;
  const echoes: Run[] = [];
  const venues: Run[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const echo = await echoRun(opts.orders);
    const venue = await venueRun(opts.orders);
    echoes.push(echo);
    venues.push(venue);
    ratios.push(venue.perSec / echo.perSec);
  }
  return {
    venuePerSec: median(venues.map((r) => r.perSec)),
    echoPerSec: median(echoes.map((r) => r.perSec)),
    ratio: median(ratios),
    ratios,
    venueClientMicros: median(venues.map((r) => r.clientMicros)),
    echoClientMicros: median(echoes.map((r) => r.clientMicros)),
    venueServerMicros: median(venues.map((r) => r.serverMicros)),
    echoServerMicros: median(echoes.map((r) => r.serverMicros)),
  };
}

async function echoRun(orders: number): Promise<Run> {
  const echo = await spawnServer('ws-echo.ts');
  try {
    const message = (i: number) => JSON.stringify({ op: 'create_order', request_id: String(i), data: { type: 'limit', side: 'buy', product_id: 'BTC-VND', price: '2400000000', size: '0.0001' } });
    return await drive(echo, echo.words[0] ?? '', orders, message, (frame) => [Number((JSON.parse(frame) as { request_id: string }).request_id)]);
  } finally {
    await echo.stop();
  }
}

async function venueRun(orders: number): Promise<Run> {
  // A trader funded for any length of run (the local user's starting balance covers about 80,000 of these).
  const venue = await spawnServer('venue.ts', ['--traders', '1']);
  try {
    const [, wsUrl = '', , tradersFile = ''] = venue.words;
    const [boot] = JSON.parse(readFileSync(tradersFile, 'utf8')) as { api_key: string; api_secret: string }[];
    if (boot === undefined) throw new Error('the bench venue opened no trader');
    // Buys below and sells above the book's middle: every order rests, so each is one full create path.
    const order = (i: number) =>
      JSON.stringify({
        op: 'create_order',
        request_id: String(i),
        data: { type: 'limit', side: i % 2 === 0 ? 'buy' : 'sell', product_id: 'BTC-VND', price: String((i % 2 === 0 ? 240_000 - (i % 50) : 260_000 + (i % 50)) * 10_000), size: '0.0001' },
      });
    return await drive(
      venue,
      wsUrl,
      orders,
      order,
      (frame) => {
        const parsed = JSON.parse(frame) as { channel?: string; type?: string; data?: { request_id?: string }[] };
        if (parsed.type === 'error') throw new Error(`the venue refused an order of the bench: ${frame}`);
        if (parsed.channel !== 'orders' || parsed.data === undefined) return [];
        return parsed.data.flatMap((order) => (order.request_id === undefined ? [] : [Number(order.request_id)]));
      },
      async (ws) => {
        const timestamp = Math.floor(Date.now() / 1000);
        ws.send(JSON.stringify({ op: 'auth', data: { key: boot.api_key, timestamp, signature: signature(boot.api_key, boot.api_secret, timestamp) } }));
        await new Promise((resolve) => ws.once('message', resolve));
      },
    );
  } finally {
    await venue.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const option = (name: string, fallback: number): number => {
    const at = process.argv.indexOf(name);
    return at > 0 ? Number(process.argv[at + 1]) : fallback;
  };
  const result = await benchWs({ orders: option('--orders', 20_000), rounds: option('--rounds', 3) });
  const each = result.ratios.map((r) => r.toFixed(2)).join(', ');
  console.log(
    `ws create_order ${Math.round(result.venuePerSec)}/s, echo ${Math.round(result.echoPerSec)}/s (medians), ratio ${result.ratio.toFixed(2)} (rounds: ${each}); ` +
      `CPU per answer: the venue ${result.venueServerMicros.toFixed(1)} us and its client ${result.venueClientMicros.toFixed(1)} us, the echo server ${result.echoServerMicros.toFixed(1)} us and its client ${result.echoClientMicros.toFixed(1)} us`,
  );
}
