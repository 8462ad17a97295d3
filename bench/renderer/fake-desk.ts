/**
 * The desk as the bench page's bridge sees it: `window.nova` answering the few calls the feed makes at start
 * and delivering events the bench emits. It stands where Electron's preload or browser mode's WebSocket
 * stands, so the real bridge, feed, store and panels run unchanged behind it.
 */
import type { EventName, EventPayload } from '../../src-shared/ipc/contract';
import type { NovaBridge } from '../../src-renderer/bridge/nova';

type Listener = (payload: unknown) => void;

export interface FakeDesk {
  bridge: NovaBridge;
  /** Delivers one event frame's JSON as the web transport would: parsed, then to every listener. */
  emit(name: EventName, json: string): void;
}

/** `book` answers market.watch; every other call the feed makes at start is refused, as an offline desk would. */
export function fakeDesk(book: () => unknown): FakeDesk {
  const listeners = new Map<string, Set<Listener>>();
  const answer = (method: string): unknown => {
    switch (method) {
      case 'market.watch':
        return book();
      case 'market.trades':
      case 'market.candles':
        return [];
      default:
        return undefined;
    }
  };
  const methods = new Proxy(
    {},
    {
      get: (_, method) =>
        typeof method !== 'string'
          ? undefined
          : () => {
              const value = answer(method);
              return Promise.resolve(
                value === undefined
                  ? { ok: false, error: { ref: 'E0902_ServiceUnavailable', message: `E0902_ServiceUnavailable: the bench desk does not answer ${method}` } }
                  : { ok: true, value },
              );
            },
    },
  );
  const bridge = Object.assign(Object.create(methods) as NovaBridge, {
    on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
      const set = listeners.get(name) ?? new Set<Listener>();
      listeners.set(name, set);
      set.add(listener as Listener);
      return () => set.delete(listener as Listener);
    },
  });
  return {
    bridge,
    emit(name, json) {
      const payload: unknown = JSON.parse(json);
      for (const listener of listeners.get(name) ?? []) listener(payload);
    },
  };
}
