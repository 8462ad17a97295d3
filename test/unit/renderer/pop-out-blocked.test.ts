/**
 * A browser that blocks pop-up windows answers window.open with null: the Pop out button then says so, and the
 * panel stays in the workspace, rather than the click seeming to do nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { popOut } from '../../../src-renderer/features/workspace/Workspace';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { DEFAULT_LAYOUT } from '../../../src-renderer/stores/layout-slice';

afterEach(() => vi.unstubAllGlobals());

function browserOpening(opened: Window | null): string[] {
  const asked: string[] = [];
  vi.stubGlobal('location', { pathname: '/' });
  vi.stubGlobal('window', { open: (url: string) => (asked.push(url), opened) });
  return asked;
}

describe('popping a panel out', () => {
  it('says the browser blocked the window, and keeps the panel in the workspace', () => {
    useDesk.setState({ layout: DEFAULT_LAYOUT, notices: [] });
    const asked = browserOpening(null);
    const tape = DEFAULT_LAYOUT.panels.find((p) => p.kind === 'tape');
    if (tape === undefined) throw new Error('the default layout has no tape');
    popOut(tape);
    expect(asked).toHaveLength(1);
    expect(useDesk.getState().layout.panels.find((p) => p.id === tape.id)?.poppedOut).toBeUndefined();
    expect(useDesk.getState().notices[0]).toMatchObject({ kind: 'error', title: 'Not popped out' });
    expect(useDesk.getState().notices[0]?.detail).toMatch(/did not open a window for Trades/);
  });

  it('marks the panel out once its window opened, saying nothing', () => {
    useDesk.setState({ layout: DEFAULT_LAYOUT, notices: [] });
    browserOpening({} as Window);
    popOut({ id: 'tape', kind: 'tape', width: 1, height: 1 });
    expect(useDesk.getState().layout.panels.find((p) => p.id === 'tape')?.poppedOut).toBe(true);
    expect(useDesk.getState().notices).toEqual([]);
  });
});
