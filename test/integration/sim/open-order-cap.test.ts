// `npm run venue -- --simulate --max-open-orders 2`: the server hands its cap to the simulator, whose makers then
// lay ladders that fit in it, instead of sending quotes the venue refuses for the cap at every step.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import { startVenue } from '../../../src-main/venue/server';
import { callVenue, type Credentials } from '../harness';
import { eventually } from '../eventually';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

it('a simulated venue started with a cap of 2 open orders an account refuses no simulated quote for the cap', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-sim-cap-'));
  cleanup.push(() => Promise.resolve(fs.rmSync(dataDir, { recursive: true, force: true })));
  const running = await startVenue({ port: 0, dataDir, simulate: true, seed: 5, maxOpenOrders: 2, orderRate: 0, requestRate: 0 });
  cleanup.push(() => running.close());
  const { exchange } = running.venue;
  let refusals = 0;
  const place = exchange.place.bind(exchange);
  exchange.place = (userId, request) => {
    try {
      return place(userId, request);
    } catch (err) {
      if (err instanceof ApiError && err.ref === 'E0210_OrderLimitExceeded') refusals += 1;
      throw err;
    }
  };
  const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8')) as { api_key: string; api_secret: string };
  const admin: Credentials = { key: boot.api_key, secret: boot.api_secret };
  const first = await callVenue<{ steps: number }>(running.baseUrl, 'GET', '/sim/status', { key: admin });
  await eventually(async () => {
    const now = await callVenue<{ steps: number }>(running.baseUrl, 'GET', '/sim/status', { key: admin });
    return now.body.steps >= first.body.steps + 10 ? true : undefined;
  }, 'ten steps of the timer');
  expect(refusals).toBe(0);
  for (const market of exchange.markets.values()) {
    expect(market.book.bestBid(), `${market.id} bids`).toBeDefined();
    expect(market.book.bestAsk(), `${market.id} asks`).toBeDefined();
  }
});
