// An address with a user name and password in it (https://trader:pw@dev.example): the password would be kept in
// desk.json in plain text and sent to every window with the environments list, and fetch refuses to send a request
// to such an address at all. Refused when set, naming the field, and nothing of it kept or shown.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { defaultDeskFile, DESK_FILE, type DeskFileContent } from '../../../src-main/desk/desk-file';
import { dispatch } from '../../../src-main/desk/dispatch';
import { deskServices, type DeskServices } from '../../../src-main/desk/services';
import { MemorySecretStore } from '../../../src-main/secrets';
import { noLocalVenue, removeFolder } from './open-desk';

let desk: Desk;
let services: DeskServices;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-address-credentials-'));
  desk = await Desk.open({ dataDir, secrets: new MemorySecretStore('test: secrets in memory'), launchLocalVenue: noLocalVenue });
  services = deskServices(desk);
});

afterAll(async () => {
  await desk.close();
  removeFolder(dataDir);
});

describe('environments.configure with a user name and password in an address', () => {
  it('is refused for either field and either environment, and the password is kept nowhere', async () => {
    for (const [id, baseUrl, wsUrl, field] of [
      ['development', 'https://trader:hunter2-password@dev.example', 'wss://dev.example/ws', 'baseUrl'],
      ['production', 'https://prod.example', 'wss://trader:hunter2-password@prod.example/ws', 'wsUrl'],
    ] as const) {
      const result = await dispatch(services, 'environments.configure', { id, baseUrl, wsUrl });
      expect(result.ok, `${id} ${field}`).toBe(false);
      if (!result.ok) {
        expect(result.error.message).toMatch(new RegExp(`^E0101_InvalidArgument: ${field}: .*user name or password`));
        expect(result.error.message).not.toContain('hunter2');
      }
    }
    const listed = await dispatch(services, 'environments.list', {});
    expect(JSON.stringify(listed)).not.toContain('hunter2');
    let file = '';
    try {
      file = readFileSync(join(dataDir, 'desk.json'), 'utf8');
    } catch {
      // Never written: nothing was kept.
    }
    expect(file).not.toContain('hunter2');
  });
});

describe('a desk file from before, holding an address with a user name and password', () => {
  it('is listed to the windows without them', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'nova-desk-address-credentials-file-'));
    const file: DeskFileContent = {
      ...defaultDeskFile(),
      addresses: { ...defaultDeskFile().addresses, development: { baseUrl: 'https://trader:hunter2-password@dev.example', wsUrl: 'wss://trader:hunter2-password@dev.example/ws' } },
    };
    writeFileSync(join(folder, DESK_FILE), JSON.stringify(file));
    const old = await Desk.open({ dataDir: folder, secrets: new MemorySecretStore('test: secrets in memory'), launchLocalVenue: noLocalVenue });
    try {
      const listed = await dispatch(deskServices(old), 'environments.list', {});
      expect(JSON.stringify(listed)).not.toContain('hunter2');
      expect(JSON.stringify(listed)).toContain('dev.example');
    } finally {
      await old.close();
      removeFolder(folder);
    }
  });
});
