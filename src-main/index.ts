// Electron bootstrap only: single instance, the window, the IPC transport and the embedded venue's lifecycle.
// Everything it starts is plain Node code under desk/ and venue/ (ARCHITECTURE rule 2).
import { join } from 'node:path';
import { app, BrowserWindow, session, shell } from 'electron';
import { isOwnPage, secureWindowOptions } from './app/window-options';
import { serveBridge } from './app/ipc';
import { electronNativeBinding } from './app/native-binding';
import { startEmbeddedVenue } from './desk/embedded-venue';
import type { DeskServices } from './desk/services';

const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
const ownOrigin = devServerUrl === undefined ? undefined : new URL(devServerUrl).origin;

if (!app.requestSingleInstanceLock()) app.quit();

void app.whenReady().then(() => {
  const venue = startEmbeddedVenue(join(import.meta.dirname, 'venue-worker.js'), {
    dataDir: join(app.getPath('userData'), 'local-venue'),
    simulate: true,
    nativeBinding: electronNativeBinding(app.getAppPath()),
  });
  const services: DeskServices = { 'venue.status': () => Promise.resolve(venue.status()) };
  serveBridge(services, (event) => isOwnPage(event.senderFrame?.url ?? '', ownOrigin));

  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));

  const window = new BrowserWindow(
    secureWindowOptions({ preloadPath: join(import.meta.dirname, '../preload/index.cjs'), title: 'Nova Desk' }),
  );
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
    void venue.stop().finally(() => app.quit());
  });
});

app.on('second-instance', () => {
  const [window] = BrowserWindow.getAllWindows();
  if (window === undefined) return;
  if (window.isMinimized()) window.restore();
  window.focus();
});

app.on('window-all-closed', () => app.quit());
