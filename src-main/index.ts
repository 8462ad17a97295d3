// Electron bootstrap only: it hands Electron's objects to the pure parts under app/ and the desk under desk/
// (ARCHITECTURE rule 2). What to do lives there and is tested there; this file only says when.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  Notification as NativeNotification,
  screen,
  session,
  shell,
  type MessageBoxOptions,
  type WebContents,
} from 'electron';
import type { EnvironmentId } from '../src-shared/ipc/contract';
import { aboutBox } from './app/about';
import { tellFills } from './app/fill-notices';
import { bridgeHandler, forwardEvents, serveBridge } from './app/ipc';
import { MainLog } from './app/main-log';
import { CANCEL_ALL_CONFIRMED, cancelAllQuestion, menuTemplate, type DeskMenuActions } from './app/menu';
import { electronNativeBinding } from './app/native-binding';
import { APP_ID, PRODUCT_NAME } from './app/product';
import { secretRevealer } from './app/secret-reveal';
import { OpeningDesk, QuitGate, runShutdown, shutdownSteps } from './app/shutdown';
import { bringToFront, claimSingleInstance, relaunchOptions } from './app/single-instance';
import { OpenWindows, placeWindow, rememberWindow, WindowStateFile, type DisplayArea } from './app/window-state';
import { devServerUrl, isOwnPage, ownPages, secureWindowOptions, windowOpenDecision } from './app/window-options';
import { SHORTCUT_CHANNEL, type PageShortcut } from '../src-preload/shortcuts';
import { Desk } from './desk/desk';
import { startEmbeddedVenue } from './desk/embedded-venue';
import { deskServices } from './desk/services';
import { openSecretStore } from './secrets';

const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
const rendererFile = join(import.meta.dirname, '../renderer/index.html');
const devServer = devServerUrl(app.isPackaged, process.env);
const pages = ownPages(devServer, pathToFileURL(rendererFile).href);
const WORKSPACE = 'workspace';
/** A popped-out panel's window is remembered by the panel it shows. */
const panelRole = (url: string): string => `panel:${new URL(url).searchParams.get('panel') ?? 'panel'}`;

if (claimSingleInstance(app)) run();

