/**
 * The WebSocket auth signatures the venue has taken, each with the timestamp it signs, for as long as that
 * timestamp could still pass the auth window: a captured auth frame cannot sign in again. Kept in the store's
 * meta (one value, rewritten by the commit after each auth), so a restart does not open a window in which every
 * signature used before it works again.
 *
 * A signature is the key's HMAC of `<key>,<timestamp>` (whole seconds), so a key has at most one signature a
 * second: the set holds at most about three windows' seconds per key that signed in.
 */
export const USED_SIGNATURES_META_KEY = 'ws_auth_used_signatures';

export class UsedSignatures {
  /** Signature -> the UNIX second it signs. */
  private readonly used = new Map<string, number>();
  private changed = false;

  /**
   * From the meta value a previous run wrote. A value that does not read (written by hand, say) is dropped
   * rather than refuse the folder: it costs only the replay protection of the signatures it held.
   */
  static restore(text: string | undefined): UsedSignatures {
    const signatures = new UsedSignatures();
    if (text === undefined) return signatures;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return signatures;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return signatures;
    for (const [signature, timestamp] of Object.entries(value)) {
      if (Number.isSafeInteger(timestamp)) signatures.used.set(signature, timestamp as number);
    }
    return signatures;
  }

  has(signature: string): boolean {
    return this.used.has(signature);
  }

  add(signature: string, timestamp: number): void {
    this.used.set(signature, timestamp);
    this.changed = true;
  }

  /** Forgets the signatures of timestamps before `oldest`, which the auth window refuses anyway. */
  forgetBefore(oldest: number): void {
    for (const [signature, timestamp] of this.used) {
      if (timestamp >= oldest) continue;
      this.used.delete(signature);
      this.changed = true;
    }
  }

  /** The meta value to commit, if the set changed since the last call. */
  takeChange(): string | undefined {
    if (!this.changed) return undefined;
    this.changed = false;
    return JSON.stringify(Object.fromEntries(this.used));
  }
}
