// The local venue's folder made afresh (deleted to reset the practice market, or moved aside when it would not
// open), then put back: each folder has its own local user. The desk trades with the running venue's local user
// rather than stay on the key of a local user the running venue does not have, which it refuses.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { startEmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { openSecretStore, type SecretStore } from '../../../src-main/secrets';
import { venueWorkerFromSource } from '../../../src-main/web/typescript-worker';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-afresh-'));
let secrets: SecretStore | undefined;

afterAll(async () => {
  if (secrets !== undefined) for (const id of await secrets.list()) await secrets.delete(id);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Opens the desk, waits for its Local session, and closes it again: the key it traded with, and the state. */
async function session(store: SecretStore): Promise<{ apiKey: string | undefined; state: string; detail: string }> {
  const desk = await Desk.open({
    dataDir,
    secrets: store,
    launchLocalVenue: (venueDir) => startEmbeddedVenue(venueWorkerFromSource(), { dataDir: venueDir, simulate: false }),
    session: { rest: { timeoutMs: 5_000 } },
  });
  try {
    await desk.whenLive().catch(() => undefined);
    const { apiKey, state, detail } = desk.status();
    return { apiKey, state, detail };
  } finally {
    await desk.close();
  }
}

describe('a local venue folder made afresh', () => {
  it('is traded on with its own local user, and the earlier folder, put back, with its own', async () => {
    secrets = await openSecretStore({ service: `nova-desk-test-${randomUUID()}` });
    const first = await session(secrets);
    expect(first.state).toBe('live');

    renameSync(join(dataDir, 'local-venue'), join(dataDir, 'local-venue.before'));
    const afresh = await session(secrets);
    expect(afresh, afresh.detail).toMatchObject({ state: 'live' });
    expect(afresh.apiKey).not.toBe(first.apiKey);

    rmSync(join(dataDir, 'local-venue'), { recursive: true, force: true });
    renameSync(join(dataDir, 'local-venue.before'), join(dataDir, 'local-venue'));
    const back = await session(secrets);
    expect(back, back.detail).toMatchObject({ state: 'live', apiKey: first.apiKey });
  }, 120_000);
});
