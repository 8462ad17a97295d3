// A read of the account's own data that the desk refuses names the session it was tried on, as its answers do: a
// refusal met as the desk switched ("no API key for Development") is the next environment's, and a window that has
// not heard of the switch must be able to tell, instead of showing it under the environment it still shows. A real
// desk (secrets in memory, no local venue) through the real dispatcher.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { deskServices, type DeskServices } from '../../../src-main/desk/services';
import { MemorySecretStore } from '../../../src-main/secrets';
import { SESSION_READS } from '../../../src-shared/ipc/contract';
import { noLocalVenue, removeFolder } from './open-desk';

let desk: Desk;
let services: DeskServices;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-session-refusal-'));
  desk = await Desk.open({ dataDir, secrets: new MemorySecretStore('test: secrets in memory'), launchLocalVenue: noLocalVenue, session: { rest: { timeoutMs: 2_000 } } });
  services = deskServices(desk);
});
afterAll(async () => {
  await desk.close();
  removeFolder(dataDir);
});

describe('a refused read of the account', () => {
  it.each(SESSION_READS)('%s names the session it was tried on', async (method) => {
    const request = method === 'orders.fills' ? { limit: 10 } : {};
    const onLocal = await dispatch(services, method, request);
    expect(onLocal).toMatchObject({ ok: false, session: { environment: 'local' } });
    await desk.configureEnvironment({ id: 'development', baseUrl: 'http://127.0.0.1:9', wsUrl: 'ws://127.0.0.1:9' });
    await desk.switchEnvironment('development');
    try {
      const onDevelopment = await dispatch(services, method, request);
      expect(onDevelopment).toEqual({
        ok: false,
        error: { ref: 'E0001_AuthRequired', message: expect.stringMatching(/^E0001_AuthRequired: .*Development/) as unknown },
        session: { environment: 'development' },
      });
    } finally {
      await desk.switchEnvironment('local');
    }
  });
});
