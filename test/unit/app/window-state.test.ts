// Window positions per display: back where they were while that display exists, on one that exists otherwise,
// never larger than the display and never off screen.
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { displayOf, MAX_WINDOWS, MIN_WINDOW, OpenWindows, placeWindow, rememberWindow, WindowStateFile, type DisplayArea, type Rect } from '../../../src-main/app/window-state';

const laptop: DisplayArea = { id: 1, workArea: { x: 0, y: 25, width: 1440, height: 875 } };
const monitor: DisplayArea = { id: 2, workArea: { x: 1440, y: 0, width: 2560, height: 1440 } };
const left: DisplayArea = { id: 3, workArea: { x: -1920, y: 0, width: 1920, height: 1080 } };
const size = { width: 1280, height: 800 };
const inside = (r: Rect, area: Rect): boolean => r.x >= area.x && r.y >= area.y && r.x + r.width <= area.x + area.width && r.y + r.height <= area.y + area.height;

describe('placing a window', () => {
  it('centres a first window on the primary display', () => {
    expect(placeWindow(undefined, [laptop, monitor], laptop, size)).toEqual({ bounds: { x: 80, y: 62, width: 1280, height: 800 }, maximized: false });
  });

  it('puts it back exactly where it was on a display that still exists', () => {
    const saved = { displayId: 2, bounds: { x: 2000, y: 100, width: 1600, height: 1000 }, maximized: true };
    expect(placeWindow(saved, [laptop, monitor], laptop, size)).toEqual({ bounds: saved.bounds, maximized: true });
    const onLeft = { displayId: 3, bounds: { x: -1800, y: 50, width: 1200, height: 900 }, maximized: false };
    expect(placeWindow(onLeft, [left, laptop], laptop, size).bounds).toEqual(onLeft.bounds);
  });

  it('pulls a window that hangs off its display back onto it, shrinking it to fit', () => {
    const saved = { displayId: 1, bounds: { x: 1000, y: 600, width: 1600, height: 1000 }, maximized: false };
    const { bounds } = placeWindow(saved, [laptop, monitor], laptop, size);
    expect(bounds).toEqual({ x: 0, y: 25, width: 1440, height: 875 });
  });

  it('moves a window from a display that is gone onto one that exists', () => {
    const onMonitor = { displayId: 2, bounds: { x: 2000, y: 100, width: 1600, height: 1000 }, maximized: false };
    const undocked = placeWindow(onMonitor, [laptop], laptop, size);
    expect(inside(undocked.bounds, laptop.workArea)).toBe(true);
    expect(undocked.bounds).toEqual({ x: 0, y: 25, width: 1440, height: 875 });

    // Same screens, new ids (another machine, a driver update): the display its bounds cover is used.
    const renumbered = placeWindow(onMonitor, [laptop, { ...monitor, id: 7 }], laptop, size);
    expect(renumbered.bounds).toEqual(onMonitor.bounds);
  });

  it('never makes a window smaller than usable when the display allows', () => {
    const tiny = { displayId: 1, bounds: { x: 100, y: 100, width: 50, height: 40 }, maximized: false };
    const { bounds } = placeWindow(tiny, [laptop], laptop, size);
    expect(bounds.width).toBe(MIN_WINDOW.width);
    expect(bounds.height).toBe(MIN_WINDOW.height);
  });

  it('remembers the display a window covers most', () => {
    expect(displayOf({ x: 1300, y: 100, width: 800, height: 600 }, [laptop, monitor])).toBe(monitor);
    expect(displayOf({ x: 9000, y: 9000, width: 10, height: 10 }, [laptop, monitor])).toBeUndefined();
    expect(rememberWindow({ x: 9000, y: 9000, width: 10, height: 10 }, false, [laptop, monitor], laptop).displayId).toBe(1);
  });
});

