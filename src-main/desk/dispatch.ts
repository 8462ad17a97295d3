import type { MethodName, Result } from '../../src-shared/ipc/contract';
import { contract } from '../../src-shared/ipc/contract';
import type { DeskServices } from './services';

function fail(ref: string, description: string): Result<never> {
  return { ok: false, error: { ref, message: `${ref}: ${description}` } };
}

/** Parse a bridge call from unknown input and run it; the same path serves Electron IPC and browser mode. */
export async function dispatch(services: DeskServices, method: unknown, request: unknown): Promise<Result<unknown>> {
  if (typeof method !== 'string' || !Object.hasOwn(contract, method)) {
    return fail('E0101_InvalidArgument', `unknown bridge method ${JSON.stringify(String(method)).slice(0, 80)}`);
  }
  const name = method as MethodName;
  const parsed = contract[name].request.safeParse(request ?? {});
  if (!parsed.success) {
    return fail('E0101_InvalidArgument', `${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'request'} ${i.message}`).join('; ')}`);
  }
  try {
    const value = await services[name](parsed.data);
    return { ok: true, value };
  } catch (err) {
    return fail('E0901_InternalError', err instanceof Error ? err.message : 'internal error');
  }
}
