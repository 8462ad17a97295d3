import { describe, expect, it } from 'vitest';
import { redact, REDACTED } from '../../../src-main/secrets';

describe('redact', () => {
  it('removes every occurrence of every secret', () => {
    expect(redact('sign(abc) with abc, then xyz', ['abc', 'xyz'])).toBe(`sign(${REDACTED}) with ${REDACTED}, then ${REDACTED}`);
  });

  it('removes a secret that contains another whole', () => {
    expect(redact('token=abc123', ['abc', 'abc123'])).toBe(`token=${REDACTED}`);
  });

  it('ignores empty and missing secrets and leaves text without secrets alone', () => {
    expect(redact('nothing to hide', ['', undefined, 'absent'])).toBe('nothing to hide');
  });

  it('treats a secret as text, not as a pattern', () => {
    expect(redact('key a.b+c and aXb+c', ['a.b+c'])).toBe(`key ${REDACTED} and aXb+c`);
  });
});
