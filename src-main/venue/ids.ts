/**
 * Order and trade ids: UUIDv7 (RFC 9562), time-ordered so that each new id lands at the end of its SQLite
 * index instead of a random page, which keeps the write path fast as history grows. Within one millisecond
 * a counter in rand_a keeps them increasing; the rest is random.
 */
import { randomFillSync } from 'node:crypto';

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const bytes = new Uint8Array(16);
/**
 * The id's text is written here and read out in one piece: built by `+=`, it was a rope of 20 parts that every
 * Map key lookup and hash had to flatten first (about 0.5 us an id, measured).
 */
const text = Buffer.alloc(36);
// Entropy is drawn 4 KiB at a time: one call into the OS per 512 ids instead of one per id.
const pool = new Uint8Array(4096);
let poolAt = pool.length;
let lastMs = 0;
let counter = 0;

export function newUuidV7(nowMs: number = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    counter = 0;
  } else {
    counter += 1;
    if (counter > 0xfff) {
      // 4096 ids in one millisecond: borrow the next millisecond rather than break the order.
      lastMs += 1;
      counter = 0;
    }
  }
  if (poolAt + 8 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  bytes.set(pool.subarray(poolAt, poolAt + 8), 8);
  poolAt += 8;
  const ms = lastMs;
  bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = 0x70 | ((counter >>> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
  let at = 0;
  for (let i = 0; i < 16; i++) {
    const byte = bytes[i] as number;
    text[at++] = HEX_DIGITS[byte >>> 4] as number;
    text[at++] = HEX_DIGITS[byte & 0x0f] as number;
    if (i === 3 || i === 5 || i === 7 || i === 9) text[at++] = 0x2d;
  }
  return text.toString('latin1', 0, 36);
}
