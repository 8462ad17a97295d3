// The application menu per platform: macOS's app menu first, Windows and Linux with File ... Help; the desk's
// commands and shortcuts on both; the page's own shortcuts shown but left to the page.
import { describe, expect, it } from 'vitest';
import { CANCEL_ALL_CONFIRMED, cancelAllQuestion, MENU_SHORTCUTS, menuTemplate, type DeskMenuActions, type MenuState } from '../../../src-main/app/menu';
import { PAGE_SHORTCUTS, shortcutKey } from '../../../src-preload/shortcuts';

const state: MenuState = {
  appName: 'Nova Desk',
  active: 'local',
  environments: [
    { id: 'local', name: 'Local', available: true },
    { id: 'development', name: 'Development', available: true },
    { id: 'production', name: 'Production', available: false },
  ],
  devTools: false,
};

function recorder(): { actions: DeskMenuActions; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    actions: {
      newOrder: () => calls.push('newOrder'),
      cancelAll: () => calls.push('cancelAll'),
      switchEnvironment: (id) => calls.push(`switch:${id}`),
      popOutPanel: () => calls.push('popOutPanel'),
      about: () => calls.push('about'),
    },
  };
}

type MenuItemConstructorOptions = ReturnType<typeof menuTemplate>[number];

const items = (menu: MenuItemConstructorOptions): MenuItemConstructorOptions[] => (Array.isArray(menu.submenu) ? menu.submenu : []);
const all = (template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] => template.flatMap((m) => [m, ...all(items(m))]);
const byLabel = (template: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions => {
  const found = all(template).find((i) => i.label === label);
  if (found === undefined) throw new Error(`no menu item ${label}`);
  return found;
};
const click = (item: MenuItemConstructorOptions): void => (item.click as () => void)();

describe('the macOS menu', () => {
  const { actions, calls } = recorder();
  const template = menuTemplate('darwin', state, actions);

  it('starts with the app menu: About, Services, Hide, Quit', () => {
    expect(template.map((m) => m.label)).toEqual(['Nova Desk', 'File', 'Edit', 'View', 'Window']);
    const app = items(template[0] ?? {});
    expect(app[0]?.label).toBe('About Nova Desk');
    expect(app.map((i) => i.role).filter(Boolean)).toEqual(['services', 'hide', 'hideOthers', 'unhide', 'quit']);
  });

  it('has the Window menu of macOS and no Help menu of ours', () => {
    const window = template.find((m) => m.label === 'Window');
    expect(window?.role).toBe('windowMenu');
    expect(items(window ?? {}).map((i) => i.role).filter(Boolean)).toEqual(['minimize', 'zoom', 'front']);
    expect(all(template).some((i) => i.role === 'toggleDevTools')).toBe(false);
  });

  it('runs the desk commands', () => {
    click(byLabel(template, 'About Nova Desk'));
    click(byLabel(template, 'New Order'));
    click(byLabel(template, 'Cancel All Orders…'));
    click(byLabel(template, 'Pop Out Panel'));
    click(byLabel(template, 'Development'));
    expect(calls).toEqual(['about', 'newOrder', 'cancelAll', 'popOutPanel', 'switch:development']);
  });
});

describe.each(['win32', 'linux'] as const)('the %s menu', (platform) => {
  const { actions, calls } = recorder();
  const template = menuTemplate(platform, { ...state, devTools: true }, actions);

  it('is File, Edit, View, Window, Help with Quit under File and About under Help', () => {
    expect(template.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    const quit = items(template[0] ?? {}).at(-1);
    expect(quit).toMatchObject({ role: 'quit', label: platform === 'win32' ? 'Exit' : 'Quit' });
    click(items(template[4] ?? {})[0] ?? {});
    expect(calls).toEqual(['about']);
  });

  it('offers developer tools only where asked (not in a packaged app)', () => {
    expect(all(template).some((i) => i.role === 'toggleDevTools')).toBe(true);
    expect(all(menuTemplate(platform, state, actions)).some((i) => i.role === 'toggleDevTools')).toBe(false);
  });
});

describe('the desk shortcuts', () => {
  const template = menuTemplate('linux', state, recorder().actions);

  it('has one per command', () => {
    expect(byLabel(template, 'New Order').accelerator).toBe(MENU_SHORTCUTS.newOrder);
    expect(byLabel(template, 'Cancel All Orders…').accelerator).toBe('CmdOrCtrl+Shift+X');
    expect(byLabel(template, 'Pop Out Panel').accelerator).toBe(MENU_SHORTCUTS.popOutPanel);
    expect(byLabel(template, 'Local').accelerator).toBe('CmdOrCtrl+1');
    const accelerators = all(template).flatMap((i) => (typeof i.accelerator === 'string' ? [i.accelerator] : []));
    expect(new Set(accelerators).size).toBe(accelerators.length);
  });

  it('leaves the page its own keys: shown in the menu, not taken from the page', () => {
    for (const label of ['New Order', 'Pop Out Panel']) expect(byLabel(template, label).registerAccelerator).toBe(false);
    expect(byLabel(template, 'Cancel All Orders…').registerAccelerator).toBeUndefined();
    expect(MENU_SHORTCUTS.newOrder).toBe('Alt+T');
    expect(shortcutKey('newOrder')).toEqual({ code: 'KeyT', altKey: true });
    expect(shortcutKey('popOutPanel')).toEqual({ code: PAGE_SHORTCUTS.popOutPanel.code, altKey: true });
    expect(shortcutKey('constructor')).toBeUndefined();
    expect(shortcutKey(42)).toBeUndefined();
  });

  it('marks the active environment and keeps one without an address out of reach', () => {
    expect(byLabel(template, 'Local')).toMatchObject({ type: 'radio', checked: true, enabled: true });
    expect(byLabel(template, 'Development')).toMatchObject({ checked: false, enabled: true });
    expect(byLabel(template, 'Production (set its address first)')).toMatchObject({ enabled: false });
  });
});

describe('cancel all', () => {
  it('asks first, says how many and where, and defaults to keeping the orders', () => {
    const question = cancelAllQuestion('production', 3);
    expect(question.message).toBe('Cancel all 3 open orders on PRODUCTION (real money)?');
    expect(question.buttons?.[CANCEL_ALL_CONFIRMED]).toBe('Cancel All Orders');
    expect(question.defaultId).not.toBe(CANCEL_ALL_CONFIRMED);
    expect(question.cancelId).not.toBe(CANCEL_ALL_CONFIRMED);
    expect(cancelAllQuestion('local', 1).message).toBe('Cancel all 1 open order on Local?');
  });
});
