// A real desk for the tests: a fresh data folder, the embedded venue in its worker thread with the simulator
// on, and the keychain under a service of the test's own (the suite runs under scripts/with-keyring.sh).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Desk, type DeskOptions } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { startEmbeddedVenue, type EmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { secretId } from '../../../src-main/desk/key-vault';
import { deskServices, type DeskServices } from '../../../src-main/desk/services';
import { MemorySecretStore, openSecretStore, type SecretStore } from '../../../src-main/secrets';
import { venueWorkerFromSource } from '../../../src-main/web/typescript-worker';
import type { MethodName, Request, Response, VenueStatus } from '../../../src-shared/ipc/contract';
import type { LocalVenue } from '../connection/local-venue';

export interface TestDesk {
  readonly desk: Desk;
  readonly services: DeskServices;
  readonly secrets: SecretStore;
  readonly dataDir: string;
  /** The embedded venue the desk started (its worker thread). */
  readonly venue: EmbeddedVenue;
  /** A bridge call as a window makes it (parsed both ways, errors scrubbed); throws the refusal's message. */
  call<M extends MethodName>(method: M, request: Request<M>): Promise<Response<M>>;
  /** The message of the refusal a bridge call of any shape gets; throws if it is not refused. */
  refusal(method: MethodName, request: unknown): Promise<string>;
  /** The local user's key (bootstrap.json names it) and its secret (only the keychain holds it). */
  bootstrap(): Promise<{ user_id: string; api_key: string; api_secret: string }>;
  /** Closes the desk, empties its keychain service and removes its data folder. */
  close(): Promise<void>;
}

export async function openTestDesk(): Promise<TestDesk> {
  const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-'));
  const secrets = await openSecretStore({ service: `nova-desk-test-${randomUUID()}` });
  let venue: EmbeddedVenue | undefined;
  const desk = await Desk.open({
    dataDir,
    secrets,
    launchLocalVenue: (venueDir) => (venue = startEmbeddedVenue(venueWorkerFromSource(), { dataDir: venueDir })),
    session: { rest: { timeoutMs: 5_000 } },
  });
  if (venue === undefined) throw new Error('the desk opened without starting its local venue');
  const services = deskServices(desk);
  return {
    desk,
    venue,
    call: async <M extends MethodName>(method: M, request: Request<M>): Promise<Response<M>> => {
      const result = await dispatch(services, method, request, (text) => desk.keys.scrub(text));
      if (!result.ok) throw new Error(result.error.message);
      return result.value as Response<M>;
    },
    refusal: async (method, request) => {
      const result = await dispatch(services, method, request);
      if (result.ok) throw new Error(`${method} was not refused`);
      return result.error.message;
    },
    services,
    secrets,
    dataDir,
    bootstrap: async () => {
      const ids = JSON.parse(readFileSync(join(dataDir, 'local-venue', 'bootstrap.json'), 'utf8')) as { user_id: string; api_key: string };
      const secret = await secrets.get(secretId('local', ids.api_key));
      if (secret === undefined) throw new Error('the local key is not in the keychain');
      return { ...ids, api_secret: secret };
    },
    close: async () => {
      await desk.close();
      for (const id of await secrets.list()) await secrets.delete(id);
      removeFolder(dataDir);
    },
  };
}

/** For a desk pointed at a venue of the test's own (as Development): no local venue, said to be stopped. */
export function noLocalVenue(dataDir: string): EmbeddedVenue {
  const status: VenueStatus = { state: 'stopped', baseUrl: '', wsUrl: '', simulate: false, detail: 'not started by this test' };
  return {
    dataDir,
    status: () => status,
    localCredentials: () => undefined,
    ready: () => Promise.reject(new Error(status.detail)),
    terminate: () => Promise.resolve(),
    stop: () => Promise.resolve(),
  };
}

/**
 * A desk with its secrets in memory and no local venue, live on Development at `address` (the venue itself, or a
 * link to it the test can break), trading with the venue's admin key. `close` also removes its folder.
 */
export async function deskOnDevelopment(
  venue: LocalVenue,
  options: { label: string; address?: { baseUrl: string; wsUrl: string }; session?: DeskOptions['session'] },
): Promise<{ desk: Desk; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), `nova-desk-${options.label}-`));
  const desk = await Desk.open({
    dataDir,
    secrets: new MemorySecretStore('test: secrets in memory'),
    launchLocalVenue: noLocalVenue,
    session: options.session ?? { rest: { timeoutMs: 5_000 } },
  });
  const { baseUrl, wsUrl } = options.address ?? venue;
  await desk.configureEnvironment({ id: 'development', baseUrl, wsUrl });
  await desk.switchEnvironment('development');
  const { admin } = venue;
  await desk.importKey({ environment: 'development', api_key: admin.credentials.apiKey, api_secret: admin.credentials.apiSecret, user_id: admin.userId, use: true });
  await desk.whenLive();
  return {
    desk,
    close: async () => {
      await desk.close();
      removeFolder(dataDir);
    },
  };
}

export function removeFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export { eventually } from '../eventually';
