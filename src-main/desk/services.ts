// What the windows may call, implemented under plain Node so it is tested without Electron (ARCHITECTURE rule 2).
import type { MethodName, Request, Response } from '../../src-shared/ipc/contract';

export type DeskServices = { [M in MethodName]: (request: Request<M>) => Promise<Response<M>> };
