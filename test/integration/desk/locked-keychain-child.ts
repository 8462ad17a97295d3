// Run by locked-keychain.test.ts under a Secret Service of its own (scripts/with-keyring.sh), since it locks the
// keyring, which no other test sharing one could then use: a desk on the real keychain, the keyring locked under
// it (no one to type its password), and what the windows are told. Prints one JSON line; no secret goes to stdout.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { startEmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { deskServices } from '../../../src-main/desk/services';
import { openSecretStore } from '../../../src-main/secrets';
import { venueWorkerFromSource } from '../../../src-main/web/typescript-worker';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-locked-'));
const secrets = await openSecretStore({ service: `nova-desk-test-${randomUUID()}` });
const desk = await Desk.open({
  dataDir,
  secrets,
  launchLocalVenue: (venueDir) => startEmbeddedVenue(venueWorkerFromSource(), { dataDir: venueDir, simulate: false }),
  session: { rest: { timeoutMs: 5_000 } },
});
await desk.whenLive();
const services = deskServices(desk);
const call = (method: string, request: unknown) => dispatch(services, method, request, (text) => desk.keys.scrub(text));

execFileSync('dbus-send', [
  '--session',
  '--print-reply',
  '--dest=org.freedesktop.secrets',
  '/org/freedesktop/secrets',
  'org.freedesktop.Secret.Service.Lock',
  'array:objpath:/org/freedesktop/secrets/collection/login',
]);

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

console.log(JSON.stringify({ storage: secrets.kind, created, imported, listed, switched, status, liveKeysMadeWhileLocked: live }));
