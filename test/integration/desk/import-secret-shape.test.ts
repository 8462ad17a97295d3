// A secret no venue would have shown (a character, a half-paste, the key itself) is refused as typed, with a
// message that says what is wrong with it, before it reaches the keychain: while the venue cannot be asked
// (Development not set, the venue down) nothing else would stop it there.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { deskServices, type DeskServices } from '../../../src-main/desk/services';
import { MemorySecretStore } from '../../../src-main/secrets';
import { noLocalVenue, removeFolder } from './open-desk';

let desk: Desk;
let services: DeskServices;
let secrets: MemorySecretStore;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-secret-shape-'));
  secrets = new MemorySecretStore('test: secrets in memory');
  desk = await Desk.open({ dataDir, secrets, launchLocalVenue: noLocalVenue });
  services = deskServices(desk);
});

afterAll(async () => {
  await desk.close();
  removeFolder(dataDir);
});

describe('keys.import', () => {
  it('refuses a secret too short to be a venue\'s, or the key given again, and stores nothing', async () => {
    const apiKey = 'nk_0123456789abcdef01234567';
    for (const [what, api_secret, said] of [
      ['one character', 'x', /api_secret: must be at least 16 characters/],
      ['half a secret', 'Qm9vdHN0cmFw', /api_secret: must be at least 16 characters/],
      ['the key pasted twice', apiKey, /api_secret: is the API key itself/],
    ] as const) {
      for (const environment of ['development', 'local'] as const) {
        const result = await dispatch(services, 'keys.import', { environment, api_key: apiKey, api_secret }, (text) => desk.keys.scrub(text));
        expect(result.ok, `${what} on ${environment}`).toBe(false);
        if (!result.ok) {
          expect(result.error.message, what).toMatch(/^E0101_InvalidArgument: keys\.import: /);
          expect(result.error.message, what).toMatch(said);
        }
      }
    }
    expect(await secrets.list()).toEqual([]);
    expect(await desk.keys.list('development')).toEqual([]);
    expect(await desk.keys.list('local')).toEqual([]);
  });

  it('still stores a secret of a venue\'s length while that venue cannot be asked', async () => {
    const result = await dispatch(services, 'keys.import', { environment: 'development', api_key: 'nk_fedcba9876543210fedcba98', api_secret: 'a-secret-of-forty-three-characters-0123456' });
    expect(result.ok).toBe(true);
    expect(await secrets.list()).toEqual(['development:nk_fedcba9876543210fedcba98']);
  });
});
