// A secret created on a venue is shown to the trader once, in a native dialog owned by main, so it never crosses
// the bridge into a window (ARCHITECTURE rule 5). "Copy Secret" writes the clipboard from main and clears it
// 30 seconds later, or at quit if that is sooner, unless the trader has copied something else since. Pure apart
// from what it is handed.
import type { Clipboard, MessageBoxOptions, MessageBoxReturnValue } from 'electron';
import type { RevealSecretOnce } from '../desk/key-vault';

export const CLIPBOARD_CLEAR_MS = 30_000;
export const COPY_SECRET = 0;

export function secretBox(keyLabel: string, secret: string): MessageBoxOptions {
  return {
    type: 'info',
    title: 'New API key',
    message: `The secret of ${keyLabel}`,
    detail: `${secret}\n\nThis is the only time Nova Desk shows it. The desk keeps it for you; copy it now only if another program needs it.`,
    buttons: ['Copy Secret', 'Done'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  };
}

export type Later = (run: () => void, ms: number) => void;

export interface RevealHost {
  showMessageBox(options: MessageBoxOptions): Promise<Pick<MessageBoxReturnValue, 'response'>>;
  readonly clipboard: Pick<Clipboard, 'writeText' | 'readText'>;
  readonly later: Later;
}

export type SecretRevealer = RevealSecretOnce & {
  /**
   * At quit: a secret copied less than CLIPBOARD_CLEAR_MS ago is cleared now, as its timer dies with the app and
   * would otherwise leave it on the system clipboard for as long as nothing else is copied.
   */
  clearClipboard(): void;
};

/**
 * The desk's hook (DeskOptions.revealSecretOnce), built on Electron's dialog and clipboard by index.ts. "Copy
 * Secret" puts it on the clipboard for a while: cleared after CLIPBOARD_CLEAR_MS, or at quit, if it is still there.
 */
export function secretRevealer(host: RevealHost): SecretRevealer {
  const copied = new Set<string>();
  // Only if it is still there: the trader may have copied something else since.
  const clear = (secret: string): void => {
    if (copied.delete(secret) && host.clipboard.readText() === secret) host.clipboard.writeText('');
  };
  const reveal: RevealSecretOnce = async (keyLabel, secret) => {
    const { response } = await host.showMessageBox(secretBox(keyLabel, secret));
    if (response !== COPY_SECRET) return;
    host.clipboard.writeText(secret);
    copied.add(secret);
    host.later(() => clear(secret), CLIPBOARD_CLEAR_MS);
  };
  return Object.assign(reveal, { clearClipboard: () => [...copied].forEach(clear) });
}