describe('the window positions file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nova-windows-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps each window by role across restarts', () => {
    const path = join(dir, 'window-state.json');
    const file = new WindowStateFile(path);
    expect(file.get('workspace')).toBeUndefined();
    file.set('workspace', { displayId: 2, bounds: { x: 1500, y: 10, width: 1200, height: 900 }, maximized: false });
    file.set('panel:ladder', { displayId: 1, bounds: { x: 10, y: 30, width: 700, height: 600 }, maximized: false });
    const again = new WindowStateFile(path);
    expect(again.get('workspace')?.displayId).toBe(2);
    expect(again.get('panel:ladder')?.bounds.width).toBe(700);
    expect(again.get('constructor')).toBeUndefined();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toHaveProperty('workspace');
  });

  it('keeps a position for this run when the file cannot be written, rather than throw as the window closes', () => {
    // A folder that is not there stands for a full disk or a read-only one: the write fails either way.
    const file = new WindowStateFile(join(dir, 'missing-folder', 'window-state.json'));
    expect(() => file.set('workspace', { displayId: 1, bounds: { x: 0, y: 0, width: 800, height: 600 }, maximized: false })).not.toThrow();
    expect(file.get('workspace')?.bounds.width).toBe(800);
  });

  it('keeps only the most recently closed windows', () => {
    const file = new WindowStateFile(join(dir, 'many.json'));
    const saved = { displayId: 1, bounds: { x: 0, y: 25, width: 700, height: 600 }, maximized: false };
    file.set('workspace', saved);
    for (let i = 0; i < MAX_WINDOWS; i++) file.set(`panel:tape-${i}`, saved);
    file.set('workspace', saved);
    const again = new WindowStateFile(join(dir, 'many.json'));
    expect(again.get('workspace')).toEqual(saved);
    expect(again.get('panel:tape-0')).toBeUndefined();
    expect(again.get(`panel:tape-${MAX_WINDOWS - 1}`)).toEqual(saved);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'many.json'), 'utf8')) as object)).toHaveLength(MAX_WINDOWS);
  });

  it('keeps the other windows when one entry is not a position it can use', () => {
    const path = join(dir, 'one-bad.json');
    const good = { displayId: 1, bounds: { x: 10, y: 30, width: 700, height: 600 }, maximized: false };
    // A window minimized on some Linux window managers reports no size.
    writeFileSync(path, JSON.stringify({ workspace: good, 'panel:tape': { ...good, bounds: { x: 0, y: 0, width: 0, height: 0 } } }));
    const file = new WindowStateFile(path);
    expect(file.get('workspace')).toEqual(good);
    expect(file.get('panel:tape')).toBeUndefined();
    // Nor does such a report replace the place saved before.
    file.set('workspace', { ...good, bounds: { x: 0, y: 0, width: 0, height: 0 } });
    expect(new WindowStateFile(path).get('workspace')).toEqual(good);
  });

  it('treats a broken or foreign file as no saved positions', () => {
    for (const text of ['{not json', JSON.stringify({ workspace: { bounds: 'left' } }), '[]']) {
      const path = join(dir, 'broken.json');
      writeFileSync(path, text);
      expect(new WindowStateFile(path).get('workspace')).toBeUndefined();
    }
  });
});

describe('the open windows', () => {
  const opened = () => {
    const saved: string[] = [];
    const windows = new OpenWindows<EventEmitter>('workspace', (_window, role) => void saved.push(role));
    const workspace = new EventEmitter();
    const ladder = new EventEmitter();
    const tape = new EventEmitter();
    windows.track(workspace, 'workspace');
    windows.track(ladder, 'panel:ladder');
    windows.track(tape, 'panel:tape');
    return { saved, windows, workspace, ladder, tape };
  };

  it('saves a popped-out panel as it closes, and forgets it once closed', () => {
    const { saved, windows, ladder } = opened();
    ladder.emit('close');
    ladder.emit('closed');
    expect(saved).toEqual(['panel:ladder']);
    saved.length = 0;
    windows.saveAll();
    expect(saved).toEqual(['workspace', 'panel:tape']);
  });

  it("saves every popped-out panel as the workspace closes: Electron destroys them with it, without a 'close' of their own", () => {
    const { saved, windows, workspace, ladder, tape } = opened();
    workspace.emit('close');
    expect(saved).toEqual(['workspace', 'panel:ladder', 'panel:tape']);
    for (const window of [ladder, tape, workspace]) window.emit('closed');
    saved.length = 0;
    windows.saveAll();
    expect(saved).toEqual([]);
  });
});
