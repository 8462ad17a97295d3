import { describe, expect, it } from 'vitest';
import { contract, METHOD_NAMES } from '../../../src-shared/ipc/contract';
import { dispatch } from '../../../src-main/desk/dispatch';
import type { DeskServices } from '../../../src-main/desk/services';

const services: DeskServices = {
  'venue.status': () => Promise.resolve({ state: 'ready', baseUrl: 'http://127.0.0.1:1', wsUrl: 'ws://127.0.0.1:1/ws', simulate: true, detail: '' }),
};

describe('bridge contract', () => {
  it('names the same methods as the preload exposes', () => {
    expect(Object.keys(contract).sort()).toEqual([...METHOD_NAMES].sort());
  });

  it('answers a well-formed call with its value', async () => {
    expect(await dispatch(services, 'venue.status', {})).toMatchObject({ ok: true, value: { state: 'ready' } });
  });

  it.each([
    ['an unknown method', 'venue.nope', {}],
    ['a method that is not a string', 42, {}],
    ['a prototype key as method', '__proto__', {}],
    ['a request of the wrong shape', 'venue.status', { extra: 1 }],
    ['a request that is not an object', 'venue.status', 'hello'],
  ])('answers %s with a clear error, never a throw', async (_name, method, request) => {
    const result = await dispatch(services, method, request);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/^E0101_InvalidArgument: /);
  });
});
