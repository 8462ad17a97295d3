// A clean shutdown, in an order that loses nothing: window positions are saved while the windows exist, a
// secret copied from its dialog leaves the clipboard (its timer dies with the app), the bridge stops taking
// calls so no order is sent to a venue that is going away, the desk closes its venue sessions and then stops
// the embedded venue, whose worker lets requests in flight finish, flushes its store's last group commit and
// closes SQLite. Only then does the app exit. Pure: index.ts supplies the parts.
import { withinTime } from '../../src-shared/time-limit';

export interface ShutdownParts {
  saveWindows(): void;
  /** A secret the trader copied from its dialog: its clearing timer would die with the app. */
  clearClipboard(): void;
  stopBridge(): void;
  /** Desk.close(): sessions first, then the embedded venue (which flushes its store). */
  closeDesk(): Promise<void>;
}

export interface ShutdownStep {
  readonly name: string;
  run(): void | Promise<void>;
  /** Past this the app exits anyway: the store's journal makes an interrupted stop safe, a hung quit is not. */
  readonly deadlineMs?: number;
}

export const VENUE_STOP_DEADLINE_MS = 10_000;

export function shutdownSteps(parts: ShutdownParts): ShutdownStep[] {
  return [
    { name: 'save window positions', run: () => parts.saveWindows() },
    { name: 'clear a copied secret from the clipboard', run: () => parts.clearClipboard() },
    { name: 'stop the bridge', run: () => parts.stopBridge() },
    { name: 'close the desk and stop the embedded venue', run: () => parts.closeDesk(), deadlineMs: VENUE_STOP_DEADLINE_MS },
  ];
}

async function withDeadline(work: Promise<void>, ms: number | undefined, name: string): Promise<void> {
  if (ms === undefined) return work;
  if ((await withinTime(work, ms)) === 'overran') throw new Error(`${name}: still running after ${ms} ms`);
}

/** Every step in order, each awaited; one that fails or overruns is reported and the next runs all the same. */
export async function runShutdown(steps: readonly ShutdownStep[], report: (step: string, failure: unknown) => void): Promise<void> {
  for (const step of steps) {
    try {
      await withDeadline(Promise.resolve().then(() => step.run()), step.deadlineMs, step.name);
    } catch (err) {
      report(step.name, err);
    }
  }
}

/**
 * before-quit fires for every quit request (the menu, Cmd+Q, the last window closing, the OS logging out): the
 * first starts the shutdown and holds the quit; those during it are held too; the one the shutdown itself
 * makes when it is done goes through.
 */
export class QuitGate {
  private state: 'running' | 'stopping' | 'stopped' = 'running';
  private relaunch = false;

  /** 'shut-down': hold the quit and start shutting down; 'hold': hold it, shutdown is under way; 'quit': let it go. */
  beforeQuit(): 'shut-down' | 'hold' | 'quit' {
    switch (this.state) {
      case 'running':
        this.state = 'stopping';
        return 'shut-down';
      case 'stopping':
        return 'hold';
      case 'stopped':
        return 'quit';
    }
  }

  /** A quit was asked for: what fails from now on is the app stopping, not something to tell the trader. */
  get quitting(): boolean {
    return this.state !== 'running';
  }

  /** The shutdown is done: the next quit request exits. */
  stopped(): void {
    this.state = 'stopped';
  }

  /**
   * Another launch handed over to this instance (single-instance.ts). Running, this instance comes to the front;
   * shutting down, it still holds the lock the new launch quit for, so it starts the app again once stopped:
   * otherwise a trader who quit and at once opened the app again got no app at all.
   */
  secondInstance(): 'bring-to-front' | 'relaunch-after-stop' {
    if (this.state === 'running') return 'bring-to-front';
    this.relaunch = true;
    return 'relaunch-after-stop';
  }

  /** Whether the app starts again as it exits (asked once stopped). */
  relaunchAfterStop(): boolean {
    return this.relaunch;
  }
}

/**
 * The desk from the moment it starts opening: a quit that comes while its local venue is still starting waits
 * for it and closes it, rather than let the app exit over a venue half started (and its store mid-read).
 */
export class OpeningDesk<D extends { close(): Promise<void> }> {
  private opening: Promise<D | undefined> = Promise.resolve(undefined);
  private closing = false;

  /** The desk once open; undefined when the shutdown began meanwhile, which closes it (no window is opened on it). */
  async open(work: Promise<D>): Promise<D | undefined> {
    this.opening = work.catch(() => undefined);
    const desk = await work;
    return this.closing ? undefined : desk;
  }

  async close(): Promise<void> {
    this.closing = true;
    await (await this.opening)?.close();
  }
}
