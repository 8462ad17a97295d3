// The WebSocket auth's used signatures as the store's meta keeps them across a restart.
import { describe, expect, it } from 'vitest';
import { USED_SIGNATURES_META_PREFIX, UsedSignatures } from '../../../src-main/venue/accounts/used-signatures';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const T = 1_700_000_000;

describe('UsedSignatures', () => {
  it('reads back what it wrote, and writes only what changed', () => {
    const used = UsedSignatures.restore({});
    expect(used.takeChanges()).toBeUndefined();
    used.add('k1', T, A);
    used.add('k2', T + 30, B);
    const meta = used.takeChanges() ?? {};
    expect(Object.keys(meta).sort()).toEqual([`${USED_SIGNATURES_META_PREFIX}k1`, `${USED_SIGNATURES_META_PREFIX}k2`]);
    expect(used.takeChanges()).toBeUndefined();
    const again = UsedSignatures.restore({ ...meta, other: '{"1":"x"}' });
    expect([again.has('k1', T, A), again.has('k2', T + 30, B), again.has('k1', T + 30, B), again.has('k2', T, A)]).toEqual([true, true, false, false]);
    // Another key signing in writes that key's value alone.
    again.add('k2', T + 31, A);
    expect(Object.keys(again.takeChanges() ?? {})).toEqual([`${USED_SIGNATURES_META_PREFIX}k2`]);
  });

  it('forgets a key’s signatures older than asked, and writes what is left of that key', () => {
    const used = UsedSignatures.restore({ [`${USED_SIGNATURES_META_PREFIX}k`]: JSON.stringify({ [T]: A, [T + 30]: B }) });
    used.forgetBefore('k', T);
    used.forgetBefore('unknown', T + 100);
    expect(used.takeChanges()).toBeUndefined();
    used.forgetBefore('k', T + 1);
    expect([used.has('k', T, A), used.has('k', T + 30, B)]).toEqual([false, true]);
    expect(used.takeChanges()).toEqual({ [`${USED_SIGNATURES_META_PREFIX}k`]: JSON.stringify({ [T + 30]: B }) });
    used.forgetBefore('k', T + 31);
    expect(used.takeChanges()).toEqual({ [`${USED_SIGNATURES_META_PREFIX}k`]: '{}' });
  });

  it('starts without a value that does not read, keeping the entries that do', () => {
    for (const text of ['', 'not json', '[1]', 'null', '"x"']) {
      const used = UsedSignatures.restore({ [`${USED_SIGNATURES_META_PREFIX}k`]: text });
      expect(used.has('k', T, A)).toBe(false);
      expect(used.takeChanges()).toBeUndefined();
    }
    const partly = UsedSignatures.restore({ [`${USED_SIGNATURES_META_PREFIX}k`]: JSON.stringify({ [T]: 7, soon: A, [T + 1]: B }) });
    expect([partly.has('k', T, A), partly.has('k', T + 1, B)]).toEqual([false, true]);
  });
});
