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

/** Holds the reads of chosen secrets until the test lets each go, and says when each read has begun. */
class GatedSecretStore extends MemorySecretStore {
  private readonly gates = new Map<string, { begun: Promise<void>; entered: () => void; gate: Promise<void>; release: () => void }>();

  hold(id: string): void {
    let entered = (): void => {};
    let release = (): void => {};
    const begun = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.gates.set(id, { begun, entered, gate, release });
  }

  begun(id: string): Promise<void> {
    return this.gates.get(id)?.begun ?? Promise.resolve();
  }

  letGo(id: string): void {
    this.gates.get(id)?.release();
    this.gates.delete(id);
  }

  letAllGo(): void {
    for (const id of [...this.gates.keys()]) this.letGo(id);
  }

  override async get(id: string): Promise<string | undefined> {
    const gate = this.gates.get(id);
    if (gate !== undefined) {
      gate.entered();
      await gate.gate;
    }
    return super.get(id);
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
  secrets.letAllGo();
  await desk.close();
  await development.dispose();
  await production.dispose();
  removeFolder(dataDir);
});

it('changes no key when the desk switches environment while the chosen key’s secret is read', async () => {
  const other = await development.newAccount();
  const { apiKey } = other.credentials;
  await desk.importKey({ environment: 'development', api_key: apiKey, api_secret: other.credentials.apiSecret, user_id: other.userId, use: false });
  const held = secretId('development', apiKey);
  secrets.hold(held);

  const use = dispatch(deskServices(desk), 'keys.use', { environment: 'development', api_key: apiKey });
  await secrets.begun(held);
  await desk.switchEnvironment('production');
  secrets.letGo(held);

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

// The same with the switch waiting its turn behind a reconnect still under way (its own keychain read slow): the
// session was still Development's when the key's read answered, so the re-check passed and the key was changed,
// the call answering ok with Production's status (review-8). The desk is leaving Development: no key is changed.
it('changes no key when a switch is waiting behind a reconnect as the chosen key’s secret is read', async () => {
  await desk.switchEnvironment('development');
  await desk.whenLive();
  const { admin } = development;
  const other = await development.newAccount();
  await desk.importKey({ environment: 'development', api_key: other.credentials.apiKey, api_secret: other.credentials.apiSecret, user_id: other.userId, use: false });

  const adminSecret = secretId('development', admin.credentials.apiKey);
  secrets.hold(adminSecret);
  const reconnecting = desk.switchEnvironment('development');
  await secrets.begun(adminSecret);
  const otherSecret = secretId('development', other.credentials.apiKey);
  secrets.hold(otherSecret);
  const use = dispatch(deskServices(desk), 'keys.use', { environment: 'development', api_key: other.credentials.apiKey });
  await secrets.begun(otherSecret);
  const toProduction = desk.switchEnvironment('production');
  secrets.letGo(otherSecret);
  // The key's read answered; the reconnect ahead of the switch finishes a moment later (on the old code the call
  // then went on to a reconnect of its own, queued behind both).
  await new Promise((resolve) => setTimeout(resolve, 200));
  secrets.letGo(adminSecret);
  const answer = await use;
  await reconnecting.catch(() => undefined);
  await toProduction;

  expect(answer).toEqual({
    ok: false,
    error: {
      ref: 'E0101_InvalidArgument',
      message: 'E0101_InvalidArgument: environment: the trader chose a key to trade with on Development, but the desk is switching to Production: no key was changed',
    },
  });
  expect(desk.status().environment).toBe('production');
  expect((await desk.listKeys('development')).find((k) => k.active)?.apiKey).toBe(admin.credentials.apiKey);
});
