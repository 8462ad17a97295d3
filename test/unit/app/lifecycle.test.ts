// One instance at a time, and a shutdown that saves, stops taking calls, then stops the venue (which flushes its
// store) before the app exits, whatever asks it to quit and however often.
import { describe, expect, it } from 'vitest';
import { QuitGate, runShutdown, shutdownSteps, VENUE_STOP_DEADLINE_MS } from '../../../src-main/app/shutdown';
import { bringToFront, claimSingleInstance, relaunchOptions, type RestorableWindow } from '../../../src-main/app/single-instance';

function windowThat(state: { minimized: boolean; visible: boolean; destroyed?: boolean }): { window: RestorableWindow; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    window: {
      isDestroyed: () => state.destroyed === true,
      isMinimized: () => state.minimized,
      restore: () => void calls.push('restore'),
      isVisible: () => state.visible,
      show: () => void calls.push('show'),
      focus: () => void calls.push('focus'),
    },
  };
}

describe('single instance', () => {
  it('goes on when it holds the lock, and quits when another instance does', () => {
    const quits: string[] = [];
    expect(claimSingleInstance({ requestSingleInstanceLock: () => true, quit: () => void quits.push('quit') })).toBe(true);
    expect(quits).toEqual([]);
    expect(claimSingleInstance({ requestSingleInstanceLock: () => false, quit: () => void quits.push('quit') })).toBe(false);
    expect(quits).toEqual(['quit']);
  });

  it('brings the first window back when a second launch hands over', () => {
    const minimized = windowThat({ minimized: true, visible: true });
    bringToFront(minimized.window);
    expect(minimized.calls).toEqual(['restore', 'focus']);

    const hidden = windowThat({ minimized: false, visible: false });
    bringToFront(hidden.window);
    expect(hidden.calls).toEqual(['show', 'focus']);

    const gone = windowThat({ minimized: true, visible: false, destroyed: true });
    bringToFront(gone.window);
    bringToFront(undefined);
    expect(gone.calls).toEqual([]);
  });
});

describe('starting again after a shutdown', () => {
  it('starts an AppImage from its image, whose mount (process.execPath) is gone once the app exits', () => {
    const argv = ['/tmp/.mount_NovaDeXYZ/nova-desk', '--some-flag'];
    expect(relaunchOptions({ APPIMAGE: '/home/t/Apps/Nova-Desk.AppImage' }, argv)).toEqual({ execPath: '/home/t/Apps/Nova-Desk.AppImage', args: ['--some-flag'] });
    // Anything else starts as it was started.
    expect(relaunchOptions({}, argv)).toBeUndefined();
    expect(relaunchOptions({ APPIMAGE: '' }, argv)).toBeUndefined();
  });
});

describe('shutdown', () => {
  it('saves windows, clears a copied secret, stops the bridge, then closes the desk and its venue, in that order', async () => {
    const done: string[] = [];
    const steps = shutdownSteps({
      saveWindows: () => void done.push('windows saved'),
      clearClipboard: () => void done.push('clipboard cleared'),
      stopBridge: () => void done.push('bridge stopped'),
      closeDesk: async () => {
        await Promise.resolve();
        done.push('desk closed, venue stopped and flushed');
      },
    });
    expect(steps.map((s) => s.name)).toEqual([
      'save window positions',
      'clear a copied secret from the clipboard',
      'stop the bridge',
      'close the desk and stop the embedded venue',
    ]);
    expect(steps.at(-1)?.deadlineMs).toBe(VENUE_STOP_DEADLINE_MS);
    await runShutdown(steps, () => undefined);
    expect(done).toEqual(['windows saved', 'clipboard cleared', 'bridge stopped', 'desk closed, venue stopped and flushed']);
  });

  it('goes on past a step that fails or hangs, and says which', async () => {
    const done: string[] = [];
    const failures: string[] = [];
    await runShutdown(
      [
        { name: 'breaks', run: () => { throw new Error('no windows'); } },
        { name: 'hangs', run: () => new Promise<void>(() => undefined), deadlineMs: 1 },
        { name: 'last', run: () => void done.push('last') },
      ],
      (step) => failures.push(step),
    );
    expect(failures).toEqual(['breaks', 'hangs']);
    expect(done).toEqual(['last']);
  });

  it('brings the app to the front for a second launch, or starts it again once a shutdown under way is done', () => {
    const gate = new QuitGate();
    expect(gate.secondInstance()).toBe('bring-to-front');
    expect(gate.beforeQuit()).toBe('shut-down');
    expect(gate.relaunchAfterStop()).toBe(false);
    // The launch found this instance still holding the lock and quit: without a relaunch the trader gets nothing.
    expect(gate.secondInstance()).toBe('relaunch-after-stop');
    gate.stopped();
    expect(gate.relaunchAfterStop()).toBe(true);
  });

  it('holds every quit until the shutdown is done, then lets the last one through', () => {
    const gate = new QuitGate();
    expect(gate.quitting).toBe(false);
    expect(gate.beforeQuit()).toBe('shut-down');
    // A desk that fails to open from now on is the app stopping: no "could not start" box.
    expect(gate.quitting).toBe(true);
    expect(gate.beforeQuit()).toBe('hold');
    expect(gate.beforeQuit()).toBe('hold');
    gate.stopped();
    expect(gate.beforeQuit()).toBe('quit');
  });
});
