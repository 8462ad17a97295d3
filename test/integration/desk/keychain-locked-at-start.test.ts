// The keychain locked (or not running) when the desk starts, with nobody to type its password: the desk keeps
// secrets in memory for the session, and the keys whose secrets the keychain kept are not gone. They are listed
// as in a keychain that cannot be read now, and the status says to make the keychain available, never that the
// secret is no longer stored (which would have the trader remove a key whose only copy the keychain holds).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('a keychain locked when the desk starts', () => {
  it('lists the keys it holds as locked, not missing, says to unlock it rather than import them again, and removes none', async () => {
    const { stdout } = await run('bash', [join(ROOT, 'scripts', 'with-keyring.sh'), process.execPath, '--import', 'tsx', join(import.meta.dirname, 'keychain-locked-at-start-child.ts')], {
      cwd: ROOT,
      timeout: 60_000,
    });
    const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as {
      firstStorage: string;
      secondStorage: string;
      created: { ok: boolean; value?: { key: { apiKey: string } } };
      listed: { ok: boolean; value?: { apiKey: string; origin: string; active: boolean; storedIn: string }[] };
      status: { ok: boolean; value: { state: string; detail: string } };
      forgotten: { ok: boolean; error?: { ref: string; message: string } };
    };
    expect(report.firstStorage).toBe('keychain');
    expect(report.secondStorage).toBe('memory');
    expect(report.created.ok).toBe(true);
    const made = report.listed.value?.find((k) => k.apiKey === report.created.value?.key.apiKey);
    expect(made).toMatchObject({ origin: 'created', active: true, storedIn: 'locked' });
    expect(report.status.value.detail).not.toMatch(/no longer stored/);
    expect(report.status.value.detail).toMatch(/keychain.*not available when the desk started.*restart the desk/);
    // Removed now, the key would be gone from the desk while the keychain still holds its secret.
    expect(report.forgotten).toMatchObject({ ok: false, error: { ref: 'E0801_KeychainUnavailable' } });
    expect(made).toBeDefined();
  }, 90_000);
});
