// A desk on its embedded venue (worker thread, from source) with secrets in memory, for the tests of what the
// Electron layer hands the desk: no keychain needed, so these run on every OS.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Desk, type DeskOptions } from '../../../src-main/desk/desk';
import { startEmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { MemorySecretStore } from '../../../src-main/secrets';
import { venueWorkerFromSource } from '../../../src-main/web/typescript-worker';

export interface LocalDesk {
  readonly desk: Desk;
  readonly secrets: MemorySecretStore;
  close(): Promise<void>;
}

export async function openLocalDesk(extra: Pick<DeskOptions, 'revealSecretOnce'> = {}): Promise<LocalDesk> {
  const dataDir = mkdtempSync(join(tmpdir(), 'nova-app-'));
  const secrets = new MemorySecretStore();
  const desk = await Desk.open({
    dataDir,
    secrets,
    launchLocalVenue: (venueDir) => startEmbeddedVenue(venueWorkerFromSource(), { dataDir: venueDir, simulate: false }),
    ...extra,
  });
  await desk.whenLive();
  return {
    desk,
    secrets,
    close: async () => {
      await desk.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
