// POST /api-keys refuses a field it does not take. Elsewhere unknown fields are ignored (docs/api.md, Conventions);
// here a misspelt read_only or expiration_time, ignored, made a key that trades and never expires for a client
// that asked for a read-only or short-lived one.
import { describe, expect, it } from 'vitest';
import { expectApiKeyRecord, expectError, expectOk, nanosFromNow, useVenue } from '../harness';

const venue = useVenue();

describe('POST /api-keys fields', () => {
  it('a field it does not take is 400 E0101 naming it, and no key is created', async () => {
    const v = venue();
    const trader = await v.newTrader({});
    const keysBefore = v.running.venue.keys.keysOf(trader.userId).length;
    const expiry = nanosFromNow(3_600_000);
    for (const [body, field] of [
      [{ name: 'viewer', readOnly: true }, 'readOnly'],
      [{ name: 'viewer', is_read_only: true }, 'is_read_only'],
      [{ name: 'viewer', 'read-only': true }, 'read-only'],
      [{ read_only: true, expired_at: expiry }, 'expired_at'],
      [{ read_only: true, expires_at: expiry }, 'expires_at'],
      [{ read_only: true, expiration: expiry }, 'expiration'],
      [{ name: 'x', extra: false }, 'extra'],
      [{ '': 1 }, 'a field without a name'],
      [{ [`${'f'.repeat(60)}`]: 1 }, 'f'.repeat(50)],
    ] as const) {
      const reply = await v.call('POST', '/api-keys', { key: trader.creds, body });
      expectError(reply, 400, 'E0101_InvalidArgument', 'InvalidArgument');
      expect((reply.body as { error: { message: string } }).error.message, JSON.stringify(body)).toBe(
        `E0101_InvalidArgument: ${field}: not a field of POST /api-keys, which takes name, read_only and expiration_time (ignored, it could make a key that trades or never expires)`,
      );
    }
    expect(v.running.venue.keys.keysOf(trader.userId)).toHaveLength(keysBefore);
  });

  it('takes its own fields, and an unknown one that is null (null is absent)', async () => {
    const v = venue();
    const trader = await v.newTrader({});
    const expiry = nanosFromNow(3_600_000);
    const made = expectOk(await v.call<{ api_key: unknown }>('POST', '/api-keys', { key: trader.creds, body: { name: 'viewer', read_only: true, expiration_time: expiry, readOnly: null } }));
    expect(expectApiKeyRecord(made.api_key, true)).toMatchObject({ name: 'viewer', is_read_only: true, expired_at: expiry });
    // A body that is not an object is still the parser's to refuse.
    expectError(await v.call('POST', '/api-keys', { key: trader.creds, body: ['read_only'] }), 400, 'E0101_InvalidArgument', 'InvalidArgument');
  });
});
