/**
 * Events from the desk to its windows. The desk fires each change once on the hub; every window (an Electron
 * window, a browser-mode connection) listens through its own FrameCoalescer, which holds what arrived since the
 * last frame and hands it on at most once a frame: the latest whole book and ticker per product, orders merged
 * by id, trades appended. A book that changes a thousand times a second therefore reaches a window sixty times
 * a second, and what reaches it is always a complete book as it stood, never a diff it could apply out of turn.
 */
import type { EventName, EventPayload } from '../../src-shared/ipc/contract';
import type { Order } from '../../src-shared/protocol/records';
import { Emitter, toDisposable, type Disposable, type Event } from '../connection/events';

export type DeskEvent = { [E in EventName]: { readonly name: E; readonly payload: EventPayload<E> } }[EventName];

export class DeskEvents implements Disposable {
  private readonly _onDidEmit = new Emitter<DeskEvent>();
  readonly onDidEmit: Event<DeskEvent> = this._onDidEmit.event;

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    this._onDidEmit.fire({ name, payload } as DeskEvent);
  }

  dispose(): void {
    this._onDidEmit.dispose();
  }
}

/** ~60 a second, a display's frame. */
export const FRAME_MS = 16;
/** A window that missed a burst of trades needs the tape's recent end, not all of it. */
const MAX_TRADES_PER_FRAME = 500;

/** Runs `flush` once, a frame from now; the result cancels it. */
export type FrameScheduler = (flush: () => void) => () => void;

export const timerFrames: FrameScheduler = (flush) => {
  const timer = setTimeout(flush, FRAME_MS);
  return () => clearTimeout(timer);
};

export class FrameCoalescer implements Disposable {
  /** Keyed by what a newer event replaces; Map order keeps the order in which kinds first changed. */
  private pending = new Map<string, DeskEvent>();
  private cancelFrame: (() => void) | undefined;
  /** The environment and key of the last status taken: a new one is a change of session. */
  private session: string | undefined;
  private readonly subscription: Disposable;
  private disposed = false;

  constructor(
    source: Event<DeskEvent>,
    private readonly deliver: (event: DeskEvent) => void,
    private readonly frames: FrameScheduler = timerFrames,
  ) {
    this.subscription = source((event) => this.take(event));
  }

  private take(event: DeskEvent): void {
    if (this.disposed) return;
    switch (event.name) {
      case 'orders.changed': {
        const held = this.pending.get('orders');
        const merged = new Map<string, Order>();
        if (held?.name === 'orders.changed') for (const order of held.payload) merged.set(order.order_id, order);
        for (const order of event.payload) merged.set(order.order_id, order);
        this.pending.set('orders', { name: 'orders.changed', payload: [...merged.values()] });
        break;
      }
      case 'trades.received': {
        const key = `trades:${event.payload.productId}`;
        const held = this.pending.get(key);
        // Appended as they come, repeats too (the stream's copy of a trade and a read's): the window's store is the
        // one place that keeps each trade once (addTrades).
        const trades = held?.name === 'trades.received' ? [...held.payload.trades, ...event.payload.trades] : [...event.payload.trades];
        // The tape's doubt is as the last event says: it stands for the tape now, not for the trades before it.
        this.pending.set(key, { name: 'trades.received', payload: { ...event.payload, trades: trades.slice(-MAX_TRADES_PER_FRAME) } });
        break;
      }
      case 'book.changed':
      case 'ticker.changed':
      case 'candles.changed':
        this.pending.set(`${event.name}:${event.payload.productId}`, event);
        break;
      case 'connection.changed': {
        // A change of session (another environment or key) clears what the window shows: whatever the old session
        // sent before it goes out first, or a batch kept in first-arrival order would land the old environment's
        // trades and book after the change, on the new one's tape and ladder. A status of the same session (a
        // latency measured) waits for the frame like the rest.
        const session = `${event.payload.environment}/${event.payload.apiKey ?? ''}`;
        if (session !== this.session && this.pending.size > 0) {
          this.cancelFrame?.();
          this.flush();
        }
        this.session = session;
        this.pending.set(event.name, event);
        break;
      }
      case 'environments.changed':
      case 'account.changed':
        this.pending.set(event.name, event);
        break;
    }
    this.cancelFrame ??= this.frames(() => this.flush());
  }

  private flush(): void {
    this.cancelFrame = undefined;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    for (const event of batch) this.deliver(event);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.subscription.dispose();
    this.cancelFrame?.();
    this.pending.clear();
  }
}

export { toDisposable };
