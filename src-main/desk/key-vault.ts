/**
 * The trader's API keys as the desk keeps them: each key's description in the desk file, its secret in the
 * SecretStore under `<environment>:<api key>`. This is the one desk module that handles a secret, and only on
 * its way between the venue (or the trader's typing, or the embedded local venue) and the store, or
 * from the store into a venue client's credentials. It remembers which secrets it handled this session so
 * that every message leaving main can be scrubbed of them (ARCHITECTURE rule 5).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EnvironmentId, StoredKey } from '../../src-shared/ipc/contract';
import type { VenueCredentials } from '../connection/rest-client';
import { redact, SecretStoreError, type SecretStore } from '../secrets';
import type { DeskFile, KeyRecord } from './desk-file';
import { DeskError } from './desk-error';

const BootstrapSchema = z.object({ user_id: z.string(), api_key: z.string(), api_secret: z.string() });

export function secretId(environment: EnvironmentId, apiKey: string): string {
  return `${environment}:${apiKey}`;
}

/**
 * The host's way to show a newly created secret to the trader once, outside every window (the desktop app's
 * native dialog). Absent in browser mode and tests: the secret then goes only into the store.
 */
export type RevealSecretOnce = (keyLabel: string, secret: string) => Promise<void>;

export class KeyVault {
  private readonly handled = new Set<string>();

  constructor(
    private readonly file: DeskFile,
    readonly secrets: SecretStore,
    private readonly revealSecretOnce?: RevealSecretOnce,
  ) {}

  /** What the trader is told about where secrets live. */
  get storage(): { kind: 'keychain' | 'memory'; notice?: string } {
    return this.secrets.notice === undefined ? { kind: this.secrets.kind } : { kind: this.secrets.kind, notice: this.secrets.notice };
  }

  record(environment: EnvironmentId, apiKey: string): KeyRecord | undefined {
    return this.file.get().keys.find((k) => k.environment === environment && k.apiKey === apiKey);
  }

  activeKey(environment: EnvironmentId): KeyRecord | undefined {
    const apiKey = this.file.get().activeKeys[environment];
    return apiKey === undefined ? undefined : this.record(environment, apiKey);
  }

  /**
   * Every key described here, with where its secret is. A keychain that cannot be read now (locked, or not
   * running, now or since the desk started) does not hide the keys: each is listed as 'locked', since its secret
   * may well be there.
   */
  async list(environment: EnvironmentId): Promise<StoredKey[]> {
    let present: ReadonlySet<string> | undefined;
    try {
      present = new Set(await this.secrets.list());
    } catch (err) {
      if (!(err instanceof SecretStoreError)) throw err;
      present = undefined;
    }
    const active = this.file.get().activeKeys[environment];
    return this.file
      .get()
      .keys.filter((k) => k.environment === environment)
      .map((k) => ({
        ...k,
        active: k.apiKey === active,
        // A keychain out of reach since the start may hold what memory does not.
        storedIn: present === undefined ? 'locked' : present.has(secretId(environment, k.apiKey)) ? this.secrets.kind : this.secrets.keychainProblem === undefined ? 'missing' : 'locked',
      }));
  }

  /** Put the secret in the store first, then describe the key: a described key always had its secret stored. */
  async store(record: KeyRecord, secret: string, makeActive: boolean): Promise<void> {
    this.handled.add(secret);
    await this.secrets.set(secretId(record.environment, record.apiKey), secret);
    this.file.update((draft) => {
      draft.keys = draft.keys.filter((k) => !(k.environment === record.environment && k.apiKey === record.apiKey));
      draft.keys.push(record);
      if (makeActive || draft.activeKeys[record.environment] === undefined) draft.activeKeys[record.environment] = record.apiKey;
    });
  }

  /** Refuses, before a key is made on a venue, when the store cannot keep a secret now: by keeping one. */
  async checkWritable(environment: EnvironmentId): Promise<void> {
    const id = secretId(environment, `unsaved-${randomBytes(8).toString('hex')}`);
    try {
      await this.secrets.set(id, randomBytes(16).toString('hex'));
    } catch (err) {
      if (!(err instanceof SecretStoreError)) throw err;
      throw new DeskError('E0801_KeychainUnavailable', `${err.message}; no key was created: unlock the keychain and create it again`);
    }
    await this.secrets.delete(id).catch(() => false);
  }

