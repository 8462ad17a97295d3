// Where each window was, per display: the workspace and every popped-out panel open again on the display they
// were on, as large as they were, and never off screen: a display that is gone (a laptop undocked) or smaller
// now gives a place on a display that exists. Placement is pure; the file is read through one schema.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What placement needs of a display (Electron's Display has more). */
export interface DisplayArea {
  readonly id: number;
  /** The display less the taskbar, dock and menu bar. */
  readonly workArea: Rect;
}

const RectSchema = z.object({ x: z.int(), y: z.int(), width: z.int().min(1), height: z.int().min(1) });
const SavedWindowSchema = z.object({ displayId: z.number(), bounds: RectSchema, maximized: z.boolean() });
export type SavedWindow = z.infer<typeof SavedWindowSchema>;
/** Keyed by the window's role: 'workspace', or 'panel:<id>' for a popped-out panel. */
const MAX_ROLE_LENGTH = 200;

export const MIN_WINDOW = { width: 480, height: 320 } as const;
export const MAX_WINDOWS = 50;

function overlap(a: Rect, b: Rect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

/** The display a window is on: the one it covers most (as Electron's screen.getDisplayMatching decides). */
export function displayOf(bounds: Rect, displays: readonly DisplayArea[]): DisplayArea | undefined {
  let best: DisplayArea | undefined;
  let bestArea = 0;
  for (const display of displays) {
    const area = overlap(bounds, display.workArea);
    if (area > bestArea) {
      best = display;
      bestArea = area;
    }
  }
  return best;
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(value, high));
}

function centred(size: { width: number; height: number }, area: Rect): Rect {
  const width = Math.min(size.width, area.width);
  const height = Math.min(size.height, area.height);
  return { x: area.x + Math.floor((area.width - width) / 2), y: area.y + Math.floor((area.height - height) / 2), width, height };
}

/**
 * Where a window opens: on its saved display if that still exists, else on the display its saved bounds cover
 * most, else on the primary; no larger than that display's work area and wholly inside it. A window that was on
 * a display that is gone and covers none that exists opens centred on the primary.
 */
export function placeWindow(
  saved: SavedWindow | undefined,
  displays: readonly DisplayArea[],
  primary: DisplayArea,
  defaultSize: { width: number; height: number },
): { bounds: Rect; maximized: boolean } {
  if (saved === undefined) return { bounds: centred(defaultSize, primary.workArea), maximized: false };
  const display = displays.find((d) => d.id === saved.displayId) ?? displayOf(saved.bounds, displays);
  if (display === undefined) return { bounds: centred(saved.bounds, primary.workArea), maximized: saved.maximized };
  const area = display.workArea;
  const width = clamp(saved.bounds.width, Math.min(MIN_WINDOW.width, area.width), area.width);
  const height = clamp(saved.bounds.height, Math.min(MIN_WINDOW.height, area.height), area.height);
  const x = clamp(saved.bounds.x, area.x, area.x + area.width - width);
  const y = clamp(saved.bounds.y, area.y, area.y + area.height - height);
  return { bounds: { x, y, width, height }, maximized: saved.maximized };
}

/** What to remember of a window as it closes: its normal bounds (not maximized ones) and its display. */
export function rememberWindow(normalBounds: Rect, maximized: boolean, displays: readonly DisplayArea[], primary: DisplayArea): SavedWindow {
  return { displayId: (displayOf(normalBounds, displays) ?? primary).id, bounds: normalBounds, maximized };
}

/** The window positions file (window-state.json in the user data folder). */
export class WindowStateFile {
  private windows: Record<string, SavedWindow>;

  constructor(private readonly path: string) {
    this.windows = WindowStateFile.read(path);
  }

  /**
   * A missing, broken or foreign file is no saved positions, never a failure to start; an entry it cannot use is
   * that window's alone, and the others keep their places.
   */
  private static read(path: string): Record<string, SavedWindow> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      return {};
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const usable = Object.entries(parsed).flatMap(([role, entry]) => {
      const saved = SavedWindowSchema.safeParse(entry);
      return saved.success && role.length <= MAX_ROLE_LENGTH ? [[role, saved.data] as const] : [];
    });
    return Object.fromEntries(usable.slice(-MAX_WINDOWS));
  }

  get(role: string): SavedWindow | undefined {
    return Object.hasOwn(this.windows, role) ? this.windows[role] : undefined;
  }

  /**
   * Written whole through a temporary file, so a crash mid-write leaves the previous file. Panels added and
   * popped out over months each have a role; only the most recently closed MAX_WINDOWS are kept. Called as a
   * window closes: a file that cannot be written (a full disk, a read-only folder) keeps the position for this
   * run only, rather than throw inside the close and leave the window half closed.
   */
  set(role: string, saved: SavedWindow): void {
    // A window that reports no size (minimized, on some Linux window managers) keeps the place saved before.
    if (!SavedWindowSchema.safeParse(saved).success || role.length > MAX_ROLE_LENGTH) return;
    const others = Object.entries(this.windows).filter(([name]) => name !== role);
    this.windows = Object.fromEntries([...others.slice(-(MAX_WINDOWS - 1)), [role, saved]]);
    const temporary = `${this.path}.tmp`;
    try {
      writeFileSync(temporary, JSON.stringify(this.windows, null, 2));
      renameSync(temporary, this.path);
    } catch {
      return;
    }
  }
}

/** What tracking needs of a window (Electron's BrowserWindow has more). */
export interface TrackedWindow {
  on(event: 'close' | 'closed', listener: () => void): unknown;
}

/**
 * Every open window by its role, so its place is saved as it closes and at quit. Electron destroys an opener's
 * windows with it, without a 'close' of their own: the workspace's close saves every popped-out panel too, or
 * closing the app by the workspace's close button (the usual way off macOS) lost where they all were.
 */
export class OpenWindows<W extends TrackedWindow> {
  private readonly roles = new Map<W, string>();

  constructor(
    private readonly mainRole: string,
    private readonly save: (window: W, role: string) => void,
  ) {}

  track(window: W, role: string): void {
    this.roles.set(window, role);
    window.on('close', () => (role === this.mainRole ? this.saveAll() : this.save(window, role)));
    window.on('closed', () => this.roles.delete(window));
  }

  saveAll(): void {
    for (const [window, role] of this.roles) this.save(window, role);
  }
}
