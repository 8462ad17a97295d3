// Run by keychain-locked-at-start.test.ts under a Secret Service of its own (scripts/with-keyring.sh), since it locks
// the keyring: a desk trades on a key it made (its secret in the keychain), closes; the keyring is locked (nobody
// to type its password) and the desk starts again, on memory. Prints one JSON line; no secret goes to stdout.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockKeyring, openKeychainDesk } from './keychain-desk';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-locked-start-'));
const service = `nova-desk-test-${randomUUID()}`;
const open = () => openKeychainDesk(dataDir, service);

const first = await open();
await first.desk.whenLive();
const created = await first.call('keys.create', { environment: 'local', name: 'kept in the keychain', use: true });
await first.desk.whenLive();
await first.desk.close();

lockKeyring();

const second = await open();
const status = await second.call('connection.status', {});
const apiKey = created.ok ? (created.value as { key: { apiKey: string } }).key.apiKey : '';
const forgotten = await second.call('keys.forget', { environment: 'local', api_key: apiKey });
const listed = await second.call('keys.list', {});
await second.desk.close();
rmSync(dataDir, { recursive: true, force: true });

console.log(JSON.stringify({ firstStorage: first.storage, secondStorage: second.storage, created, listed, status, forgotten }));
