// The embedded venue whose close fails (its last flush, say) still stops: its worker says so, with the error,
// and ends, and the desk's close reports it rather than waiting or passing it over. The fault is injected into
// the real worker entry (close-failing-venue-worker.ts); supervisor, worker, venue and store are the desk's own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { startEmbeddedVenue, type EmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { MemorySecretStore } from '../../../src-main/secrets';
import { removeFolder } from './open-desk';

describe('the embedded venue whose close fails', () => {
  it('is reported stopped with the error, and the desk\'s close says so', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-close-fails-'));
    let venue: EmbeddedVenue | undefined;
    try {
      const desk = await Desk.open({
        dataDir,
        secrets: new MemorySecretStore('test: secrets in memory'),
        launchLocalVenue: (venueDir) =>
          (venue = startEmbeddedVenue(
            { script: resolve(import.meta.dirname, '../../../src-main/venue/ts-worker-loader.mjs'), argv: [resolve(import.meta.dirname, 'close-failing-venue-worker.ts')] },
            { dataDir: venueDir, simulate: false },
          )),
      });
      await desk.whenLive();
      await expect(desk.close()).rejects.toThrow(/^the local venue stopped, but closing it failed: injected: the final flush failed$/);
      expect(venue?.status()).toMatchObject({ state: 'stopped', detail: 'closing the local venue failed: injected: the final flush failed' });
    } finally {
      await venue?.stop().catch(() => undefined);
      removeFolder(dataDir);
    }
  });
});
