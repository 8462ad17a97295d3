// desk.lock deleted while its desk runs (someone "cleaning up a stale lock") must not leave the folder open to a
// second desk for good: the two would write desk.json over each other. The desk puts its lock back.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockDeskFolder } from '../../../src-main/desk/desk-lock';

const dir = mkdtempSync(join(tmpdir(), 'nova-desk-lock-deleted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!condition()) throw new Error(`never: ${what}`);
}

describe("the desk's folder lock, deleted while the desk runs", () => {
  it('is taken again by that desk, so a second desk is still refused', async () => {
    const held = lockDeskFolder(dir, undefined, false);
    try {
      const file = join(dir, 'desk.lock');
      rmSync(file);
      await until(() => existsSync(file), 'desk.lock made again');
      expect(() => lockDeskFolder(dir, undefined, false)).toThrow(/another Nova Desk is using the data folder/);
    } finally {
      held?.release();
    }
    // Released, the folder is free again.
    const next = lockDeskFolder(dir, undefined, false);
    next?.release();
  });
});
