// Without a key the desk shows the market by polling the venue's public endpoints. When that polling stops
// answering (the venue went down), the prices on screen are old: the connection status must say so, as it does
// when a session's WebSocket drops, since that is all the windows go by to mark the market panels stale.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { MemorySecretStore } from '../../../src-main/secrets';
import { LocalVenue } from '../connection/local-venue';
import { LoopbackGate } from '../connection/loopback-gate';
import { eventually } from '../eventually';
import { noLocalVenue, removeFolder } from './open-desk';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-public-stale-'));
let venue: LocalVenue;
let desk: Desk;

beforeAll(async () => {
  venue = await LocalVenue.start();
  desk = await Desk.open({
    dataDir,
    secrets: new MemorySecretStore('test: secrets in memory'),
    launchLocalVenue: noLocalVenue,
    session: { rest: { timeoutMs: 1_000, maxRetries: 0 }, pollIntervalMs: 100 },
  });
});

afterAll(async () => {
  await desk.close();
  await venue.dispose();
  removeFolder(dataDir);
});

describe('the market without a key, polled from the public endpoints', () => {
  it('is said to be stale while the venue does not answer, and current again once it does', async () => {
    await desk.configureEnvironment({ id: 'development', baseUrl: venue.baseUrl, wsUrl: venue.wsUrl });
    expect(await desk.switchEnvironment('development')).toMatchObject({ state: 'no_key' });
    const polled: string[] = [];
    const sub = desk.events.onDidEmit((e) => {
      if (e.name === 'book.changed') polled.push(e.payload.source);
    });
    await desk.watch('BTC-VND', 'main');
    await eventually(() => (polled.includes('poll') ? true : undefined), 'a polled book');
    expect(desk.status()).toMatchObject({ state: 'no_key' });

    const states: string[] = [];
    const watchStates = desk.events.onDidEmit((e) => {
      if (e.name === 'connection.changed') states.push(e.payload.state);
    });
    await venue.stop();
    // The windows mark the market stale for any state but live and no_key, and are told of each change.
    const stale = await eventually(() => (desk.status().state === 'no_key' ? undefined : desk.status()), 'a status that says the market is stale');
    expect(stale.state).toBe('unavailable');
    expect(stale.detail).toMatch(/no API key for Development/);
    expect(stale.detail).toMatch(/market data shown is stale.*BTC-VND/);
    expect(states).toContain('unavailable');

    await venue.restart();
    await eventually(() => (desk.status().state === 'no_key' ? true : undefined), 'the market current again');
    expect(desk.status().detail).not.toMatch(/stale/);
    expect(states.at(-1)).toBe('no_key');
    sub.dispose();
    watchStates.dispose();
  });

  it('is said to be stale when the venue stops answering without refusing, long before a read times out', async () => {
    const link = await LoopbackGate.open(venue.port);
    const folder = mkdtempSync(join(tmpdir(), 'nova-desk-public-silent-'));
    // The client's own timeouts: 10 s an attempt, 3 retries, so a read of a silent venue fails after 40 s and more.
    const patient = await Desk.open({ dataDir: folder, secrets: new MemorySecretStore('test: secrets in memory'), launchLocalVenue: noLocalVenue, session: { pollIntervalMs: 100 } });
    try {
      await patient.configureEnvironment({ id: 'development', baseUrl: link.baseUrl, wsUrl: link.wsUrl });
      await patient.switchEnvironment('development');
      await patient.watch('BTC-VND', 'main');
      expect(patient.status().state).toBe('no_key');
      link.hold();
      const silencedAt = Date.now();
      const stale = await eventually(() => (patient.status().state === 'no_key' ? undefined : patient.status()), 'a status that says the market is stale', 10_000);
      expect(Date.now() - silencedAt).toBeLessThan(8_000);
      expect(stale).toMatchObject({ state: 'unavailable', detail: expect.stringMatching(/market data shown is stale.*BTC-VND: no answer for 3 s/) });
    } finally {
      patient.dispose();
      link.release();
      await link.close();
      removeFolder(folder);
    }
  });
});
