// The bridge as a window meets it for one method: the desk's real dispatcher (its parsing and refusals, issues
// and all), in front of a desk that answers with `handle`, and each request that got through kept in `sent`.
import { dispatch } from '../../../src-main/desk/dispatch';
import type { DeskServices } from '../../../src-main/desk/services';
import type { MethodName, Request, Response } from '../../../src-shared/ipc/contract';
import { bridgeErrorOf } from '../../../src-renderer/bridge';

export interface DispatchingBridge<M extends MethodName> {
  send: (method: M, request: Request<M>) => Promise<Response<M>>;
  sent: unknown[];
}

export function dispatchingBridge<M extends MethodName>(method: M, handle: (request: Request<M>) => Response<M>): DispatchingBridge<M> {
  const sent: unknown[] = [];
  const services = {
    [method]: (request: Request<M>) => {
      sent.push(request);
      return handle(request);
    },
  } as unknown as DeskServices;
  return {
    sent,
    send: async (name, request) => {
      const result = await dispatch(services, name, request);
      if (!result.ok) throw bridgeErrorOf(result.error);
      return result.value as Response<M>;
    },
  };
}
