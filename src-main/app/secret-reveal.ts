// A secret created on a venue is shown to the trader once, in a native dialog owned by main, so it never crosses
// the bridge into a window (ARCHITECTURE rule 5). "Copy Secret" writes the clipboard from main and clears it
// 30 seconds later unless the trader has copied something else since. Pure apart from what it is handed.
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

/** On the clipboard for a while: cleared after CLIPBOARD_CLEAR_MS if it still holds the secret. */
export function copyForAWhile(secret: string, clipboard: Pick<Clipboard, 'writeText' | 'readText'>, later: Later): void {
  clipboard.writeText(secret);
  later(() => {
    if (clipboard.readText() === secret) clipboard.writeText('');
  }, CLIPBOARD_CLEAR_MS);
}

export interface RevealHost {
  showMessageBox(options: MessageBoxOptions): Promise<Pick<MessageBoxReturnValue, 'response'>>;
  readonly clipboard: Pick<Clipboard, 'writeText' | 'readText'>;
  readonly later: Later;
}

/** The desk's hook (DeskOptions.revealSecretOnce), built on Electron's dialog and clipboard by index.ts. */
export function secretRevealer(host: RevealHost): RevealSecretOnce {
  return async (keyLabel, secret) => {
    const { response } = await host.showMessageBox(secretBox(keyLabel, secret));
    if (response === COPY_SECRET) copyForAWhile(secret, host.clipboard, host.later);
  };
}
