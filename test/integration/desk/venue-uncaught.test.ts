// An exception nothing catches on the embedded venue's thread (a bug) ends its worker as a crash does: the
// desk's supervisor starts it again on the same folder and port, rather than leave Local failed until the app
// is restarted. The fault is injected into the real worker entry (throwing-venue-worker.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedVenue, type EmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { eventually } from '../eventually';

const THROW_TRIGGER = 'throw-uncaught';
let dataDir: string;
let venue: EmbeddedVenue;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'nova-uncaught-'));
  venue = startEmbeddedVenue(
    { script: resolve(import.meta.dirname, '../../../src-main/venue/ts-worker-loader.mjs'), argv: [resolve(import.meta.dirname, 'throwing-venue-worker.ts')] },
    { dataDir, simulate: false },
  );
  await venue.ready();
});

afterAll(async () => {
  await venue.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded venue ended by an uncaught exception', () => {
  it('is started again on the same port and answers', async () => {
    const before = venue.status();
    writeFileSync(join(dataDir, THROW_TRIGGER), '');
    // Down, then up again (or failed for good, which is what must not happen).
    await eventually(() => (venue.status().state !== 'ready' ? true : undefined), 'the worker to end');
    const after = await eventually(() => (venue.status().state === 'ready' || venue.status().state === 'failed' ? venue.status() : undefined), 'the venue to be started again or given up');
    expect(after).toMatchObject({ state: 'ready', baseUrl: before.baseUrl });
    expect((await fetch(`${after.baseUrl}/products`)).status).toBe(200);
  });
});
