// keys.use asked on Development read the key's secret (an await: a keychain answers asynchronously) after
// checking the environment, and went on after it whatever the desk had done meanwhile: a switch to Production
// during the read still made the key Development's active one, reconnected the new session and answered ok, where
// the call promises that a switch in between changes nothing (review-7). The check is made again after the read.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { secretId } from '../../../src-main/desk/key-vault';
import { deskServices } from '../../../src-main/desk/services';
import { MemorySecretStore } from '../../../src-main/secrets';
import { LocalVenue } from '../connection/local-venue';
import { noLocalVenue, removeFolder } from './open-desk';

/** Holds the read of one secret until the test lets it go, and says when that read has begun. */
class GatedSecretStore extends MemorySecretStore {
  held: string | undefined;
  private entered: () => void = () => {};
  private release: () => void = () => {};
  readonly readBegun = new Promise<void>((resolve) => (this.entered = resolve));
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));

  override async get(id: string): Promise<string | undefined> {
    if (id === this.held) {
      this.entered();
      await this.gate;
    }
    return super.get(id);
  }

  letGo(): void {
    this.release();
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-use-switch-'));
const secrets = new GatedSecretStore('test: secrets in memory');
let development: LocalVenue;
let production: LocalVenue;
let desk: Desk;

beforeAll(async () => {
  development = await LocalVenue.start();
  production = await LocalVenue.start();
  desk = await Desk.open({ dataDir, secrets, launchLocalVenue: noLocalVenue, session: { rest: { timeoutMs: 5_000 } } });
  await desk.configureEnvironment({ id: 'development', baseUrl: development.baseUrl, wsUrl: development.wsUrl });
  await desk.configureEnvironment({ id: 'production', baseUrl: production.baseUrl, wsUrl: production.wsUrl });
  await desk.switchEnvironment('development');
  const { admin } = development;
  await desk.importKey({ environment: 'development', api_key: admin.credentials.apiKey, api_secret: admin.credentials.apiSecret, user_id: admin.userId, use: true });
  await desk.whenLive();
});

afterAll(async () => {
  secrets.letGo();
  await desk.close();
  await development.dispose();
  await production.dispose();
  removeFolder(dataDir);
});

it('changes no key when the desk switches environment while the chosen key’s secret is read', async () => {
  const other = await development.newAccount();
  const { apiKey } = other.credentials;
  await desk.importKey({ environment: 'development', api_key: apiKey, api_secret: other.credentials.apiSecret, user_id: other.userId, use: false });
  secrets.held = secretId('development', apiKey);

  const use = dispatch(deskServices(desk), 'keys.use', { environment: 'development', api_key: apiKey });
  await secrets.readBegun;
  await desk.switchEnvironment('production');
  secrets.letGo();

  expect(await use).toEqual({
    ok: false,
    error: {
      ref: 'E0101_InvalidArgument',
      message: 'E0101_InvalidArgument: environment: the trader chose a key to trade with on Development, but the desk is on Production: no key was changed',
    },
  });
  expect(desk.status().environment).toBe('production');
  expect((await desk.listKeys('development')).find((k) => k.active)?.apiKey).toBe(development.admin.credentials.apiKey);
});
