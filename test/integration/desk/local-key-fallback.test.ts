// The key in use on Local removed or revoked: the desk goes back to the local user's own key, the one the running
// venue handed over, even when desk.json still lists the local users of earlier venue folders.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { startEmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { deskServices } from '../../../src-main/desk/services';
import { openSecretStore, type SecretStore } from '../../../src-main/secrets';
import { venueWorkerFromSource } from '../../../src-main/web/typescript-worker';
import type { MethodName, Request, Response } from '../../../src-shared/ipc/contract';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-fallback-'));
let secrets: SecretStore | undefined;

afterAll(async () => {
  if (secrets !== undefined) for (const id of await secrets.list()) await secrets.delete(id);
  rmSync(dataDir, { recursive: true, force: true });
});

async function openDesk(store: SecretStore) {
  const desk = await Desk.open({
    dataDir,
    secrets: store,
    launchLocalVenue: (venueDir) => startEmbeddedVenue(venueWorkerFromSource(), { dataDir: venueDir, simulate: false }),
    session: { rest: { timeoutMs: 5_000 } },
  });
  const services = deskServices(desk);
  const call = async <M extends MethodName>(method: M, request: Request<M>): Promise<Response<M>> => {
    const result = await dispatch(services, method, request, (text) => desk.keys.scrub(text));
    if (!result.ok) throw new Error(result.error.message);
    return result.value as Response<M>;
  };
  return { desk, call };
}

describe('the key in use on Local, revoked', () => {
  it('leaves the desk on the running venue’s local user, not on a local user of a folder made before', async () => {
    secrets = await openSecretStore({ service: `nova-desk-test-${randomUUID()}` });
    const first = await openDesk(secrets);
    await first.desk.whenLive();
    const before = (await first.call('connection.status', {})).apiKey;
    await first.desk.close();
    // The local venue starts afresh: a new local user, while desk.json still lists the old one first.
    rmSync(join(dataDir, 'local-venue'), { recursive: true, force: true });

    const { desk, call } = await openDesk(secrets);
    try {
      const own = (await call('keys.list', {})).find((k) => k.origin === 'bootstrap' && k.apiKey !== before);
      if (own === undefined) throw new Error('the new local user’s key is not listed');
      await call('keys.use', { environment: 'local', api_key: own.apiKey });
      await desk.whenLive();
      const temporary = await call('keys.create', { environment: 'local', name: 'in use, then revoked', use: true });
      await desk.whenLive();
      expect((await call('connection.status', {})).apiKey).toBe(temporary.key.apiKey);

      await call('keys.revoke', { environment: 'local', api_key: temporary.key.apiKey });
      await desk.whenLive();
      expect((await call('connection.status', {})).apiKey).toBe(own.apiKey);
    } finally {
      await desk.close();
    }
  });
});
