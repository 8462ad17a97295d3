// The shape of `window.nova`, whichever transport provides it: Electron's preload or browser mode's WebSocket.
import type { EventName, EventPayload, MethodName, Request, Response, Result } from '../../src-shared/ipc/contract';

export type NovaMethods = { [M in MethodName]: (request?: Request<M>) => Promise<Result<Response<M>>> };

export interface NovaBridge extends NovaMethods {
  /** Listen to one event; the result stops listening. */
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
}
