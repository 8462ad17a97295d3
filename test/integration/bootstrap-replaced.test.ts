// bootstrap.json is written whole or not at all. Each start wrote it in place (truncated, then written), so a start
// killed mid-write, or a reader (a script, the desk) opening it at that moment, found a cut-off file. A new file is
// now written beside it and renamed over it: whoever holds the old file keeps it whole, and nothing is left behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startVenue } from '../../src-main/venue/server';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-bootstrap-replaced-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const file = path.join(dataDir, 'bootstrap.json');

it('replaces bootstrap.json with a whole new file on restart, leaving the old one whole and no temporary file', async () => {
  let running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0 });
  const filesBefore = fs.readdirSync(dataDir).sort();
  await running.close();
  const before = fs.readFileSync(file, 'utf8');
  // A second name for the file the first start wrote: written in place, it would show the restart's bytes.
  const held = path.join(os.tmpdir(), `nova-bootstrap-held-${process.pid}`);
  fs.rmSync(held, { force: true });
  fs.linkSync(file, held);
  try {
    running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0 });
    try {
      const after = fs.readFileSync(file, 'utf8');
      expect(JSON.parse(after)).toMatchObject({ base_url: running.baseUrl, ws_url: running.wsUrl });
      expect(fs.readFileSync(held, 'utf8')).toBe(before);
      expect(fs.statSync(file).ino).not.toBe(fs.statSync(held).ino);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(dataDir).sort()).toEqual(filesBefore);
    } finally {
      await running.close();
    }
  } finally {
    fs.rmSync(held, { force: true });
  }
});

it('leaves no temporary file when bootstrap.json cannot be replaced', async () => {
  fs.rmSync(file);
  fs.mkdirSync(file);
  try {
    const filesBefore = fs.readdirSync(dataDir).sort();
    await expect(startVenue({ port: 0, dataDir })).rejects.toThrow(/bootstrap\.json/);
    expect(fs.readdirSync(dataDir).sort()).toEqual(filesBefore);
  } finally {
    fs.rmdirSync(file);
  }
});
