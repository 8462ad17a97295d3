// The keychain against a real Secret Service: run the suite through scripts/with-keyring.sh. Without one these
// tests fail, on purpose: a desk whose secrets silently went to memory would lose every key at restart.
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { KeychainSecretStore, MemorySecretStore, openSecretStore, SecretStoreError } from '../../../src-main/secrets';

const CHILD = join(import.meta.dirname, 'store-in-child.ts');
const run = promisify(execFile);

// Every keychain test gets a service of its own, so runs sharing a keyring never see each other's entries.
const services: string[] = [];
function testService(): string {
  const service = `nova-desk-test-${randomUUID()}`;
  services.push(service);
  return service;
}

afterEach(async () => {
  for (const service of services.splice(0)) {
    const store = new KeychainSecretStore(service);
    for (const id of await store.list()) await store.delete(id);
  }
});

async function inChild(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, ...args], { env: { ...process.env, ...env } });
  return JSON.parse(stdout.trim()) as Record<string, unknown>;
}

const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: `unix:path=/nonexistent/nova-desk-no-bus-${randomUUID()}` };

// 200 characters, non-ASCII among them, the length of a long venue secret.
const LONG_SECRET = Array.from({ length: 200 }, (_, i) => 'aZ9+/=€ü'[i % 8]).join('');

describe('the keychain (Secret Service)', () => {
  it('is what the desk opens when a Secret Service is running', async () => {
    const store = await openSecretStore({ service: testService() });
    expect(store.notice, 'no Secret Service: run the tests through scripts/with-keyring.sh').toBeUndefined();
    expect(store.kind).toBe('keychain');
    expect(store).toBeInstanceOf(KeychainSecretStore);
  });

  it('stores, reads, lists and deletes', async () => {
    const store = new KeychainSecretStore(testService());
    await store.set('development:key-b', 'secret-b');
    await store.set('development:key-a', 'secret-a');

    expect(await store.get('development:key-a')).toBe('secret-a');
    expect(await store.get('development:key-b')).toBe('secret-b');
    expect(await store.list()).toEqual(['development:key-a', 'development:key-b']);

    expect(await store.delete('development:key-a')).toBe(true);
    expect(await store.get('development:key-a')).toBeUndefined();
    expect(await store.list()).toEqual(['development:key-b']);
  });

  it('answers undefined and false for an id it never stored', async () => {
    const store = new KeychainSecretStore(testService());
    expect(await store.get('production:unknown')).toBeUndefined();
    expect(await store.delete('production:unknown')).toBe(false);
    expect(await store.list()).toEqual([]);
  });

  it('overwrites a secret in place', async () => {
    const store = new KeychainSecretStore(testService());
    await store.set('local:key', 'first');
    await store.set('local:key', 'second');
    expect(await store.get('local:key')).toBe('second');
    expect(await store.list()).toEqual(['local:key']);
  });

  it('keeps unicode ids and a 200-character secret exactly', async () => {
    const store = new KeychainSecretStore(testService());
    const ids = ['production:ключ-日本-🔑', 'development:café'];
    expect(LONG_SECRET).toHaveLength(200);
    await store.set(ids[0]!, LONG_SECRET);
    await store.set(ids[1]!, 'ünïcödé secret ✓');

    expect(await store.get(ids[0]!)).toBe(LONG_SECRET);
    expect(await store.get(ids[1]!)).toBe('ünïcödé secret ✓');
    expect(await store.list()).toEqual([...ids].sort());
  });

  it('shows the same entries to two stores and to another process', async () => {
    const service = testService();
    const first = new KeychainSecretStore(service);
    const second = new KeychainSecretStore(service);

    await first.set('development:shared', 'shared-secret');
    expect(await second.get('development:shared')).toBe('shared-secret');
    expect(await second.list()).toEqual(['development:shared']);
    expect(await second.delete('development:shared')).toBe(true);
    expect(await first.get('development:shared')).toBeUndefined();

    await first.set('development:across', 'across-processes');
    expect(await inChild(['open', service, 'development:across'])).toEqual({
      kind: 'keychain',
      sha256: createHash('sha256').update('across-processes').digest('hex'),
    });
  });

  it('leaves no probe entry among the secrets after opening', async () => {
    const service = testService();
    await openSecretStore({ service });
    await openSecretStore({ service });
    expect(await new KeychainSecretStore(service).list()).toEqual([]);
  });
});

describe('without a keychain', () => {
  it('keeps secrets in memory for the session and says so plainly', async () => {
    const opened = await inChild(['open', `nova-desk-test-${randomUUID()}`, 'development:any'], NO_BUS);
    expect(opened.kind).toBe('memory');
    expect(opened.notice).toMatch(/^No keychain is available \(.+\); secrets are kept in memory for this session only\.$/);
  });

  it('reports a failure to store without the secret in the message', async () => {
    const secret = `sk-${randomUUID()}`;
    const result = await inChild(['set', `nova-desk-test-${randomUUID()}`, 'development:key'], { ...NO_BUS, NOVA_TEST_SECRET: secret });
    expect(result.stored).toBe(false);
    expect(result.name).toBe('SecretStoreError');
    expect(result.message).toMatch(/^The keychain could not store the secret "development:key": .+/);
    expect(result.message).not.toContain(secret);
  });
});

describe('the memory store', () => {
  it('stores, reads, lists, overwrites and deletes', async () => {
    const store = new MemorySecretStore();
    expect(store.kind).toBe('memory');
    expect(store.notice).toBe('Secrets are kept in memory for this session only.');

    await store.set('local:b', 'one');
    await store.set('local:a', LONG_SECRET);
    await store.set('local:b', 'two');
    expect(await store.get('local:a')).toBe(LONG_SECRET);
    expect(await store.get('local:b')).toBe('two');
    expect(await store.list()).toEqual(['local:a', 'local:b']);
    expect(await store.delete('local:a')).toBe(true);
    expect(await store.delete('local:a')).toBe(false);
    expect(await store.list()).toEqual(['local:b']);
  });
});

describe('ids', () => {
  it.each([
    ['the keychain', new KeychainSecretStore(`nova-desk-test-${randomUUID()}`)],
    ['memory', new MemorySecretStore()],
  ])('%s refuses an empty id without quoting the secret', async (_name, store) => {
    const error: unknown = await store.set('', 'never-shown').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreError);
    expect((error as Error).message).not.toContain('never-shown');
  });
});
