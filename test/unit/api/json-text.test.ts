// The checks JSON.parse does not make on a REST body or a WebSocket frame (json-text.ts): a key given twice is
// refused wherever it comes in an object, and finding it costs a look per key, not a pass over every key before
// it: a 64 KiB body of 7,000 keys held the venue's one thread for 60 ms, each request, for every client.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonTextRefusal } from '../../../src-main/venue/api/json-text';

function objectText(count: number, extra = ''): string {
  const keys = Array.from({ length: count }, (_, i) => `"k${i}":0`);
  return `{"data":{${keys.join(',')}${extra}}}`;
}

afterEach(() => vi.restoreAllMocks());

describe('a key given twice', () => {
  it('is refused, naming it, among few keys and among thousands, however it is spelt', () => {
    expect(jsonTextRefusal('{"side":"BUY","size":"1","side":"SELL"}', 'request body')?.message).toBe(
      'E0101_InvalidArgument: side: given more than once in the request body',
    );
    expect(jsonTextRefusal(objectText(7_000, ',"k3":1'), 'frame')?.message).toBe('E0101_InvalidArgument: data.k3: given more than once in the frame');
    expect(jsonTextRefusal(objectText(7_000, ',"k\\u0036999":1'), 'frame')?.message).toBe('E0101_InvalidArgument: data.k6999: given more than once in the frame');
    expect(jsonTextRefusal(objectText(7_000), 'frame')).toBeUndefined();
    // Keys of different objects are apart, however many each has.
    expect(jsonTextRefusal(`[${objectText(40)},${objectText(40)}]`, 'request body')).toBeUndefined();
  });

  it('is looked for at a cost that grows with the keys, not with their square', () => {
    const count = 7_000;
    let scanned = 0;
    const includes = Array.prototype.includes;
    vi.spyOn(Array.prototype, 'includes').mockImplementation(function (this: unknown[], ...args: [unknown, number?]) {
      scanned += this.length;
      return includes.apply(this, args);
    });
    expect(jsonTextRefusal(objectText(count), 'request body')).toBeUndefined();
    // A pass over the keys before each one is count² / 2 (24.5 million here).
    expect(scanned).toBeLessThan(20 * count);
  });
});
