// GET /sim/status across a restart of the real server (`npm run venue -- --simulate --seed 7` twice on one
// folder): the seed the trader gave stays in `seed`, and the status also says how many steps the folder has taken
// and which seed the running market actually draws from, since after a restart that is not the one given.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startVenue, type RunningVenue } from '../../../src-main/venue/server';
import { callVenue, type Credentials } from '../harness';
import { eventually } from '../eventually';

interface SeedStatus {
  seed: number;
  run_seed: number;
  steps: number;
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

/** Closing twice is closing once (RunningVenue.close), so the cleanup may close what the test already closed. */
async function start(dataDir: string): Promise<{ running: RunningVenue; admin: Credentials }> {
  const running = await startVenue({ port: 0, dataDir, simulate: true, seed: 7, orderRate: 0, requestRate: 0 });
  cleanup.push(() => running.close());
  const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8')) as { api_key: string; api_secret: string };
  return { running, admin: { key: boot.api_key, secret: boot.api_secret } };
}

async function status(running: RunningVenue, admin: Credentials): Promise<SeedStatus> {
  const reply = await callVenue<SeedStatus>(running.baseUrl, 'GET', '/sim/status', { key: admin });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

describe('GET /sim/status says which seed the market draws from', () => {
  it('the given seed on a fresh folder; after a restart, the given seed still in seed, and the one in use in run_seed', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-sim-seed-'));
    cleanup.push(() => Promise.resolve(fs.rmSync(dataDir, { recursive: true, force: true })));

    const first = await start(dataDir);
    // The timer may have stepped already; a fresh folder's run draws from the seed whatever the count is since.
    expect(await status(first.running, first.admin)).toMatchObject({ seed: 7, run_seed: 7 });
    await eventually(async () => ((await status(first.running, first.admin)).steps >= 3 ? true : undefined), 'three steps of the timer');
    await first.running.close();

    const again = await start(dataDir);
    const restarted = await status(again.running, again.admin);
    expect(restarted.seed).toBe(7);
    expect(restarted.steps).toBeGreaterThanOrEqual(3);
    expect(restarted.run_seed).not.toBe(7);
    // Fixed for the run while the count goes on.
    const later = await eventually(async () => {
      const now = await status(again.running, again.admin);
      return now.steps > restarted.steps ? now : undefined;
    }, 'another step');
    expect(later.run_seed).toBe(restarted.run_seed);
  });
});
