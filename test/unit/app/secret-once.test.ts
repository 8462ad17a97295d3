// A key created from the desk: its secret goes to the host's hook once (the desktop app's native dialog) and
// into the store, never into the answer that crosses the bridge (ARCHITECTURE rule 5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIPBOARD_CLEAR_MS, COPY_SECRET, secretBox, secretRevealer } from '../../../src-main/app/secret-reveal';
import { dispatch } from '../../../src-main/desk/dispatch';
import { secretId } from '../../../src-main/desk/key-vault';
import { deskServices } from '../../../src-main/desk/services';
import { openLocalDesk, type LocalDesk } from './local-desk';

const revealed: { keyLabel: string; secret: string }[] = [];
let t: LocalDesk;

beforeAll(async () => {
  t = await openLocalDesk({
    revealSecretOnce: (keyLabel, secret) => {
      revealed.push({ keyLabel, secret });
      return Promise.resolve();
    },
  });
});

afterAll(async () => {
  await t.close();
});

describe('a key created from the desk', () => {
  it('is shown once through the host hook and answered without its secret', async () => {
    const result = await dispatch(deskServices(t.desk), 'keys.create', { environment: 'local', name: 'desk key' }, (text) => t.desk.keys.scrub(text));
    if (!result.ok) throw new Error(result.error.message);
    const answer = result.value as { key: { apiKey: string }; note: string };

    const stored = await t.secrets.get(secretId('local', answer.key.apiKey));
    expect(stored).toBeTruthy();
    expect(revealed).toEqual([{ keyLabel: `desk key (${answer.key.apiKey})`, secret: stored }]);
    expect(JSON.stringify(result)).not.toContain(stored);
    expect(answer.note).toMatch(/shown once, in its own dialog/);

    // Listing and using the desk afterwards never shows it again.
    const keys = await dispatch(deskServices(t.desk), 'keys.list', {});
    expect(JSON.stringify(keys)).not.toContain(stored);
    expect(revealed).toHaveLength(1);
  });
});

describe('the native dialog that shows it', () => {
  const clipboardOf = () => {
    let text = 'what the trader had copied';
    return { writeText: (value: string) => void (text = value), readText: () => text };
  };

  it('copies the secret from main and clears it later if it is still there', async () => {
    const clipboard = clipboardOf();
    const scheduled: { run: () => void; ms: number }[] = [];
    const reveal = secretRevealer({ showMessageBox: () => Promise.resolve({ response: COPY_SECRET }), clipboard, later: (run, ms) => void scheduled.push({ run, ms }) });
    await reveal('desk key (nk_1)', 's3cret-value');
    expect(clipboard.readText()).toBe('s3cret-value');
    expect(scheduled.map((s) => s.ms)).toEqual([CLIPBOARD_CLEAR_MS]);
    scheduled[0]?.run();
    expect(clipboard.readText()).toBe('');
  });

  it('leaves the clipboard alone when the trader copied something else since', async () => {
    const clipboard = clipboardOf();
    const scheduled: (() => void)[] = [];
    const reveal = secretRevealer({ showMessageBox: () => Promise.resolve({ response: COPY_SECRET }), clipboard, later: (run) => void scheduled.push(run) });
    await reveal('desk key (nk_1)', 's3cret-value');
    clipboard.writeText('an order id');
    scheduled[0]?.();
    expect(clipboard.readText()).toBe('an order id');
  });

  it('clears a copied secret at quit, where its timer never runs, and only if it is still there', async () => {
    const clipboard = clipboardOf();
    const reveal = secretRevealer({ showMessageBox: () => Promise.resolve({ response: COPY_SECRET }), clipboard, later: () => undefined });
    await reveal('desk key (nk_1)', 's3cret-value');
    reveal.clearClipboard();
    expect(clipboard.readText()).toBe('');

    await reveal('desk key (nk_2)', 'another-s3cret');
    clipboard.writeText('an order id');
    reveal.clearClipboard();
    expect(clipboard.readText()).toBe('an order id');
  });

  it('does not touch the clipboard when the trader closes it with Done', async () => {
    const clipboard = clipboardOf();
    const box = secretBox('desk key (nk_1)', 's3cret-value');
    const reveal = secretRevealer({ showMessageBox: () => Promise.resolve({ response: box.cancelId ?? -1 }), clipboard, later: () => undefined });
    await reveal('desk key (nk_1)', 's3cret-value');
    expect(clipboard.readText()).toBe('what the trader had copied');
    expect(box.detail).toContain('s3cret-value');
    expect(box.buttons?.[COPY_SECRET]).toBe('Copy Secret');
  });
});
