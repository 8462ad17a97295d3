// The only code that touches window.nova (ARCHITECTURE rule 3): features call these typed functions.
import type { MethodName, Request, Response, Result } from '../../src-shared/ipc/contract';

type NovaBridge = { [M in MethodName]: (request: Request<M>) => Promise<Result<Response<M>>> };

declare global {
  interface Window {
    nova?: NovaBridge;
  }
}

export class BridgeError extends Error {
  constructor(
    readonly ref: string,
    message: string,
  ) {
    super(message);
  }
}

export async function call<M extends MethodName>(method: M, request: Request<M>): Promise<Response<M>> {
  const nova = window.nova;
  if (nova === undefined) throw new BridgeError('E0901_InternalError', 'the desk bridge is not available in this window');
  const result = await nova[method](request);
  if (!result.ok) throw new BridgeError(result.error.ref, result.error.message);
  return result.value;
}
