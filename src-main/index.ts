// Electron bootstrap only: single instance, the window, the IPC transport and the desk's lifecycle.
// Everything it starts is plain Node code under desk/ and venue/ (ARCHITECTURE rule 2).
import { join } from 'node:path';
import { app, BrowserWindow, dialog, session, shell } from 'electron';
import { isOwnPage, secureWindowOptions } from './app/window-options';
import { forwardEvents, serveBridge } from './app/ipc';
import { electronNativeBinding } from './app/native-binding';
import { Desk } from './desk/desk';
import { startEmbeddedVenue } from './desk/embedded-venue';
import { deskServices } from './desk/services';
import { openSecretStore } from './secrets';

const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
const ownOrigin = devServerUrl === undefined ? undefined : new URL(devServerUrl).origin;

if (!app.requestSingleInstanceLock()) app.quit();

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

  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));

  const window = new BrowserWindow(
    secureWindowOptions({ preloadPath: join(import.meta.dirname, '../preload/index.cjs'), title: 'Nova Desk' }),
  );
  forwardEvents(desk, window.webContents);
  window.webContents.on('will-navigate', (event, url) => {
    if (!isOwnPage(url, ownOrigin)) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
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
