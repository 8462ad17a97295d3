// keys.use of a key whose secret is gone (listed storedIn 'missing': a window that listed the keys before the
// secret went still draws its Use button) switched to it and reported success, dropping the live session the
// desk traded on and leaving none (review-6 p3). It is refused now, and the session stays as it was.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Desk } from '../../../src-main/desk/desk';
import { dispatch } from '../../../src-main/desk/dispatch';
import { secretId } from '../../../src-main/desk/key-vault';
import { deskServices } from '../../../src-main/desk/services';
import { MemorySecretStore } from '../../../src-main/secrets';
import { LocalVenue } from '../connection/local-venue';
import { noLocalVenue, removeFolder } from './open-desk';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-desk-use-missing-'));
const secrets = new MemorySecretStore('test: secrets in memory');
let venue: LocalVenue;
let desk: Desk;

beforeAll(async () => {
  venue = await LocalVenue.start();
  desk = await Desk.open({ dataDir, secrets, launchLocalVenue: noLocalVenue, session: { rest: { timeoutMs: 5_000 } } });
  await desk.configureEnvironment({ id: 'development', baseUrl: venue.baseUrl, wsUrl: venue.wsUrl });
  await desk.switchEnvironment('development');
  const { admin } = venue;
  await desk.importKey({ environment: 'development', api_key: admin.credentials.apiKey, api_secret: admin.credentials.apiSecret, user_id: admin.userId, use: true });
  await desk.whenLive();
});

afterAll(async () => {
  await desk.close();
  await venue.dispose();
  removeFolder(dataDir);
});

it('refuses a key whose secret is gone, saying to import it again, and keeps trading with the key in use', async () => {
  const other = await venue.newAccount();
  const { apiKey } = other.credentials;
  await desk.importKey({ environment: 'development', api_key: apiKey, api_secret: other.credentials.apiSecret, user_id: other.userId, use: false });
  await secrets.delete(secretId('development', apiKey));
  expect((await desk.listKeys('development')).find((k) => k.apiKey === apiKey)?.storedIn).toBe('missing');
  const before = desk.status();
  expect(before.state).toBe('live');

  const answer = await dispatch(deskServices(desk), 'keys.use', { environment: 'development', api_key: apiKey });
  expect(answer).toEqual({
    ok: false,
    error: {
      ref: 'E0101_InvalidArgument',
      message: `E0101_InvalidArgument: api_key: the secret of key ${apiKey} is no longer stored (memory); the key in use was not changed: import the key again to use it`,
    },
  });
  expect(desk.status()).toEqual(before);
  expect((await desk.listKeys('development')).find((k) => k.active)?.apiKey).toBe(venue.admin.credentials.apiKey);
  // Still trading on the session it had.
  expect((await desk.placeOrder({ environment: 'development', product_id: 'BTC-VND', side: 'SELL', type: 'LIMIT', limit_price: '2500000000', base_size: '0.0001' })).status).toBe('placed');
});
