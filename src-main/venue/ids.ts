/**
 * Order and trade ids: UUIDv7 (RFC 9562), time-ordered so that each new id lands at the end of its SQLite
 * index instead of a random page, which keeps the write path fast as history grows. Within one millisecond
 * a counter in rand_a keeps them increasing; the rest is random.
 */
import { randomFillSync } from 'node:crypto';

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const bytes = new Uint8Array(16);
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
  let out = '';
  for (let i = 0; i < 16; i++) {
    out += HEX[bytes[i] as number] as string;
    if (i === 3 || i === 5 || i === 7 || i === 9) out += '-';
  }
  return out;
}
