// The contract table against the names the preload exposes (the preload may not load the schemas), and the
// dispatcher's answers to calls it must refuse before any service runs.
import { describe, expect, it } from 'vitest';
import { contract, events, EVENT_NAMES, METHOD_NAMES } from '../../../src-shared/ipc/contract';
import { dispatch } from '../../../src-main/desk/dispatch';
import type { DeskServices } from '../../../src-main/desk/services';
import { SecretStoreError } from '../../../src-main/secrets';

// Every service fails the test if it runs: the calls here must be refused by the dispatcher first.
const unreachable = Object.fromEntries(
  METHOD_NAMES.map((m) => [
    m,
    () => {
      throw new Error(`${m} ran`);
    },
  ]),
) as unknown as DeskServices;

describe('the bridge contract', () => {
  it('names the same methods as the preload exposes', () => {
    expect(Object.keys(contract).sort()).toEqual([...METHOD_NAMES].sort());
  });

  it('names the same events as the preload lets a window listen to', () => {
    expect(Object.keys(events).sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('has no field that could carry a secret in any answer or event', () => {
    const text = JSON.stringify(Object.values(contract).map((entry) => entry.response.toJSONSchema({ unrepresentable: 'any' })));
    const eventText = JSON.stringify(Object.values(events).map((schema) => schema.toJSONSchema({ unrepresentable: 'any' })));
    // Property names only: "secretStorage" (where secrets are kept) is a description, not a secret.
    const secretField = /"(api_?)?secret"\s*:/i;
    expect(secretField.test(text)).toBe(false);
    expect(secretField.test(eventText)).toBe(false);
    expect(secretField.test('{"api_secret":{"type":"string"}}')).toBe(true);
  });

  it.each([
    ['an unknown method', 'venue.nope', {}],
    ['a method that is not a string', 42, {}],
    ['a prototype key as method', '__proto__', {}],
    ['an inherited name as method', 'toString', {}],
    ['a request of the wrong shape', 'venue.status', { extra: 1 }],
    ['a request that is not an object', 'venue.status', 'hello'],
    ['a null request', 'venue.status', null],
  ])('answers %s with E0101, never a throw', async (_name, method, request) => {
    const result = await dispatch(unreachable, method, request);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/^E0101_InvalidArgument: /);
  });

  it('turns a service failure into E0901 with the secrets scrubbed from its message', async () => {
    const failing = { ...unreachable, 'settings.get': () => Promise.reject(new Error('library said: s3cr3t-value leaked')) } as DeskServices;
    const result = await dispatch(failing, 'settings.get', {}, (text) => text.split('s3cr3t-value').join('[redacted]'));
    expect(result).toEqual({ ok: false, error: { ref: 'E0901_InternalError', message: 'E0901_InternalError: library said: [redacted] leaked' } });
  });

  it("turns a keychain failure from any service into E0801, the trader's keychain, not the venue's E0901", async () => {
    const locked = { ...unreachable, 'keys.forget': () => Promise.reject(new SecretStoreError('The keychain could not delete the secret "local:k": IsLocked s3cr3t-value')) } as DeskServices;
    const result = await dispatch(locked, 'keys.forget', { environment: 'local', api_key: 'k' }, (text) => text.split('s3cr3t-value').join('[redacted]'));
    expect(result).toEqual({
      ok: false,
      error: { ref: 'E0801_KeychainUnavailable', message: 'E0801_KeychainUnavailable: The keychain could not delete the secret "local:k": IsLocked [redacted]' },
    });
  });

  it('drops from an answer any field the contract does not name', async () => {
    const leaky = {
      ...unreachable,
      'connection.status': () => ({ environment: 'local', production: false, state: 'live', detail: '', apiSecret: 'x' }),
    } as unknown as DeskServices;
    const result = await dispatch(leaky, 'connection.status', {});
    expect(result.ok && Object.keys(result.value as object)).not.toContain('apiSecret');
  });
});
