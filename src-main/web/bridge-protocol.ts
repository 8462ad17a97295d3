/**
 * Browser mode's frames on the /bridge WebSocket: the same contract as Electron IPC, in JSON.
 *   window → desk: { id, method, request }            one bridge call
 *   desk → window: { type: 'result', id, result }     its Result, with the call's id
 *                  { type: 'event', name, payload }   a coalesced event, as Electron's windows get them
 */
import { z } from 'zod';

export const BRIDGE_PATH = '/bridge';
export const SESSION_COOKIE = 'nova_desk_session';
/** A layout is at most 256 KiB; anything much bigger is not a bridge call. */
export const MAX_FRAME_BYTES = 1024 * 1024;

export const CallFrame = z.strictObject({
  id: z.union([z.int().nonnegative(), z.string().max(64)]),
  method: z.string().max(64),
  request: z.unknown().optional(),
});
export type CallFrame = z.infer<typeof CallFrame>;
