/**
 * Browser mode's bridge: the same NovaBridge as Electron's preload gives, over the desk's loopback WebSocket
 * (/bridge, let in by the session cookie the one-time token was exchanged for). Frames are described in
 * src-main/web/bridge-protocol.ts. A lost connection fails the calls in flight with E0902 and is dialled again
 * on the next call, so a desk restarted under the same session answers again.
 */
import type { Result } from '../../src-shared/ipc/contract';
import { EVENT_NAMES, METHOD_NAMES, type EventName } from '../../src-shared/ipc/methods';
import type { NovaBridge } from './nova';

type Listener = (payload: unknown) => void;

function unavailable(reason: string): Result<never> {
  return { ok: false, error: { ref: 'E0902_ServiceUnavailable', message: `E0902_ServiceUnavailable: ${reason}` } };
}

/**
 * What becomes of the link: 'lost' when an open connection closes, 'back' when one opens after that. The desk takes
 * each connection for a window of its own: one dialled again watches nothing, and the events sent while there was
 * none are gone, so the window has to watch and read again (feed.ts).
 */
export type LinkState = 'lost' | 'back';

export function webTransport(address: string, onLink: (state: LinkState) => void = () => undefined): NovaBridge {
  let socket: WebSocket | undefined;
  /** An open connection closed, and none has opened since. */
  let lost = false;
  let opened: Promise<WebSocket> | undefined;
  let nextId = 1;
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<string, Set<Listener>>();

  const connect = (): Promise<WebSocket> => {
    opened ??= new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(address);
      ws.onopen = () => {
        socket = ws;
        resolve(ws);
        if (lost) {
          lost = false;
          onLink('back');
        }
      };
      ws.onmessage = (message: MessageEvent) => receive(message.data);
      ws.onclose = () => {
        const wasOpen = socket === ws;
        socket = undefined;
        opened = undefined;
        reject(new Error('the desk closed the connection'));
        for (const [id, settle] of pending) {
          pending.delete(id);
          settle(unavailable('the connection to the desk was lost; the outcome is unknown'));
        }
        if (wasOpen && !lost) {
          lost = true;
          onLink('lost');
        }
      };
    });
    return opened;
  };

  const receive = (data: unknown): void => {
    if (typeof data !== 'string') return;
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof frame !== 'object' || frame === null) return;
    const f = frame as { type?: unknown; id?: unknown; result?: unknown; name?: unknown; payload?: unknown };
    if (f.type === 'result' && typeof f.id === 'number') {
      const settle = pending.get(f.id);
      pending.delete(f.id);
      settle?.(f.result as Result<unknown>);
    } else if (f.type === 'event' && typeof f.name === 'string') {
      for (const listener of listeners.get(f.name) ?? []) listener(f.payload);
    }
  };

  const call = async (method: string, request: unknown): Promise<Result<unknown>> => {
    let ws: WebSocket;
    try {
      ws = socket ?? (await connect());
    } catch {
      return unavailable('the desk cannot be reached');
    }
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      ws.send(JSON.stringify(request === undefined ? { id, method } : { id, method, request }));
    });
  };

  const methods = Object.fromEntries(METHOD_NAMES.map((method) => [method, (request?: unknown) => call(method, request)]));
  const on = (name: EventName, listener: Listener): (() => void) => {
    if (!(EVENT_NAMES as readonly string[]).includes(name)) throw new TypeError(`nova.on: unknown event ${name}`);
    let set = listeners.get(name);
    if (set === undefined) listeners.set(name, (set = new Set()));
    set.add(listener);
    // Events flow once the socket is open; a window that only listens opens it too.
    if (socket === undefined) void connect().catch(() => undefined);
    return () => {
      set.delete(listener);
    };
  };
  return { ...methods, on } as unknown as NovaBridge;
}
