/**
 * The only code that touches window.nova (ARCHITECTURE rule 3): features call `call` and `on`. In the Electron
 * app the preload put `window.nova` there; in browser mode there is none and the same bridge is built over the
 * desk's WebSocket. Features cannot tell which they have.
 */
import { parseEvent, type BridgeErrorBody, type BridgeErrorIssue, type EventName, type EventPayload, type MethodName, type Request, type Response, type Session, type SessionRead } from '../../src-shared/ipc/contract';
import type { NovaBridge } from './nova';
import { webTransport, type LinkState } from './web-transport';

declare global {
  interface Window {
    nova?: NovaBridge;
  }
}

export type { NovaBridge } from './nova';

export class BridgeError extends Error {
  constructor(
    readonly ref: string,
    message: string,
    /** A request refused for its shape: each field refused, by its path, so a form puts it beside its box. */
    readonly issues: readonly BridgeErrorIssue[] = [],
    /** A read of the account's own data refused: the session it was tried on (SESSION_READS). */
    readonly session?: Session,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

/** The error a refused call throws, from the answer's error as the desk sent it. */
export function bridgeErrorOf(error: BridgeErrorBody, session?: Session): BridgeError {
  return new BridgeError(error.ref, error.message, error.issues ?? [], session);
}

/** The error a failed call threw, as the bridge's refusal; anything else as an internal error, its words kept. */
export function refusalOf(err: unknown): BridgeError {
  return err instanceof BridgeError ? err : new BridgeError('E0901_InternalError', err instanceof Error ? err.message : String(err));
}

let bridge: NovaBridge | undefined;
const linkListeners = new Set<(state: LinkState) => void>();

function nova(): NovaBridge {
  if (bridge !== undefined) return bridge;
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  bridge = window.nova ?? webTransport(`${scheme}//${window.location.host}/bridge`, (state) => linkListeners.forEach((listen) => listen(state)));
  return bridge;
}

/**
 * Told when browser mode's link to the desk is lost and when it is back (web-transport.ts); an Electron window's
 * IPC has no link to lose, and is never told. The result stops listening.
 */
export function onBridgeLink(listener: (state: LinkState) => void): () => void {
  linkListeners.add(listener);
  return () => void linkListeners.delete(listener);
}

async function answer<M extends MethodName>(method: M, request: Request<M>): Promise<{ value: Response<M>; session?: Session }> {
  const result = await nova()[method](request as never);
  if (!result.ok) throw bridgeErrorOf(result.error, result.session);
  return result as { value: Response<M>; session?: Session };
}

export async function call<M extends MethodName>(method: M, request: Request<M>): Promise<Response<M>> {
  return (await answer(method, request)).value;
}

/** A read of the account's own data, with the session the desk read it on (SESSION_READS). */
export function callOnSession<M extends SessionRead>(method: M, request: Request<M>): Promise<{ value: Response<M>; session?: Session }> {
  return answer(method, request);
}

/** Listen to one of the desk's events (each arrives at most once a frame); the result stops listening. */
export function on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
  return nova().on(name, (payload: unknown) => {
    const event = parseEvent(name, payload);
    // Dropped, said where a developer looks: taken, a malformed event would break the store every panel reads.
    if (!event.ok) return console.error(`nova: dropped a malformed event (${event.reason})`);
    listener(event.payload);
  });
}
