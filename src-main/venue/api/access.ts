/**
 * Who may call a route: anyone (a route without these options), a key that may read or trade, or the venue
 * admin's key. The HTTP API checks it when a request arrives, before its body is read, so a caller without
 * credentials or scope hears that (401, 403) rather than what was wrong with a body it could not have sent.
 */
import type { Scope } from '../accounts/key-ring';

export type Access = Scope | 'admin-read' | 'admin-trade';

export interface AccessOptions {
  config: { access: Access };
}

export function access(who: Access): AccessOptions {
  return { config: { access: who } };
}

/** The access a route's options named, if any. */
export function accessOf(config: unknown): Access | undefined {
  return (config as Partial<AccessOptions['config']> | undefined)?.access;
}
