/**
 * One call across the bridge, whatever carried it (Electron IPC or browser mode's WebSocket): the method name
 * and the request arrive as unknown and are parsed with the contract's schemas; the service's answer is parsed
 * with the response schema too, which drops any field the contract does not name. Every outcome is a Result:
 * a window never sees a thrown Error, and no error text leaves without the desk's secrets scrubbed from it.
 */
import type { BridgeErrorBody, MethodName, Result } from '../../src-shared/ipc/contract';
import { contract, describeIssues, isSessionRead, issuesOf, Session } from '../../src-shared/ipc/contract';
import type { z } from 'zod';
import { bridgeError, toBridgeError } from './desk-error';
import type { BridgeCaller, DeskServices } from './services';

/**
 * A session read's failure, with the session it was tried on (Desk.onSession): a refusal met as the desk switched
 * ("no API key for Development") is another session's, and a window that has not heard of the switch drops it as
 * it drops an answer of another session, instead of showing it under the environment it still shows.
 */
export class SessionReadFailure extends Error {
  constructor(
    readonly session: Session,
    readonly failure: unknown,
  ) {
    super(failure instanceof Error ? failure.message : String(failure));
    this.name = 'SessionReadFailure';
  }
}

const identity = (text: string): string => text;
/** A caller that names no window: tests and single-window uses. */
const ONLY_WINDOW: BridgeCaller = { window: 'only' };

export async function dispatch(
  services: DeskServices,
  method: unknown,
  request: unknown,
  scrub: (text: string) => string = identity,
  caller: BridgeCaller = ONLY_WINDOW,
): Promise<Result<unknown>> {
  if (typeof method !== 'string' || !Object.hasOwn(contract, method)) {
    return { ok: false, error: bridgeError('E0101_InvalidArgument', `unknown bridge method ${JSON.stringify(String(method)).slice(0, 80)}`) };
  }
  const name = method as MethodName;
  const entry = contract[name];
  try {
    // A call without a request is a call with an empty one; null or any other non-object is refused below.
    const parsed = entry.request.safeParse(request === undefined ? {} : request);
    if (!parsed.success) {
      const issues = issuesOf(parsed.error).map((i) => ({ path: scrub(i.path), message: scrub(i.message) }));
      return { ok: false, error: { ...bridgeError('E0101_InvalidArgument', scrub(describeIssues(name, issues))), issues } };
    }
    const service = services[name] as (request: unknown, caller: BridgeCaller) => unknown;
    const answer = await service(parsed.data, caller);
    // A session read's answer comes with the session it was read on, which the window is told beside the value.
    const { value, session } = isSessionRead(name) ? (answer as { value: unknown; session: unknown }) : { value: answer, session: undefined };
    const checked = entry.response.safeParse(value);
    if (!checked.success) return { ok: false, error: brokeContract(name, checked.error, scrub) };
    if (session === undefined) return { ok: true, value: checked.data };
    // Parsed as the value is: a field the contract does not name never crosses.
    const read = Session.safeParse(session);
    if (!read.success) return { ok: false, error: brokeContract(name, read.error, scrub) };
    return { ok: true, value: checked.data, session: read.data };
  } catch (err) {
    if (!(err instanceof SessionReadFailure)) return { ok: false, error: toBridgeError(err, scrub) };
    const read = Session.safeParse(err.session);
    const error = toBridgeError(err.failure, scrub);
    return read.success ? { ok: false, error, session: read.data } : { ok: false, error };
  }
}

function brokeContract(name: MethodName, error: z.ZodError, scrub: (text: string) => string): BridgeErrorBody {
  return bridgeError('E0901_InternalError', scrub(`${name}: the desk's answer broke the contract (${describeIssues(name, issuesOf(error))})`));
}
