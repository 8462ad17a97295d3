// A local venue that cannot start leaves the desk open: it says why, and the trader can still switch to another
// environment and trade there. Here the local venue's folder is held by another venue, which also serves as the
// Development environment.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { startEmbeddedVenue, withRemedy } from '../../../src-main/desk/embedded-venue';
import { deskServices } from '../../../src-main/desk/services';
import { openSecretStore, type SecretStore } from '../../../src-main/secrets';
import { startVenue, type RunningVenue } from '../../../src-main/venue/server';
import { venueWorkerFromSource } from '../../../src-main/web/typescript-worker';
import type { MethodName, Request, Response } from '../../../src-shared/ipc/contract';
import { eventually } from '../eventually';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-venue-failed-'));
let secrets: SecretStore | undefined;
let other: RunningVenue | undefined;
let desk: Desk | undefined;

afterAll(async () => {
  await desk?.close();
  await other?.close();
  if (secrets !== undefined) for (const id of await secrets.list()) await secrets.delete(id);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a local venue that cannot start', () => {
  it('leaves the desk open, saying why, and Development still trades', async () => {
    const venueDir = join(dataDir, 'local-venue');
    other = await startVenue({ port: 0, dataDir: venueDir });
    secrets = await openSecretStore({ service: `nova-desk-test-${randomUUID()}` });
    desk = await Desk.open({
      dataDir,
      secrets,
      launchLocalVenue: (dir) => startEmbeddedVenue(venueWorkerFromSource(), { dataDir: dir, simulate: false }),
      session: { rest: { timeoutMs: 5_000 } },
    });
    const services = deskServices(desk);
    const call = async <M extends MethodName>(method: M, request: Request<M>): Promise<Response<M>> => {
      const result = await dispatch(services, method, request);
      if (!result.ok) throw new Error(result.error.message);
      return result.value as Response<M>;
    };

    expect(await call('venue.status', {})).toMatchObject({ state: 'failed' });
    const status = await call('connection.status', {});
    expect(status).toMatchObject({ environment: 'local', state: 'unavailable' });
    expect(status.detail).toMatch(/^the local venue is failed: .*local-venue/);

    // The folder's own venue is reachable over loopback: the trader points Development at it and trades there.
    const boot = JSON.parse(readFileSync(join(venueDir, 'bootstrap.json'), 'utf8')) as { user_id: string; api_key: string; api_secret: string };
    await call('environments.configure', { id: 'development', baseUrl: other.baseUrl, wsUrl: other.wsUrl });
    await call('keys.import', { environment: 'development', api_key: boot.api_key, api_secret: boot.api_secret, user_id: boot.user_id, use: true });
    await call('environments.switch', { id: 'development' });
    await eventually(async () => ((await call('connection.status', {})).state === 'live' ? true : undefined), 'a live session on Development');
    const placed = await call('orders.place', { environment: 'development', product_id: 'BTC-VND', side: 'BUY', type: 'LIMIT', limit_price: '1000000000', base_size: '0.001', confirmed: 'development', override_checks: true });
    expect(placed).toMatchObject({ status: 'placed', order: { product_id: 'BTC-VND' } });
  });

  it('names the Electron rebuild when the native module was built for another runtime', () => {
    const abi = 'The module \'/x/better_sqlite3.node\' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 143.';
    expect(withRemedy(abi)).toContain('npm run rebuild:electron');
    expect(withRemedy('another venue is running on this folder')).toBe('another venue is running on this folder');
  });
});
