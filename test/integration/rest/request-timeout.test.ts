// A request that stops arriving (its headers or its body stall) is answered 408 and its connection closed, rather
// than held open for good. Node read its timeouts at createServer only: Fastify set requestTimeout afterwards, and
// Node's time for headers (60 s) then exceeded it, so Node timed out nothing. The venue here times requests out
// after 300 ms, as --request-timeout would be shortened for a test: the production 30 s are the same code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startVenue, type RunningVenue } from '../../../src-main/venue/server';
import { rawExchange, responses } from '../raw-http';
import { sleep } from '../harness';

let running: RunningVenue;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-timeout-'));
  running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0, requestTimeoutMs: 300 });
});
afterAll(async () => {
  await running.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function signed(first: string): string {
  const { api_key: key, api_secret: secret } = running.venue.localCredentials() ?? { api_key: '', api_secret: '' };
  return `${first}\r\nHost: venue\r\nNOVA-KEY: ${key}\r\nNOVA-SECRET: ${secret}\r\n`;
}

const timedOut = (answer: { status: number; body: unknown } | undefined) => [answer?.status, (answer?.body as { error?: { message: string } }).error?.message];

describe('a request that stops arriving', () => {
  it.each([
    ['its body', () => `${signed('POST /api/v1/orders HTTP/1.1')}Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{"pro`],
    ['its chunked body', () => `${signed('POST /api/v1/orders HTTP/1.1')}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"pro`],
    ['its headers', () => 'GET /products HTTP/1.1\r\nHost: venue\r\nAccept: application/js'],
  ])('(%s) is answered 408 E0101 and the connection closed', async (_what, bytes) => {
    const text = await rawExchange(running.baseUrl, bytes(), { halfClose: false });
    expect(responses(text).map(timedOut), text).toEqual([[408, 'E0101_InvalidArgument: request: not received in full in time']]);
  });

  it('behind an order, is answered after the order', async () => {
    const order = JSON.stringify({ product_id: 'BTC-VND', side: 'BUY', limit_price: '1000000000', base_size: '0.0001', client_order_id: 'before-stall' });
    const placing = `${signed('POST /api/v1/orders HTTP/1.1')}Content-Type: application/json\r\nContent-Length: ${order.length}\r\n\r\n${order}`;
    const text = await rawExchange(running.baseUrl, `${placing}${signed('POST /api/v1/orders HTTP/1.1')}Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{"pro`, { halfClose: false });
    const [placed, stalled, ...more] = responses(text);
    expect([placed?.status, (placed?.body as { order?: { client_order_id: string } }).order?.client_order_id], text).toEqual([200, 'before-stall']);
    expect(timedOut(stalled)[0], text).toBe(408);
    expect(more).toEqual([]);
  });

  // An upgraded connection is no request: Node stops timing it at the upgrade.
  it('a WebSocket connection open longer than that serves on', async () => {
    const ws = new WebSocket(running.wsUrl);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    try {
      await sleep(1_000);
      ws.send(JSON.stringify({ op: 'ping', request_id: 'still-there' }));
      const answered = await new Promise<boolean>((resolve) => {
        ws.on('message', (data: Buffer) => {
          if (data.toString('utf8').includes('still-there')) resolve(true);
        });
        ws.once('close', () => resolve(false));
      });
      expect(answered).toBe(true);
    } finally {
      ws.terminate();
    }
  });
});
