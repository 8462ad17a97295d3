// One Nova Desk at a time: two would fight over the same desk file, keychain entries and local venue folder.
// A second launch hands over to the first, which comes to the front as the trader left it.
import type { App, BrowserWindow, RelaunchOptions } from 'electron';

/** Takes the lock, or quits this second instance; true when this instance goes on. */
export function claimSingleInstance(app: Pick<App, 'requestSingleInstanceLock' | 'quit'>): boolean {
  if (app.requestSingleInstanceLock()) return true;
  app.quit();
  return false;
}

export type RestorableWindow = Pick<BrowserWindow, 'isDestroyed' | 'isMinimized' | 'restore' | 'isVisible' | 'show' | 'focus'>;

/** What the first instance does when a second one starts: its main window restored, shown and focused. */
export function bringToFront(window: RestorableWindow | undefined): void {
  if (window === undefined || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  if (!window.isVisible()) window.show();
  window.focus();
}

/**
 * How the app starts itself again (QuitGate.relaunchAfterStop). An AppImage runs from a mount of its image that is
 * gone once this process exits, so process.execPath would start nothing: the image itself is started instead.
 */
export function relaunchOptions(env: NodeJS.ProcessEnv, argv: readonly string[]): RelaunchOptions | undefined {
  const image = env['APPIMAGE'];
  return image === undefined || image === '' ? undefined : { execPath: image, args: argv.slice(1) };
}
