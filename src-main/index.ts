// Electron bootstrap only: single instance, the window, the IPC transport and the desk's lifecycle.
// Everything it starts is plain Node code under desk/ and venue/ (ARCHITECTURE rule 2).
import { join } from 'node:path';
import { app, BrowserWindow, dialog, session, shell, type WebContents } from 'electron';
import { isOwnPage, secureWindowOptions } from './app/window-options';
import { forwardEvents, serveBridge } from './app/ipc';
import { electronNativeBinding } from './app/native-binding';
import { Desk } from './desk/desk';
import { startEmbeddedVenue } from './desk/embedded-venue';
import { deskServices } from './desk/services';
import { openSecretStore } from './secrets';

const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
const ownOrigin = devServerUrl === undefined ? undefined : new URL(devServerUrl).origin;

const preloadPath = join(import.meta.dirname, '../preload/index.cjs');

if (!app.requestSingleInstanceLock()) app.quit();

/** Navigation and new windows: our own pages only; a popped-out panel opens with the same secure options. */
function guard(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!isOwnPage(url, ownOrigin)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isOwnPage(url, ownOrigin)) {
      return { action: 'allow', overrideBrowserWindowOptions: secureWindowOptions({ preloadPath, title: 'Nova Desk', width: 720, height: 480 }) };
    }
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

async function start(): Promise<void> {
  const desk = await Desk.open({
    dataDir: app.getPath('userData'),
    secrets: await openSecretStore(),
    launchLocalVenue: (dataDir) =>
      startEmbeddedVenue({ script: join(import.meta.dirname, 'venue-worker.js') }, {
        dataDir,
        simulate: true,
        nativeBinding: electronNativeBinding(app.getAppPath()),
      }),
  });
  serveBridge(deskServices(desk), desk, (event) => isOwnPage(event.senderFrame?.url ?? '', ownOrigin));

  // Desktop notifications on fills, from our own pages; nothing else (camera, location, ...) is ever granted.
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback) =>
    callback(permission === 'notifications' && isOwnPage(contents.getURL(), ownOrigin)),
  );

  // Every window, the workspace and each panel popped out of it, gets the same guards and the desk's events.
  app.on('browser-window-created', (_event, created) => {
    guard(created.webContents);
    forwardEvents(desk, created.webContents);
  });
  const window = new BrowserWindow(secureWindowOptions({ preloadPath, title: 'Nova Desk' }));
  window.once('ready-to-show', () => window.show());
  if (devServerUrl !== undefined) void window.loadURL(devServerUrl);
  else void window.loadFile(join(import.meta.dirname, '../renderer/index.html'));

  let stopping = false;
  app.on('before-quit', (event) => {
    if (stopping) return;
    stopping = true;
    event.preventDefault();
    void desk.close().finally(() => app.quit());
  });
}

void app.whenReady().then(() =>
  start().catch((err: unknown) => {
    dialog.showErrorBox('Nova Desk could not start', err instanceof Error ? err.message : String(err));
    app.quit();
  }),
);

app.on('second-instance', () => {
  const [window] = BrowserWindow.getAllWindows();
  if (window === undefined) return;
  if (window.isMinimized()) window.restore();
  window.focus();
});

app.on('window-all-closed', () => app.quit());
