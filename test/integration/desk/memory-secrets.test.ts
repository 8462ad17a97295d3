// Without a keychain the desk keeps secrets in memory for the session and says so plainly, in the
// environments view and in the answer to a key it stores.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { startEmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { deskServices } from '../../../src-main/desk/services';
import { MemorySecretStore } from '../../../src-main/secrets';
import { venueWorkerFromSource } from '../../../src-main/web/typescript-worker';
import { removeFolder } from './open-desk';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-memory-'));
let desk: Desk;

beforeAll(async () => {
  desk = await Desk.open({
    dataDir,
    secrets: new MemorySecretStore('No keychain is available (test); secrets are kept in memory for this session only.'),
    launchLocalVenue: (venueDir) => startEmbeddedVenue(venueWorkerFromSource(), { dataDir: venueDir }),
  });
  await desk.whenLive();
});

afterAll(async () => {
  await desk.close();
  removeFolder(dataDir);
});

describe('a desk without a keychain', () => {
  it('says where secrets are kept, and trades with the local key all the same', async () => {
    const services = deskServices(desk);
    const environments = await dispatch(services, 'environments.list', {});
    expect(environments).toMatchObject({ ok: true, value: { secretStorage: { kind: 'memory', notice: expect.stringMatching(/in memory for this session only/) } } });
    const created = await dispatch(services, 'keys.create', { environment: 'local', name: 'session key' });
    expect(created).toMatchObject({ ok: true, value: { key: { storedIn: 'memory' }, note: expect.stringMatching(/in memory for this session only\. It is not shown again\./) } });
  });

  it('after a restart, lists the keys whose secrets are gone as missing and takes the local key again', async () => {
    await desk.close();
    desk = await Desk.open({
      dataDir,
      secrets: new MemorySecretStore(),
      launchLocalVenue: (venueDir) => startEmbeddedVenue(venueWorkerFromSource(), { dataDir: venueDir }),
    });
    await desk.whenLive();
    const keys = await desk.listKeys();
    expect(keys.find((k) => k.origin === 'created')?.storedIn).toBe('missing');
    expect(keys.find((k) => k.origin === 'bootstrap')).toMatchObject({ storedIn: 'memory', active: true });
  });
});
