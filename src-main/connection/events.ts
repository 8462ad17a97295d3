/**
 * Typed events and disposables in the VS Code style: a class keeps a private Emitter and exposes its `event`;
 * whoever listens gets a Disposable, and whoever owns listeners, sockets or timers keeps them in a
 * DisposableStore so one dispose() releases them all.
 */

export interface Disposable {
  dispose(): void;
}

/** Subscribe with a listener; dispose the result to stop listening. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

export function toDisposable(dispose: () => void): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    // Something added after dispose would otherwise leak (a timer started by a late callback).
    if (this.disposed) item.dispose();
    else this.items.add(item);
    return item;
  }

  /** Forgets an item that ended on its own (a timer that fired), without disposing it. */
  delete(item: Disposable): void {
    this.items.delete(item);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of [...this.items]) item.dispose();
    this.items.clear();
  }
}

export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    // Wrapped so that the same function subscribed twice is two subscriptions, each disposable on its own.
    const entry = (value: T): void => listener(value);
    this.listeners.add(entry);
    return toDisposable(() => this.listeners.delete(entry));
  };

  /**
   * Every listener runs even when one throws: one window's broken handler must not starve the others of an
   * order update; the failure is still reported.
   */
  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        console.error('an event listener failed:', err);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}

/** The next value `event` fires that satisfies `match`, as a promise. */
export function nextEvent<T>(event: Event<T>, match: (value: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const sub = event((value) => {
      if (!match(value)) return;
      sub.dispose();
      resolve(value);
    });
  });
}
