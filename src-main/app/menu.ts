// The application menu as a template per platform: macOS has the app menu (About, Hide, Quit) first and no Help
// menu of ours; Windows and Linux have File ... Help with About under Help and Quit under File. The desk's own
// commands sit in File on every platform, with their shortcuts. Pure: index.ts builds the menu from it.
import type { MenuItemConstructorOptions, MessageBoxOptions } from 'electron';
import type { EnvironmentId } from '../../src-shared/ipc/contract';
import { environmentLabel } from '../../src-shared/ipc/environment-names';
import { PAGE_SHORTCUTS } from '../../src-preload/shortcuts';

export interface DeskMenuActions {
  /** Focus the order ticket of the focused window. */
  newOrder(): void;
  /** Cancel every open order of the active environment, after the trader confirms. */
  cancelAll(): void;
  switchEnvironment(id: EnvironmentId): void;
  /** Pop the focused panel of the workspace out into its own window. */
  popOutPanel(): void;
  about(): void;
}

export interface MenuEnvironment {
  readonly id: EnvironmentId;
  readonly name: string;
  /** Development and Production need their addresses set before the desk can switch to them. */
  readonly available: boolean;
}

export interface MenuState {
  readonly appName: string;
  readonly active: EnvironmentId;
  readonly environments: readonly MenuEnvironment[];
  /** Developer tools only where the app is not packaged. */
  readonly devTools: boolean;
}

export const MENU_SHORTCUTS = {
  newOrder: PAGE_SHORTCUTS.newOrder.accelerator,
  popOutPanel: PAGE_SHORTCUTS.popOutPanel.accelerator,
  cancelAll: 'CmdOrCtrl+Shift+X',
  environment: { local: 'CmdOrCtrl+1', development: 'CmdOrCtrl+2', production: 'CmdOrCtrl+3' },
} as const;

export function menuTemplate(platform: NodeJS.Platform, state: MenuState, actions: DeskMenuActions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const about: MenuItemConstructorOptions = { label: `About ${state.appName}`, click: () => actions.about() };
  const separator: MenuItemConstructorOptions = { type: 'separator' };

  const desk: MenuItemConstructorOptions[] = [
    // The page owns these keys (it focuses the ticket on the key itself), so the menu shows them without taking
    // them from the page; a click is passed on to the page as the key.
    { label: 'New Order', accelerator: MENU_SHORTCUTS.newOrder, registerAccelerator: false, click: () => actions.newOrder() },
    { label: 'Cancel All Orders…', accelerator: MENU_SHORTCUTS.cancelAll, click: () => actions.cancelAll() },
    separator,
    {
      label: 'Environment',
      submenu: state.environments.map((environment) => ({
        label: environment.available ? environment.name : `${environment.name} (set its address first)`,
        type: 'radio' as const,
        checked: environment.id === state.active,
        enabled: environment.available,
        accelerator: MENU_SHORTCUTS.environment[environment.id],
        click: () => actions.switchEnvironment(environment.id),
      })),
    },
  ];

  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  };

  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(state.devTools ? [{ role: 'toggleDevTools' } as const] : []),
      separator,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };

  const window: MenuItemConstructorOptions = {
    label: 'Window',
    ...(mac ? { role: 'windowMenu' as const } : {}),
    submenu: [
      { label: 'Pop Out Panel', accelerator: MENU_SHORTCUTS.popOutPanel, registerAccelerator: false, click: () => actions.popOutPanel() },
      separator,
      { role: 'minimize' },
      ...(mac ? [{ role: 'zoom' } as const, separator, { role: 'front' } as const] : [{ role: 'close' } as const]),
    ],
  };

  if (mac) {
    return [
      {
        label: state.appName,
        submenu: [about, separator, { role: 'services' }, separator, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, separator, { role: 'quit' }],
      },
      { label: 'File', submenu: [...desk, separator, { role: 'close' }] },
      edit,
      view,
      window,
    ];
  }
  return [
    { label: 'File', submenu: [...desk, separator, { role: 'quit', label: platform === 'win32' ? 'Exit' : 'Quit' }] },
    edit,
    view,
    window,
    { label: 'Help', role: 'help', submenu: [about] },
  ];
}

/**
 * The question before "cancel all": how many orders, where, and that it cannot be undone. Production is named as
 * every Production question names it (environmentLabel), so this one is never read as another environment's.
 */
export function cancelAllQuestion(environment: EnvironmentId, openOrders: number): MessageBoxOptions {
  const where = environmentLabel(environment);
  return {
    type: 'warning',
    title: 'Cancel all orders',
    message: `Cancel all ${openOrders} open ${openOrders === 1 ? 'order' : 'orders'} on ${where}?`,
    detail: 'Every open order of the key in use is cancelled, on every product. This cannot be undone.',
    buttons: ['Cancel All Orders', 'Keep Them'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  };
}

/** The button of cancelAllQuestion that means "go ahead". */
export const CANCEL_ALL_CONFIRMED = 0;
