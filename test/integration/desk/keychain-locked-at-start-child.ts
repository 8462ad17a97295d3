// Run by keychain-locked-at-start.test.ts under a Secret Service of its own (scripts/with-keyring.sh), since it locks
// the keyring: a desk trades on a key it made (its secret in the keychain), closes; the keyring is locked (nobody
// to type its password) and the desk starts again, on memory. Prints one JSON line; no secret goes to stdout.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { startEmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { deskServices } from '../../../src-main/desk/services';
import { openSecretStore } from '../../../src-main/secrets';
import { venueWorkerFromSource } from '../../../src-main/web/typescript-worker';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-locked-start-'));
const service = `nova-desk-test-${randomUUID()}`;

async function open(): Promise<{ desk: Desk; call: (method: string, request: unknown) => ReturnType<typeof dispatch>; storage: string }> {
  const secrets = await openSecretStore({ service });
  const desk = await Desk.open({
    dataDir,
    secrets,
    launchLocalVenue: (venueDir) => startEmbeddedVenue(venueWorkerFromSource(), { dataDir: venueDir, simulate: false }),
    session: { rest: { timeoutMs: 5_000 } },
  });
  const services = deskServices(desk);
  return { desk, call: (method, request) => dispatch(services, method, request, (text) => desk.keys.scrub(text)), storage: secrets.kind };
}

const first = await open();
await first.desk.whenLive();
const created = await first.call('keys.create', { environment: 'local', name: 'kept in the keychain', use: true });
await first.desk.whenLive();
await first.desk.close();

execFileSync('dbus-send', [
  '--session',
  '--print-reply',
  '--dest=org.freedesktop.secrets',
  '/org/freedesktop/secrets',
  'org.freedesktop.Secret.Service.Lock',
  'array:objpath:/org/freedesktop/secrets/collection/login',
]);

const second = await open();
const status = await second.call('connection.status', {});
const apiKey = created.ok ? (created.value as { key: { apiKey: string } }).key.apiKey : '';
const forgotten = await second.call('keys.forget', { environment: 'local', api_key: apiKey });
const listed = await second.call('keys.list', {});
await second.desk.close();
rmSync(dataDir, { recursive: true, force: true });

console.log(JSON.stringify({ firstStorage: first.storage, secondStorage: second.storage, created, listed, status, forgotten }));
