// A desk file written by an earlier build (or by hand) with Production over plain http: the desk opens, says why
// Production is not connected, and sends its key and secret nowhere until the addresses are set again.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { defaultDeskFile, DESK_FILE, type DeskFileContent } from '../../../src-main/desk/desk-file';
import { secretId } from '../../../src-main/desk/key-vault';
import { MemorySecretStore } from '../../../src-main/secrets';
import { noLocalVenue, removeFolder } from './open-desk';
import { listeningRecorder } from './request-recorder';

const API_KEY = 'nk_0123456789abcdef01234567';
const SECRET = 'plain-http-secret-0123456789abcdefghijklmnopq';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('Production over plain http in a desk file', () => {
  it('is not connected, says why, and sends no key or secret there until its addresses are set again', async () => {
    const recorder = await listeningRecorder();
    cleanups.push(() => recorder.close());
    // The recorder on this machine, at an address the desk does not take for its loopback: it stands for a remote
    // host reached in clear.
    const host = `[::ffff:127.0.0.1]:${recorder.port}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-plain-production-'));
    cleanups.push(() => Promise.resolve(removeFolder(dataDir)));
    const file: DeskFileContent = {
      ...defaultDeskFile(),
      active: 'production',
      addresses: { development: { baseUrl: '', wsUrl: '' }, production: { baseUrl: `http://${host}`, wsUrl: `ws://${host}/ws` } },
      keys: [{ environment: 'production', apiKey: API_KEY, name: 'old build', readOnly: false, expiredAt: '0', createdAt: '0', origin: 'imported' }],
      activeKeys: { production: API_KEY },
    };
    writeFileSync(join(dataDir, DESK_FILE), JSON.stringify(file));
    const secrets = new MemorySecretStore('test: secrets in memory');
    await secrets.set(secretId('production', API_KEY), SECRET);

    const desk = await Desk.open({ dataDir, secrets, launchLocalVenue: noLocalVenue, session: { rest: { timeoutMs: 2_000, maxRetries: 0 } } });
    cleanups.push(() => desk.close());
    const status = desk.status();
    expect(status).toMatchObject({ environment: 'production', state: 'unavailable' });
    expect(status.detail).toMatch(/Production's baseUrl in the desk file is refused \(Production must be reached over TLS.*\): set its addresses again/);

    // Nothing the trader does now sends the secret there: an order, a key tried before it is stored, the market.
    await expect(desk.placeOrder({ environment: 'production', product_id: 'BTC-VND', side: 'BUY', limit_price: '1', base_size: '1', confirmed: 'production' })).rejects.toThrow(/TLS/);
    await desk.importKey({ environment: 'production', api_key: 'nk_another0123456789abcdef', api_secret: `${SECRET}-2`, use: true });
    await expect(desk.listProducts()).rejects.toThrow();
    expect(desk.status().state).toBe('unavailable');
    expect(recorder.seen).toEqual([]);

    // Away and back: the switch is refused, naming why.
    await desk.switchEnvironment('local');
    await expect(desk.switchEnvironment('production')).rejects.toThrow(/^E0101_InvalidArgument: id: Production's baseUrl in the desk file is refused/);
    expect(recorder.seen).toEqual([]);

    // Set again over TLS, Production is taken.
    await desk.configureEnvironment({ id: 'production', baseUrl: 'https://production.invalid', wsUrl: 'wss://production.invalid/ws' });
    await desk.switchEnvironment('production');
    expect(desk.status().detail).not.toMatch(/TLS/);
  });
});
