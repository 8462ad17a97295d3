/**
 * WebSocket create_order throughput: one connection, many orders in flight, each counted when its first
 * update (sent after the commit) comes back, against a bare `ws` echo server measured the same way.
 *
 *   npx tsx bench/ws.ts [--orders N]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { frameText } from '../src-main/venue/api/ws-api';
import { signature } from '../test/integration/ws/ws-client';
import { spawnServer } from './spawn-server';

export interface WsBenchResult {
  venuePerSec: number;
  echoPerSec: number;
}

const IN_FLIGHT = 256;

/** Send `count` requests keeping IN_FLIGHT outstanding; `answersOf` says which requests a frame completes. */
async function drive(url: string, count: number, request: (i: number) => string, answersOf: (frame: string) => number[], setup?: (ws: WebSocket) => Promise<void>): Promise<number> {
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
  ws.close();
  return count / seconds;
}

export async function benchWs(opts: { orders: number }): Promise<WsBenchResult> {
  const echo = await spawnServer('ws-echo.ts');
  let echoPerSec: number;
  try {
    const message = (i: number) => JSON.stringify({ op: 'create_order', request_id: String(i), data: { type: 'limit', side: 'buy', product_id: 'BTC-VND', price: '2400000000', size: '0.0001' } });
    echoPerSec = await drive(echo.words[0] ?? '', opts.orders, message, (frame) => [Number((JSON.parse(frame) as { request_id: string }).request_id)]);
  } finally {
    await echo.stop();
  }

  // A trader funded for any length of run (the local user's starting balance covers about 80,000 of these).
  const venue = await spawnServer('venue.ts', ['--traders', '1']);
  let venuePerSec: number;
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
    venuePerSec = await drive(
      wsUrl,
      opts.orders,
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
  return { venuePerSec, echoPerSec };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--orders');
  const result = await benchWs({ orders: at > 0 ? Number(process.argv[at + 1]) : 20_000 });
  console.log(`ws create_order ${Math.round(result.venuePerSec)}/s, echo ${Math.round(result.echoPerSec)}/s, ratio ${(result.venuePerSec / result.echoPerSec).toFixed(2)}`);
}
