// The window's own keyboard shortcuts that the application menu also offers. The page owns these keys (the ticket
// focuses on Alt+T, the workspace pops out the focused panel on Alt+P, in a browser as much as in the app), so a
// menu click is delivered to the page as that same key: one code path, and nothing new on window.nova.
// Pure, so main's menu reads its accelerators from here and tests read both.

/** Main → preload: `(shortcut name)`, sent to the focused window when its menu item is clicked. */
export const SHORTCUT_CHANNEL = 'nova:shortcut';

export const PAGE_SHORTCUTS = {
  newOrder: { code: 'KeyT', altKey: true, accelerator: 'Alt+T' },
  popOutPanel: { code: 'KeyP', altKey: true, accelerator: 'Alt+P' },
} as const;
export type PageShortcut = keyof typeof PAGE_SHORTCUTS;

/** The key event to raise in the page for a name main sent, or undefined for anything else. */
export function shortcutKey(name: unknown): { code: string; altKey: boolean } | undefined {
  if (typeof name !== 'string' || !Object.hasOwn(PAGE_SHORTCUTS, name)) return undefined;
  const { code, altKey } = PAGE_SHORTCUTS[name as PageShortcut];
  return { code, altKey };
}
