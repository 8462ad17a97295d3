// A desk.json written by a later build (a later file version) is not damaged: the desk does not open it, and says
// which build to run, rather than naming it a file to move aside (which would leave its keys and layouts behind).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeskFile, defaultDeskFile } from '../../../src-main/desk/desk-file';

const folders: string[] = [];

afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folderWith(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'nova-deskfile-'));
  folders.push(dir);
  writeFileSync(join(dir, 'desk.json'), JSON.stringify(content));
  return dir;
}

describe('a desk file of a later version', () => {
  it('is refused naming the newer build, and left as it is', () => {
    const later = { ...defaultDeskFile(), version: 2, alerts: [] };
    const dir = folderWith(later);
    expect(() => DeskFile.open(dir)).toThrow(/was written by a newer Nova Desk \(desk file version 2; this build reads version 1\): run that newer build/);
    expect(() => DeskFile.open(dir)).not.toThrow(/is not a desk file/);
    expect(JSON.parse(readFileSync(join(dir, 'desk.json'), 'utf8'))).toEqual(later);
  });

  it('still names a damaged one (an older or unknown version) as not a desk file', () => {
    expect(() => DeskFile.open(folderWith({ ...defaultDeskFile(), version: 0 }))).toThrow(/is not a desk file \(version: .*\); move it aside to start afresh/);
    expect(() => DeskFile.open(folderWith({ ...defaultDeskFile(), version: '2' }))).toThrow(/is not a desk file/);
    expect(DeskFile.open(folderWith(defaultDeskFile())).get()).toEqual(defaultDeskFile());
  });
});
