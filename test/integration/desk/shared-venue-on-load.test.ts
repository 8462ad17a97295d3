// A desk file written by an earlier build (or by hand) with Development at Production's venue: Development's key
// and orders would go to Production, unmarked and unconfirmed. The desk opens on it, says why Development is not
// connected, and sends nothing there until the addresses are set apart; Production is not taken there either.
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

const API_KEY = 'nk_fedcba9876543210fedcba98';
const SECRET = 'development-secret-0123456789abcdefghijklmno';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('Development at Production\'s venue in a desk file', () => {
  it('is not connected on start-up, says why, and sends no key, order or read there until the addresses are set apart', async () => {
    // The recorder stands for Production's venue; Development's address reaches it too, written another way.
    const recorder = await listeningRecorder();
    cleanups.push(() => recorder.close());
    const production = `127.0.0.1:${recorder.port}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-shared-venue-'));
    cleanups.push(() => Promise.resolve(removeFolder(dataDir)));
    const file: DeskFileContent = {
      ...defaultDeskFile(),
      active: 'development',
      addresses: { development: { baseUrl: `http://${production}/v1`, wsUrl: `ws://${production}/ws` }, production: { baseUrl: `http://${production}`, wsUrl: `ws://${production}/ws` } },
      keys: [{ environment: 'development', apiKey: API_KEY, name: 'old build', readOnly: false, expiredAt: '0', createdAt: '0', origin: 'imported' }],
      activeKeys: { development: API_KEY },
    };
    writeFileSync(join(dataDir, DESK_FILE), JSON.stringify(file));
    const secrets = new MemorySecretStore('test: secrets in memory');
    await secrets.set(secretId('development', API_KEY), SECRET);

    const desk = await Desk.open({ dataDir, secrets, launchLocalVenue: noLocalVenue, session: { rest: { timeoutMs: 2_000, maxRetries: 0 } } });
    cleanups.push(() => desk.close());
    const status = desk.status();
    expect(status).toMatchObject({ environment: 'development', state: 'unavailable' });
    expect(status.detail).toMatch(/^Development's baseUrl in the desk file is refused \(127\.0\.0\.1:\d+ is Production's venue; .*\): set its addresses again under Environments/);

    // Nothing the trader does now reaches it: an order, a key tried before it is stored, the market.
    await expect(desk.placeOrder({ environment: 'development', product_id: 'BTC-VND', side: 'BUY', limit_price: '1', base_size: '1' })).rejects.toThrow(/Production's venue/);
    await desk.importKey({ environment: 'development', api_key: 'nk_another0123456789abcdef', api_secret: `${SECRET}-2`, use: true });
    await expect(desk.listProducts()).rejects.toThrow();
    expect(desk.status().state).toBe('unavailable');
    expect(recorder.seen).toEqual([]);

    // Away and back, to either: the switch is refused, naming why.
    await desk.switchEnvironment('local');
    await expect(desk.switchEnvironment('development')).rejects.toThrow(/^E0101_InvalidArgument: id: Development's baseUrl in the desk file is refused \(.*Production's venue/);
    await expect(desk.switchEnvironment('production')).rejects.toThrow(/^E0101_InvalidArgument: id: Production's baseUrl in the desk file is refused \(.*Development's venue/);
    expect(recorder.seen).toEqual([]);

    // Set apart, Development is taken.
    await desk.configureEnvironment({ id: 'development', baseUrl: 'http://development.invalid', wsUrl: 'ws://development.invalid/ws' });
    await desk.switchEnvironment('development');
    expect(desk.status().detail).not.toMatch(/Production's venue/);
  });
});
