// What the keychain child scripts share: a desk on the real Secret Service with its local venue from source, called
// as the windows call it, and the keyring locked under it (nobody there to type its password).
import { execFileSync } from 'node:child_process';
import { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { startEmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { deskServices } from '../../../src-main/desk/services';
import { openSecretStore } from '../../../src-main/secrets';
import { venueWorkerFromSource } from '../../../src-main/web/typescript-worker';

export interface KeychainDesk {
  desk: Desk;
  call: (method: string, request: unknown) => ReturnType<typeof dispatch>;
  /** Where its secrets went: the keychain, or memory when the keychain would not open. */
  storage: string;
}

export async function openKeychainDesk(dataDir: string, service: string): Promise<KeychainDesk> {
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

export function lockKeyring(): void {
  execFileSync('dbus-send', [
    '--session',
    '--print-reply',
    '--dest=org.freedesktop.secrets',
    '/org/freedesktop/secrets',
    'org.freedesktop.Secret.Service.Lock',
    'array:objpath:/org/freedesktop/secrets/collection/login',
  ]);
}