  /**
   * A key just created on a venue: stored like any other, then its secret shown once by the host, if it can show
   * it. True when it was shown. The secret goes to the host's hook, never into an answer to a window.
   */
  async storeCreated(record: KeyRecord, secret: string, makeActive: boolean): Promise<boolean> {
    await this.store(record, secret, makeActive);
    if (this.revealSecretOnce === undefined) return false;
    try {
      await this.revealSecretOnce(`${record.name} (${record.apiKey})`, secret);
      return true;
    } catch {
      // The key is stored all the same; the answer then says only where the secret went.
      return false;
    }
  }

  async credentials(environment: EnvironmentId, apiKey: string): Promise<VenueCredentials | undefined> {
    const secret = await this.secrets.get(secretId(environment, apiKey));
    if (secret === undefined) return undefined;
    this.handled.add(secret);
    return { apiKey, apiSecret: secret };
  }

  use(environment: EnvironmentId, apiKey: string): KeyRecord {
    const record = this.record(environment, apiKey);
    if (record === undefined) throw new DeskError('E0101_InvalidArgument', `api_key: no key ${apiKey} is stored for ${environment}`);
    this.file.update((draft) => {
      draft.activeKeys[environment] = apiKey;
    });
    return record;
  }

  async forget(environment: EnvironmentId, apiKey: string): Promise<void> {
    if (this.record(environment, apiKey) === undefined) throw new DeskError('E0101_InvalidArgument', `api_key: no key ${apiKey} is stored for ${environment}`);
    const deleted = await this.secrets.delete(secretId(environment, apiKey));
    // Forgotten here while the keychain is out of reach, its secret would stay there with nothing naming it.
    const problem = this.secrets.keychainProblem;
    if (!deleted && problem !== undefined) {
      throw new DeskError('E0801_KeychainUnavailable', `key ${apiKey} was not removed: the keychain, which may hold its secret, was not available when the desk started (${problem}); make it available and restart the desk, then remove it`);
    }
    this.file.update((draft) => {
      draft.keys = draft.keys.filter((k) => !(k.environment === environment && k.apiKey === apiKey));
      if (draft.activeKeys[environment] === apiKey) delete draft.activeKeys[environment];
    });
  }

  learnUserId(environment: EnvironmentId, apiKey: string, userId: string): void {
    const record = this.record(environment, apiKey);
    if (record === undefined || record.userId !== undefined) return;
    this.file.update((draft) => {
      for (const k of draft.keys) if (k.environment === environment && k.apiKey === apiKey) k.userId = userId;
    });
  }

  /**
   * The local venue's own user: the embedded venue hands its key and secret over in memory when it is ready,
   * and the secret goes into the store without the trader doing anything. No file holds it.
   */
  async adoptBootstrap(local: unknown): Promise<KeyRecord | undefined> {
    if (local === undefined) return undefined;
    const parsed = BootstrapSchema.safeParse(local);
    if (!parsed.success) throw new DeskError('E0901_InternalError', 'the local venue did not describe its local user');
    const boot = parsed.data;
    this.handled.add(boot.api_secret);
    const stored = await this.secrets.get(secretId('local', boot.api_key));
    const known = this.record('local', boot.api_key);
    // Each venue folder has a local user of its own: a key of another folder's (the folder made afresh, or an
    // earlier one put back) is refused by this venue, so the desk goes back to this one's own key.
    const active = this.activeKey('local');
    const activeUser = active?.userId;
    const activeIsOtherFolders =
      activeUser !== undefined &&
      activeUser !== boot.user_id &&
      this.file.get().keys.some((k) => k.environment === 'local' && k.origin === 'bootstrap' && k.userId === activeUser);
    if (stored === boot.api_secret && known !== undefined) {
      if (activeIsOtherFolders) this.use('local', known.apiKey);
      return known;
    }
    const record: KeyRecord = {
      environment: 'local',
      apiKey: boot.api_key,
      name: 'Local user',
      readOnly: false,
      expiredAt: '0',
      createdAt: '0',
      userId: boot.user_id,
      origin: 'bootstrap',
    };
    await this.store(record, boot.api_secret, active === undefined || activeIsOtherFolders);
    return record;
  }

  /** Remove every secret the desk handled this session from a text about to leave main. */
  scrub(text: string): string {
    return redact(text, this.handled);
  }
}
