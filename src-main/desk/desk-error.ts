// How a failure leaves main: a catalogue reference and a message that starts with it, in the API's format, so a
// window explains a desk refusal exactly as it explains a venue's. Nothing here may quote a secret; the caller's
// scrub removes any the desk has handled, in case a library's message quoted one.
import type { BridgeErrorBody } from '../../src-shared/ipc/contract';
import { ApiError } from '../../src-shared/errors/api-error';
import type { AnyErrorRef } from '../../src-shared/errors/catalogue';
import { OutcomeUnknownError, VenueError, VenueProtocolError, VenueUnreachableError } from '../connection/venue-error';
import { SecretStoreError } from '../secrets';

/** A refusal by the desk itself (not the venue's): bad state, an unconfigured environment, an unknown key. */
export class DeskError extends Error {
  constructor(
    readonly ref: AnyErrorRef,
    readonly description: string,
  ) {
    super(`${ref}: ${description}`);
    this.name = 'DeskError';
  }
}

export function bridgeError(ref: string, description: string): BridgeErrorBody {
  return { ref, message: `${ref}: ${description}` };
}

export function toBridgeError(err: unknown, scrub: (text: string) => string): BridgeErrorBody {
  if (err instanceof DeskError) return bridgeError(err.ref, scrub(err.description));
  if (err instanceof VenueError || err instanceof ApiError) return bridgeError(err.ref, scrub(err.description));
  if (err instanceof OutcomeUnknownError || err instanceof VenueUnreachableError) {
    return bridgeError('E0902_ServiceUnavailable', scrub(err.message));
  }
  // The trader's own keychain (locked, not running), wherever the desk met it: never the venue's failure.
  if (err instanceof SecretStoreError) return bridgeError('E0801_KeychainUnavailable', scrub(err.message));
  if (err instanceof VenueProtocolError) return bridgeError('E0901_InternalError', scrub(err.message));
  return bridgeError('E0901_InternalError', scrub(err instanceof Error ? err.message : 'internal error'));
}
