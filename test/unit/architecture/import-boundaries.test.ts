// ARCHITECTURE rules 1-3 are enforced by lint; these cases prove a wrong import fails `npm test`.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
// The probes are not files on disk, so the type-aware parser takes them through its default project.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['src-*/*/probe.ts', 'src-*/probe.ts', 'src-main/*/*/probe.ts'] } } },
  },
});

async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  const fatal = result?.messages.find((m) => m.fatal === true);
  if (fatal !== undefined) throw new Error(fatal.message);
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  // The first type-aware lint loads the whole project (33 s measured on a busy machine, past the 30 s a test
  // has): done once here, so each case below is its own lint and the first one does not fail for the load.
  beforeAll(async () => {
    await eslint.lintText('export const x = 1;\n', { filePath: join(root, 'src-main/app/probe.ts') });
  }, 300_000);

  it.each([
    ['the engine importing the file system', 'src-main/venue/engine/probe.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
    ['the ledger importing the store', 'src-main/venue/ledger/probe.ts', "import { openStore } from '../store';\nexport const x = openStore;\n"],
    ['desk code importing electron', 'src-main/desk/probe.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['shared code importing a Node built-in', 'src-shared/probe.ts', "import { join } from 'node:path';\nexport const x = join;\n"],
    ['the renderer importing electron', 'src-renderer/probe.ts', "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n"],
  ])('refuses %s', async (_name, file, code) => {
    expect((await restrictedImports(file, code)).length).toBeGreaterThan(0);
  });

  it.each([
    ['the Electron bootstrap importing electron', 'src-main/app/probe.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['the venue store importing better-sqlite3', 'src-main/venue/store/probe.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n"],
  ])('allows %s', async (_name, file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });
});