function run(): void {
  let log: MainLog | undefined;
  let desk: Desk | undefined;
  let bridge: { stop(): void } | undefined;
  let workspace: BrowserWindow | undefined;
  let windowState: WindowStateFile | undefined;
  const gate = new QuitGate();
  const opening = new OpeningDesk<Desk>();

  const displays = (): DisplayArea[] => screen.getAllDisplays().map((d) => ({ id: d.id, workArea: d.workArea }));
  const primary = (): DisplayArea => {
    const d = screen.getPrimaryDisplay();
    return { id: d.id, workArea: d.workArea };
  };
  const windows = new OpenWindows<BrowserWindow>(WORKSPACE, (window, role) => {
    if (window.isDestroyed()) return;
    windowState?.set(role, rememberWindow(window.getNormalBounds(), window.isMaximized(), displays(), primary()));
  });
  const placed = (role: string, size: { width: number; height: number }) =>
    placeWindow(windowState?.get(role), displays(), primary(), size);

  const focused = (): BrowserWindow | undefined => BrowserWindow.getFocusedWindow() ?? workspace;
  const ask = (options: MessageBoxOptions) => {
    const parent = focused();
    return parent === undefined ? dialog.showMessageBox(options) : dialog.showMessageBox(parent, options);
  };
  const revealer = secretRevealer({ showMessageBox: ask, clipboard, later: (work, ms) => void setTimeout(work, ms) });
  const scrub = (text: string): string => desk?.keys.scrub(text) ?? text;
  const fail = (what: string, err: unknown): void => {
    const reason = scrub(err instanceof Error ? err.message : String(err));
    log?.error(what, reason);
    dialog.showErrorBox(what, reason);
  };
  const sendShortcut = (shortcut: PageShortcut): void => {
    const target = focused();
    if (target !== undefined && !target.isDestroyed()) target.webContents.send(SHORTCUT_CHANNEL, shortcut);
  };

  /** Navigation and new windows: our own pages only; a popped-out panel opens where it was last time. */
  const guard = (contents: WebContents): void => {
    contents.on('will-navigate', (event, url) => {
      if (!isOwnPage(url, pages)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isOwnPage(url, pages)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      const decision = windowOpenDecision(url, pages, preloadPath);
      if (decision.action === 'deny') {
        if (decision.external !== undefined) void shell.openExternal(decision.external);
        return { action: 'deny' };
      }
      const { bounds } = placed(panelRole(url), { width: decision.options.width ?? 720, height: decision.options.height ?? 640 });
      return { action: 'allow', overrideBrowserWindowOptions: { ...decision.options, ...bounds } };
    });
    contents.on('did-create-window', (window, { url }) => {
      const role = panelRole(url);
      windows.track(window, role);
      // No window option opens one maximized: a panel that was, is again as it opens.
      if (windowState?.get(role)?.maximized === true) window.maximize();
    });
  };
  app.on('web-contents-created', (_event, contents) => guard(contents));

  const refreshMenu = (): void => {
    if (desk === undefined) return;
    const view = desk.environments();
    const state = {
      appName: PRODUCT_NAME,
      active: view.active,
      environments: view.environments.map((e) => ({ id: e.id, name: e.name, available: e.id === 'local' || e.baseUrl !== '' })),
      devTools: !app.isPackaged,
    };
    Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(process.platform, state, actions)));
  };

  const actions: DeskMenuActions = {
    newOrder: () => sendShortcut('newOrder'),
    popOutPanel: () => sendShortcut('popOutPanel'),
    cancelAll: () => {
      const open = desk;
      if (open === undefined) return;
      void (async () => {
        // The environment first, then its count: read the other way round, a switch during the read put Local's
        // count under a question naming Production.
        const asked = open.environment;
        const orders = await open.activeOrders(undefined);
        if (open.environment !== asked) {
          await ask({ type: 'info', message: 'The desk switched environment while its open orders were counted: nothing was cancelled. Choose Cancel All Orders again.', buttons: ['OK'] });
          return;
        }
        if (orders.length === 0) {
          await ask({ type: 'info', message: 'No open orders to cancel.', buttons: ['OK'] });
          return;
        }
        const { response } = await ask(cancelAllQuestion(asked, orders.length));
        if (response !== CANCEL_ALL_CONFIRMED) return;
        // On the environment the question named: the desk may have switched while it was open.
        const { cancelRequested } = await open.cancelAll(undefined, asked);
        log?.info(`cancel all: ${cancelRequested} orders asked to cancel`);
      })().catch((err: unknown) => fail('Cancel all orders', err));
    },
    switchEnvironment: (id: EnvironmentId) => {
      desk?.switchEnvironment(id).catch((err: unknown) => fail('Switch environment', err));
    },
    about: () => {
      if (desk === undefined) return;
      void ask(aboutBox({ appName: PRODUCT_NAME, appVersion: app.getVersion(), versions: process.versions, venueApi: 'v1', localVenue: desk.venueStatus() }));
    },
  };

  const openWorkspace = (): BrowserWindow => {
    const { bounds, maximized } = placed(WORKSPACE, { width: 1280, height: 800 });
    const window = new BrowserWindow(secureWindowOptions({ preloadPath, title: PRODUCT_NAME, ...bounds }));
    windows.track(window, WORKSPACE);
    window.once('ready-to-show', () => {
      if (maximized) window.maximize();
      window.show();
    });
    if (devServer !== undefined) void window.loadURL(devServer);
    else void window.loadFile(rendererFile);
    return window;
  };

  const start = async (): Promise<void> => {
    if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
    const logs = new MainLog(app.getPath('logs'));
    log = logs;
    logs.info(`${PRODUCT_NAME} ${app.getVersion()} starting (Electron ${process.versions.electron}, ${process.platform} ${process.arch})`);
    windowState = new WindowStateFile(join(app.getPath('userData'), 'window-state.json'));

    // Nothing a page asks for is granted: fill notifications come from main, once per fill, not once per window.
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    session.defaultSession.setPermissionCheckHandler(() => false);

    // The desk's folder lock and the local venue both open SQLite: Electron's build, when there is one.
    const nativeBinding = electronNativeBinding({ isPackaged: app.isPackaged, appPath: app.getAppPath(), resourcesPath: process.resourcesPath });
    const sqlite = nativeBinding === undefined ? {} : { nativeBinding };
    const opened = await opening.open(
      (async () =>
        Desk.open({
          dataDir: app.getPath('userData'),
          ...sqlite,
          secrets: await openSecretStore(),
          launchLocalVenue: (dataDir) =>
            startEmbeddedVenue(
              { script: join(import.meta.dirname, 'venue-worker.js') },
              { dataDir, ...sqlite },
            ),
          revealSecretOnce: revealer,
        }))(),
    );
    // Quit while it opened: the shutdown closes it.
    if (opened === undefined) return;
    desk = opened;
    logs.scrubWith((text) => opened.keys.scrub(text));
    logs.info(`local venue ${opened.venueStatus().state} at ${opened.venueStatus().baseUrl}`);

    bridge = serveBridge(ipcMain, bridgeHandler(deskServices(opened), scrub, (url) => isOwnPage(url, pages)));
    app.on('browser-window-created', (_event, created) => forwardEvents(opened.events.onDidEmit, created.webContents, (window) => opened.windowClosed(window)));

    opened.events.onDidEmit((event) => {
      if (event.name === 'environments.changed') refreshMenu();
    });
    tellFills(opened, BigInt(Date.now()) * 1_000_000n, (notice) => {
      if (!NativeNotification.isSupported()) return;
      const shown = new NativeNotification({ title: notice.title, body: notice.body });
      shown.on('click', () => bringToFront(workspace));
      shown.show();
    });

    refreshMenu();
    workspace = openWorkspace();
  };

  // Windows and Linux hand a second launch over as 'second-instance'; macOS activates the running app instead.
  const launchedAgain = (): void => {
    if (gate.secondInstance() === 'bring-to-front') bringToFront(workspace);
  };
  app.on('second-instance', launchedAgain);
  app.on('activate', launchedAgain);
  app.on('window-all-closed', () => app.quit());
  app.on('render-process-gone', (_event, _contents, details) => log?.error(`a window's renderer is gone (${details.reason}, exit code ${details.exitCode})`));
  app.on('child-process-gone', (_event, details) => log?.error(`${details.type} process gone (${details.reason}, exit code ${details.exitCode})`));

  app.on('before-quit', (event) => {
    const next = gate.beforeQuit();
    if (next === 'quit') return;
    event.preventDefault();
    if (next === 'hold') return;
    log?.info('shutting down');
    const steps = shutdownSteps({
      saveWindows: () => windows.saveAll(),
      clearClipboard: () => revealer.clearClipboard(),
      stopBridge: () => bridge?.stop(),
      closeDesk: () => opening.close(),
    });
    void runShutdown(steps, (step, err) => log?.error(`shutdown: ${step}`, err)).then(() => {
      log?.info('stopped');
      gate.stopped();
      if (gate.relaunchAfterStop()) app.relaunch(relaunchOptions(process.env, process.argv));
      app.quit();
    });
  });

  void app.whenReady().then(() =>
    start().catch((err: unknown) => {
      log?.error('could not start', err);
      // A desk still opening when the trader quit is closed by the shutdown: its failure then is no news.
      if (!gate.quitting) dialog.showErrorBox(`${PRODUCT_NAME} could not start`, scrub(err instanceof Error ? err.message : String(err)));
      app.quit();
    }),
  );
}
