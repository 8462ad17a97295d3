// A quit that comes while the desk is still opening (its local venue starting, reading its store): the shutdown
// waits for the desk and closes it, venue and all, rather than let the app exit over a venue half started, and
// the app does not go on to open its window.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OpeningDesk } from '../../../src-main/app/shutdown';
import { Desk } from '../../../src-main/desk/desk';
import { startEmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { MemorySecretStore } from '../../../src-main/secrets';
import { venueWorkerFromSource } from '../../../src-main/web/typescript-worker';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-quit-opening-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const openDesk = (): Promise<Desk> =>
  Desk.open({
    dataDir,
    secrets: new MemorySecretStore(),
    launchLocalVenue: (venueDir) => startEmbeddedVenue(venueWorkerFromSource(), { dataDir: venueDir, simulate: false }),
  });

describe('a quit while the desk opens', () => {
  it('closes the desk once it is open, and the app is not handed it', async () => {
    const holder = new OpeningDesk<Desk>();
    const work = openDesk();
    const handed = holder.open(work);
    await holder.close();
    expect(await handed).toBeUndefined();
    expect((await work).venueStatus().state).toBe('stopped');

    // Its folders were let go: the next start opens on them.
    const again = await openDesk();
    expect(again.venueStatus().state).toBe('ready');
    await again.close();
  });

  it('hands the desk over when no quit came, and closes it at the quit', async () => {
    const holder = new OpeningDesk<Desk>();
    const desk = await holder.open(openDesk());
    expect(desk?.venueStatus().state).toBe('ready');
    await holder.close();
    expect(desk?.venueStatus().state).toBe('stopped');
  });
});
