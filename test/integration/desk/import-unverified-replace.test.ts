// A key imported again with another secret while its venue cannot be asked (down, or unreachable from here): a
// venue never changes a key's secret, so the new one is a slip, and nothing can tell which is right. The desk
// keeps the secret it has rather than put the unchecked one in its place; a new key is still stored unchecked.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { secretId } from '../../../src-main/desk/key-vault';
import { deskServices, type DeskServices } from '../../../src-main/desk/services';
import { MemorySecretStore } from '../../../src-main/secrets';
import { LocalVenue, type Account } from '../connection/local-venue';
import { noLocalVenue, removeFolder } from './open-desk';

let venue: LocalVenue;
let trader: Account;
let desk: Desk;
let services: DeskServices;
let secrets: MemorySecretStore;
let dataDir: string;

beforeAll(async () => {
  venue = await LocalVenue.start();
  trader = await venue.newAccount();
  dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-reimport-'));
  secrets = new MemorySecretStore('test: secrets in memory');
  desk = await Desk.open({ dataDir, secrets, launchLocalVenue: noLocalVenue, session: { rest: { timeoutMs: 2_000 } } });
  services = deskServices(desk);
  await desk.configureEnvironment({ id: 'development', baseUrl: venue.baseUrl, wsUrl: venue.wsUrl });
});

afterAll(async () => {
  await desk.close();
  await venue.dispose();
  removeFolder(dataDir);
});

describe('keys.import of a stored key with another secret, the venue unreachable', () => {
  it('keeps the stored secret and says why; a key new to the desk is stored', async () => {
    const { apiKey, apiSecret } = trader.credentials;
    const imported = await dispatch(services, 'keys.import', { environment: 'development', api_key: apiKey, api_secret: apiSecret }, (t) => desk.keys.scrub(t));
    expect(imported.ok).toBe(true);

    await venue.stop();
    const slip = `${apiSecret.slice(0, -1)}${apiSecret.endsWith('A') ? 'B' : 'A'}`;
    const again = await dispatch(services, 'keys.import', { environment: 'development', api_key: apiKey, api_secret: slip }, (t) => desk.keys.scrub(t));
    expect(again.ok).toBe(false);
    if (!again.ok) {
      expect(again.error.message).toMatch(/could not be checked/);
      expect(again.error.message).not.toContain(slip);
    }
    expect(await secrets.get(secretId('development', apiKey))).toBe(apiSecret);

    const other = await dispatch(services, 'keys.import', { environment: 'development', api_key: 'nk_not_known_here_000000', api_secret: 'a-secret-long-enough-to-pass' }, (t) => desk.keys.scrub(t));
    expect(other.ok).toBe(true);
  });
});
