// The WebSocket auth's used signatures as the store's meta keeps them across a restart.
import { describe, expect, it } from 'vitest';
import { UsedSignatures } from '../../../src-main/venue/accounts/used-signatures';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe('UsedSignatures', () => {
  it('reads back what it wrote, and writes only when it changed', () => {
    const used = UsedSignatures.restore(undefined);
    expect(used.takeChange()).toBeUndefined();
    used.add(A, 1_700_000_000);
    used.add(B, 1_700_000_030);
    const text = used.takeChange();
    expect(used.takeChange()).toBeUndefined();
    const again = UsedSignatures.restore(text);
    expect([again.has(A), again.has(B), again.has('c'.repeat(64))]).toEqual([true, true, false]);
  });

  it('forgets the signatures older than asked, and writes the smaller set', () => {
    const used = UsedSignatures.restore(JSON.stringify({ [A]: 1_700_000_000, [B]: 1_700_000_030 }));
    used.forgetBefore(1_700_000_000);
    expect(used.takeChange()).toBeUndefined();
    used.forgetBefore(1_700_000_001);
    expect([used.has(A), used.has(B)]).toEqual([false, true]);
    expect(JSON.parse(used.takeChange() ?? '')).toEqual({ [B]: 1_700_000_030 });
  });

  it('starts empty from a value that does not read, keeping what does', () => {
    for (const text of ['', 'not json', '[1]', 'null', '"x"']) expect(UsedSignatures.restore(text).takeChange()).toBeUndefined();
    const partly = UsedSignatures.restore(JSON.stringify({ [A]: 'soon', [B]: 1_700_000_030 }));
    expect([partly.has(A), partly.has(B)]).toEqual([false, true]);
  });
});
