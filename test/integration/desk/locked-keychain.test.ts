// A keyring locked under a running desk (a lock screen, a timeout, the trader's own "lock"), with nobody there to
// type its password: every answer says the keychain is the trouble, no key is made on the venue that the desk
// could not keep the secret of, and the status says why the desk has no session rather than that it has no key.
// The child runs under a Secret Service of its own: locking the shared one would fail the tests beside this one.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { errorRecord } from '../../../src-shared/errors/catalogue';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('a keychain locked under the desk', () => {
  it('refuses to make or import a key it cannot keep, with the keychain reference, still lists the keys, and says the keychain is locked where the session would be', async () => {
    const { stdout } = await run('bash', [join(ROOT, 'scripts', 'with-keyring.sh'), process.execPath, '--import', 'tsx', join(import.meta.dirname, 'locked-keychain-child.ts')], {
      cwd: ROOT,
      timeout: 60_000,
    });
    const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as {
      storage: string;
      created: { ok: boolean; error?: { ref: string; message: string } };
      imported: { ok: boolean; error?: { ref: string; message: string } };
      listed: { ok: boolean; value?: { apiKey: string; origin: string; active: boolean; storedIn: string }[]; error?: { message: string } };
      switched: { ok: boolean; value?: { state: string; detail: string }; error?: { message: string } };
      status: { ok: boolean; value: { state: string; detail: string } };
      liveKeysMadeWhileLocked: number;
    };
    expect(report.storage).toBe('keychain');

    expect(report.created.ok).toBe(false);
    expect(report.created.error?.message).toMatch(/keychain.*no key was created/i);
    expect(report.liveKeysMadeWhileLocked).toBe(0);

    // The reference names the trader's keychain, not the venue (E0901 says the venue failed, contact support).
    expect(report.created.error?.ref).toBe('E0801_KeychainUnavailable');
    expect(report.imported.ok).toBe(false);
    expect(report.imported.error?.ref).toBe('E0801_KeychainUnavailable');
    expect(report.imported.error?.message).toMatch(/^E0801_KeychainUnavailable: The keychain could not store the secret "development:nk_imported_while_locked"/);
    expect(report.imported.error?.message).not.toContain('not-a-real-secret');
    expect(errorRecord('E0801_KeychainUnavailable')).toMatchObject({ action: 'retry', title: expect.stringMatching(/keychain/i), message: expect.stringMatching(/unlock the keychain/i) });

    // The keys are still listed, by name, each marked as held in a keychain that cannot be read now.
    expect(report.listed.ok, report.listed.error?.message).toBe(true);
    expect(report.listed.value).toEqual([expect.objectContaining({ origin: 'bootstrap', active: true, storedIn: 'locked' })]);

    // The switch itself is answered: the session could not start, and the status says why.
    expect(report.switched.ok, report.switched.error?.message).toBe(true);
    expect(report.status.value.detail).toMatch(/^The keychain could not read the secret .*; unlock the keychain, then switch to Local again$/);
  }, 90_000);
});
