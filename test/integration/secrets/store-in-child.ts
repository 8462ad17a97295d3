// Run by keychain.test.ts in a child process, so the keychain is reached from a process with its own session bus
// settings (or none) and its own memory. Prints one JSON line; the secret itself never goes to stdout.
import { createHash } from 'node:crypto';
import { KeychainSecretStore, openSecretStore } from '../../../src-main/secrets';

const [command, service, id] = process.argv.slice(2);
const secret = process.env.NOVA_TEST_SECRET ?? '';

function sha256(text: string | undefined): string | undefined {
  return text === undefined ? undefined : createHash('sha256').update(text).digest('hex');
}

if (service === undefined || id === undefined) throw new Error('usage: store-in-child.ts open|set <service> <id>');

if (command === 'open') {
  const store = await openSecretStore({ service });
  // A memory store has nothing to read; only the keychain can hand over what another process stored.
  const read = store.kind === 'keychain' ? await store.get(id) : undefined;
  console.log(JSON.stringify({ kind: store.kind, notice: store.notice, sha256: sha256(read) }));
} else if (command === 'set') {
  try {
    await new KeychainSecretStore(service).set(id, secret);
    console.log(JSON.stringify({ stored: true }));
  } catch (error) {
    console.log(JSON.stringify({ stored: false, name: (error as Error).name, message: (error as Error).message }));
  }
} else {
  throw new Error(`unknown command ${command}`);
}
