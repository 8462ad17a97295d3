// API secrets live in the OS keychain and nowhere else on disk. Only this folder and connection/ ever hold one in
// plaintext (ARCHITECTURE rule 5), so nothing thrown from here quotes a secret, even when a library's does.
import { randomBytes } from 'node:crypto';
import { AsyncEntry, findCredentialsAsync, type EntryOptions } from '@napi-rs/keyring';
import { redact } from './redact';

export const SECRET_SERVICE = 'nova-desk';

export type SecretStoreKind = 'keychain' | 'memory';

/** Secrets by id, e.g. `<environment>:<api key>`; the ids themselves are not secret. */
export interface SecretStore {
  readonly kind: SecretStoreKind;
  /** Set when secrets will not outlive this session: the desk shows it to the trader as it stands. */
  readonly notice: string | undefined;
  /**
   * Set when the keychain was wanted and could not be used (why): secrets it kept before are not known to be gone,
   * only out of reach this session.
   */
  readonly keychainProblem?: string | undefined;
  set(id: string, secret: string): Promise<void>;
  get(id: string): Promise<string | undefined>;
  delete(id: string): Promise<boolean>;
  list(): Promise<string[]>;
}

export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
}

// Left to itself the library falls back on Linux to the kernel keyring, which forgets everything at logout; a
// trader told "keychain" would then find their keys gone, so Linux means the Secret Service or nothing.
const SECRET_SERVICE_ONLY: EntryOptions = { linux: { store: 'secret-service' } };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function checkId(id: string): void {
  if (id === '') throw new SecretStoreError('A secret needs a non-empty id.');
}

// A bad id rejects rather than throws, as it does from the keychain, so callers handle both stores alike.
function checked<T>(id: string, operation: () => T): Promise<T> {
  return new Promise((resolve) => {
    checkId(id);
    resolve(operation());
  });
}

export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain';
  readonly notice = undefined;

  constructor(readonly service: string = SECRET_SERVICE) {}

  async set(id: string, secret: string): Promise<void> {
    checkId(id);
    await this.withEntry('store', id, secret, (entry) => entry.setPassword(secret));
  }

  async get(id: string): Promise<string | undefined> {
    checkId(id);
    return (await this.withEntry('read', id, undefined, (entry) => entry.getPassword())) ?? undefined;
  }

  async delete(id: string): Promise<boolean> {
    checkId(id);
    return this.withEntry('delete', id, undefined, (entry) => entry.deleteCredential());
  }

  async list(): Promise<string[]> {
    let found: { account: string }[];
    try {
      // The keychain's own search by service is the index: no list of ids is kept anywhere else to drift.
      found = await findCredentialsAsync(this.service);
    } catch (error) {
      throw new SecretStoreError(`The keychain could not list the secrets of ${this.service}: ${messageOf(error)}`);
    }
    return [...new Set(found.map((credential) => credential.account))].sort();
  }

  private async withEntry<T>(
    action: string,
    id: string,
    secret: string | undefined,
    operation: (entry: AsyncEntry) => Promise<T>,
  ): Promise<T> {
    try {
      // The entry is made inside the try: the library throws from the constructor when the store is unreachable.
      return await operation(new AsyncEntry(this.service, id, SECRET_SERVICE_ONLY));
    } catch (error) {
      // The library's error (and its cause chain) is left behind: only its scrubbed message travels on.
      throw new SecretStoreError(`The keychain could not ${action} the secret "${id}": ${redact(messageOf(error), [secret])}`);
    }
  }
}

export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory';
  private readonly secrets = new Map<string, string>();

  constructor(
    readonly notice: string = 'Secrets are kept in memory for this session only.',
    readonly keychainProblem?: string,
  ) {}

  set(id: string, secret: string): Promise<void> {
    return checked(id, () => {
      this.secrets.set(id, secret);
    });
  }

  get(id: string): Promise<string | undefined> {
    return checked(id, () => this.secrets.get(id));
  }

  delete(id: string): Promise<boolean> {
    return checked(id, () => this.secrets.delete(id));
  }

  list(): Promise<string[]> {
    return Promise.resolve([...this.secrets.keys()].sort());
  }
}

export interface OpenSecretStoreOptions {
  /** The keychain's service name; tests use their own so they never touch the desk's entries. */
  service?: string;
}

/** The keychain when it works end to end, otherwise memory with a notice that says why and what it means. */
export async function openSecretStore(options: OpenSecretStoreOptions = {}): Promise<SecretStore> {
  const service = options.service ?? SECRET_SERVICE;
  const problem = await probeKeychain(service);
  if (problem === undefined) return new KeychainSecretStore(service);
  return new MemorySecretStore(`No keychain is available (${problem}); secrets are kept in memory for this session only.`, problem);
}

// A real write, read and delete, under a service of its own so a probe left behind by a crash never shows up in
// list(): a keychain that answers but is locked or read-only must not be trusted with a key.
async function probeKeychain(service: string): Promise<string | undefined> {
  const value = randomBytes(16).toString('hex');
  let entry: AsyncEntry | undefined;
  try {
    entry = new AsyncEntry(`${service}.probe`, randomBytes(8).toString('hex'), SECRET_SERVICE_ONLY);
    await entry.setPassword(value);
    const read = await entry.getPassword();
    if (read !== value) return 'it did not give back what was stored';
    if (!(await entry.deleteCredential())) return 'it did not delete what was stored';
    entry = undefined;
    return undefined;
  } catch (error) {
    return redact(messageOf(error), [value]);
  } finally {
    await entry?.deleteCredential().catch(() => false);
  }
}
