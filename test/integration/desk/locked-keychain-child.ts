// Run by locked-keychain.test.ts under a Secret Service of its own (scripts/with-keyring.sh), since it locks the
// keyring, which no other test sharing one could then use: a desk on the real keychain, the keyring locked under
// it (no one to type its password), and what the windows are told. Prints one JSON line; no secret goes to stdout.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { lockKeyring, openKeychainDesk } from './keychain-desk';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-locked-'));
const { desk, call, storage } = await openKeychainDesk(dataDir, `nova-desk-test-${randomUUID()}`);
await desk.whenLive();
lockKeyring();

const created = await call('keys.create', { environment: 'local', name: 'made while locked' });
const listed = await call('keys.list', {});
// Development has no address yet, so the import goes straight to the keychain, which refuses it.
const imported = await call('keys.import', { environment: 'development', api_key: 'nk_imported_while_locked', api_secret: 'not-a-real-secret' });
const switched = await call('environments.switch', { id: 'local' });
const status = await call('connection.status', {});
await desk.close();

// The venue's own table: a key the venue made that nobody holds a secret for is one nobody can ever use or revoke.
const db = new Database(join(dataDir, 'local-venue', 'venue.sqlite'), { readonly: true });
const { live } = db.prepare("SELECT count(*) AS live FROM api_keys WHERE name = 'made while locked' AND revoked = 0").get() as { live: number };
db.close();
rmSync(dataDir, { recursive: true, force: true });

console.log(JSON.stringify({ storage, created, imported, listed, switched, status, liveKeysMadeWhileLocked: live }));
