import { describe, expect, it } from 'vitest';
import { newUuidV7 } from '../../../src-main/venue/ids';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The millisecond timestamp in the first 48 bits. */
const msOf = (id: string): number => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('order and trade ids', () => {
  it('are UUIDv7 text carrying the millisecond they were made in', () => {
    const ms = Date.UTC(2026, 10, 22, 12, 0, 0);
    const id = newUuidV7(ms);
    expect(id).toMatch(V7);
    expect(msOf(id)).toBe(ms);
  });

  it('keep increasing within one millisecond, and each id keeps its own text', () => {
    const ms = Date.UTC(2026, 10, 22, 12, 0, 1);
    const ids = Array.from({ length: 1_000 }, () => newUuidV7(ms));
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect((ids[i] as string) > (ids[i - 1] as string)).toBe(true);
    // The text is built in one shared buffer: an id handed out earlier must not change with the next one.
    expect(ids.every((id) => V7.test(id))).toBe(true);
  });

  it('borrow the next millisecond after 4,096 ids in one, rather than break the order', () => {
    const ms = Date.UTC(2026, 10, 22, 12, 0, 2);
    const ids = Array.from({ length: 4_097 }, () => newUuidV7(ms));
    expect(msOf(ids[4_095] as string)).toBe(ms);
    expect(msOf(ids[4_096] as string)).toBe(ms + 1);
    expect((ids[4_096] as string) > (ids[4_095] as string)).toBe(true);
  });

  it('stay ordered when the clock steps back', () => {
    const ms = Date.UTC(2026, 10, 22, 12, 0, 5);
    const before = newUuidV7(ms);
    const after = newUuidV7(ms - 1_000);
    expect(after > before).toBe(true);
  });
});
