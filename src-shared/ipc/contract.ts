/**
 * The bridge between windows and the main process: every method a window may call, with its request and
 * response schemas. The preload builds `window.nova` from this table and nothing else; main parses every call
 * against it (ARCHITECTURE rule 4).
 */
import { z } from 'zod';
import type { MethodName } from './methods';

export { IPC_CHANNEL, METHOD_NAMES, type MethodName } from './methods';

export const VenueStatus = z.object({
  state: z.enum(['starting', 'ready', 'stopped', 'failed']),
  baseUrl: z.string(),
  wsUrl: z.string(),
  simulate: z.boolean(),
  detail: z.string(),
});
export type VenueStatus = z.infer<typeof VenueStatus>;

export const contract = {
  'venue.status': { request: z.object({}).strict(), response: VenueStatus },
} as const satisfies Record<MethodName, { request: z.ZodType; response: z.ZodType }>;

export type Contract = typeof contract;
export type Request<M extends MethodName> = z.infer<Contract[M]['request']>;
export type Response<M extends MethodName> = z.infer<Contract[M]['response']>;

/** Every answer crosses the bridge in this shape, so a window never has to catch a thrown Error. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: { ref: string; message: string } };
