// Two desks on one data folder would each write desk.json whole over the other's changes. The local venue's own
// folder lock does not stop the second (a desk whose local venue cannot start still opens), so the desk refuses a
// folder another desk holds, before reading or writing anything in it, and lets go when it closes or is disposed.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { DESK_FILE } from '../../../src-main/desk/desk-file';
import type { EmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { MemorySecretStore } from '../../../src-main/secrets';
import { noLocalVenue, removeFolder } from './open-desk';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-one-a-folder-'));
afterAll(() => removeFolder(dataDir));

function open(launched: string[] = []): Promise<Desk> {
  const launch = (venueDir: string): EmbeddedVenue => {
    launched.push(venueDir);
    return noLocalVenue(venueDir);
  };
  return Desk.open({ dataDir, secrets: new MemorySecretStore('test: secrets in memory'), launchLocalVenue: launch });
}

describe('a second desk on a data folder a desk holds', () => {
  it('is refused, saying why, and changes nothing there; the folder is free once the first closes', async () => {
    const first = await open();
    await first.configureEnvironment({ id: 'development', baseUrl: 'http://127.0.0.1:9', wsUrl: 'ws://127.0.0.1:9/ws' });
    const written = readFileSync(join(dataDir, DESK_FILE), 'utf8');
    const launched: string[] = [];
    try {
      await expect(open(launched)).rejects.toThrow(`another Nova Desk is using the data folder ${dataDir} (its desk.json, keys and local venue): stop that desk first, or give this one another data folder`);
      // Nothing started, nothing written: the first desk's file is as it left it.
      expect(launched).toEqual([]);
      expect(readFileSync(join(dataDir, DESK_FILE), 'utf8')).toBe(written);
      expect(readdirSync(dataDir).filter((name) => name.startsWith(DESK_FILE))).toEqual([DESK_FILE]);
    } finally {
      await first.close();
    }

    const next = await open(launched);
    expect(launched).toEqual([join(dataDir, 'local-venue')]);
    expect(next.environments().environments.find((e) => e.id === 'development')?.baseUrl).toBe('http://127.0.0.1:9');
    next.dispose();
    // Disposed without close (a crash-like end in the same process): the folder is free as well.
    const after = await open();
    await after.close();
  });
});
