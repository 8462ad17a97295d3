// The session a read of the account was answered on crosses the bridge parsed with the contract's Session schema,
// as the value is: it was passed on as the service gave it, so any field beside environment and key crossed too.
import { describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../../src-shared/ipc/contract';
import { dispatch } from '../../../src-main/desk/dispatch';
import type { DeskServices } from '../../../src-main/desk/services';

const answering = (session: unknown): DeskServices =>
  Object.fromEntries(METHOD_NAMES.map((m) => [m, () => ({ value: [], session })])) as unknown as DeskServices;

describe("a session read's session", () => {
  it('crosses with the fields the contract names only', async () => {
    const result = await dispatch(answering({ environment: 'local', apiKey: 'k', apiSecret: 's3cret' }), 'orders.active', {});
    expect(result).toEqual({ ok: true, value: [], session: { environment: 'local', apiKey: 'k' } });
  });

  it('that breaks the contract is the desk\'s internal error, never passed on', async () => {
    const result = await dispatch(answering({ environment: 'mars' }), 'orders.active', {});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/^E0901_InternalError: orders\.active: the desk's answer broke the contract/);
    expect(result).not.toHaveProperty('session');
  });
});
