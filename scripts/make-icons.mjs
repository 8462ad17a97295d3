// Draws Nova Desk's mark and writes every icon the installers need into resources/, with nothing but Node:
// PNG (zlib + CRC-32), ICO holding PNGs, ICNS holding PNGs. The mark is drawn in code at each size (not scaled
// down from one bitmap), so the small sizes stay crisp: a four-pointed nova star with a small companion, light on
// a deep blue rounded square. Run it again after changing the drawing: `node scripts/make-icons.mjs`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const resources = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources');

// ---- the drawing, in unit coordinates (0..1, y down)

const TILE = { inset: 0.0625, radius: 0.22 };
const STAR = { x: 0.5, y: 0.53, r: 0.36 };
const COMPANION = { x: 0.76, y: 0.25, r: 0.1 };
const TOP = [0x25, 0x35, 0x62];
const BOTTOM = [0x0b, 0x11, 0x24];
const CORE = [0xff, 0xff, 0xff];
const RIM = [0x5e, 0xe0, 0xc8];

function inTile(x, y) {
  const lo = TILE.inset;
  const hi = 1 - TILE.inset;
  if (x < lo || x > hi || y < lo || y > hi) return false;
  const r = TILE.radius;
  const cx = Math.min(Math.max(x, lo + r), hi - r);
  const cy = Math.min(Math.max(y, lo + r), hi - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** A four-pointed star with concave sides: |x|^½ + |y|^½ ≤ r^½. */
function starAmount(star, x, y) {
  const dx = Math.abs(x - star.x) / star.r;
  const dy = Math.abs(y - star.y) / star.r;
  const s = Math.sqrt(dx) + Math.sqrt(dy);
  return s <= 1 ? Math.hypot(dx, dy) : undefined;
}

function mix(a, b, t) {
  return a.map((v, i) => v + (b[i] - v) * t);
}

/** The colour at one point, or undefined outside the tile. */
function colourAt(x, y) {
  if (!inTile(x, y)) return undefined;
  const along = starAmount(STAR, x, y) ?? starAmount(COMPANION, x, y);
  if (along !== undefined) return mix(CORE, RIM, Math.min(1, along * 1.6));
  return mix(TOP, BOTTOM, (y - TILE.inset) / (1 - 2 * TILE.inset));
}

/** RGBA pixels at one size, each pixel the average of a grid of samples (anti-aliased edges). */
function render(size) {
  const grid = size <= 64 ? 8 : 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < grid; sy++) {
        for (let sx = 0; sx < grid; sx++) {
          const c = colourAt((px + (sx + 0.5) / grid) / size, (py + (sy + 0.5) / grid) / size);
          if (c === undefined) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          covered++;
        }
      }
      const at = (py * size + px) * 4;
      if (covered === 0) continue;
      pixels[at] = Math.round(r / covered);
      pixels[at + 1] = Math.round(g / covered);
      pixels[at + 2] = Math.round(b / covered);
      pixels[at + 3] = Math.round((255 * covered) / (grid * grid));
    }
  }
  return pixels;
}

// ---- PNG

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function png(size) {
  const pixels = render(size);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- ICO (Windows): a directory of PNG images, 256 written as 0 in the one-byte size fields

function ico(images) {
  const head = Buffer.alloc(6);
  head.writeUInt16LE(1, 2);
  head.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry[0] = size >= 256 ? 0 : size;
    entry[1] = size >= 256 ? 0 : size;
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([head, ...entries, ...images.map((i) => i.data)]);
}

// ---- ICNS (macOS): typed PNG entries; the @2x types hold the doubled size

const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024], // 512@2x
  ['ic11', 32], // 16@2x
  ['ic12', 64], // 32@2x
  ['ic13', 256], // 128@2x
  ['ic14', 512], // 256@2x
];

function icns(pngOf) {
  const entries = ICNS_TYPES.map(([type, size]) => {
    const data = pngOf(size);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([head, data]);
  });
  const body = Buffer.concat(entries);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

// ---- write

const cache = new Map();
const pngOf = (size) => {
  if (!cache.has(size)) cache.set(size, png(size));
  return cache.get(size);
};

const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];

mkdirSync(join(resources, 'icons'), { recursive: true });
writeFileSync(join(resources, 'icon.png'), pngOf(1024));
for (const size of LINUX_SIZES) writeFileSync(join(resources, 'icons', `${size}x${size}.png`), pngOf(size));
writeFileSync(join(resources, 'icon.ico'), ico(ICO_SIZES.map((size) => ({ size, data: pngOf(size) }))));
writeFileSync(join(resources, 'icon.icns'), icns(pngOf));
console.log(`make-icons: wrote icon.png, icons/ (${LINUX_SIZES.join(', ')}), icon.ico and icon.icns to ${resources}`);
