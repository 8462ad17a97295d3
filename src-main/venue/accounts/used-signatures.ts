/**
 * The WebSocket auth signatures the venue has taken, each under its key with the timestamp it signs, for as long
 * as that timestamp could still pass the auth window: a captured auth frame cannot sign in again. Kept in the
 * store's meta, one value a key, so a restart does not open a window in which every signature used before it
 * works again.
 *
 * A signature is the key's HMAC of `<key>,<timestamp>` (whole seconds), so a key has at most one good signature a
 * second, and at most about three windows' seconds of them are kept (see forgetBefore): a commit writes the keys
 * that signed in since the last one, each a few kilobytes at most, however many keys the venue has. One value for
 * every key was rewritten whole by each auth's commit, which a client with many keys could make megabytes.
 */
export const USED_SIGNATURES_META_PREFIX = 'ws_auth_used:';

export class UsedSignatures {
  /** API key -> the UNIX second signed -> the signature. */
  private readonly byKey = new Map<string, Map<number, string>>();
  private readonly changed = new Set<string>();

  /**
   * From the meta a previous run wrote. A value that does not read (written by hand, say) is dropped rather than
   * refuse the folder: it costs only the replay protection of the signatures it held.
   */
  static restore(meta: Readonly<Record<string, string>>): UsedSignatures {
    const signatures = new UsedSignatures();
    for (const [name, text] of Object.entries(meta)) {
      if (!name.startsWith(USED_SIGNATURES_META_PREFIX)) continue;
      const used = new Map<number, string>();
      for (const [timestamp, signature] of entriesOf(text)) used.set(timestamp, signature);
      if (used.size > 0) signatures.byKey.set(name.slice(USED_SIGNATURES_META_PREFIX.length), used);
    }
    return signatures;
  }

  has(apiKey: string, timestamp: number, signature: string): boolean {
    return this.byKey.get(apiKey)?.get(timestamp) === signature;
  }

  add(apiKey: string, timestamp: number, signature: string): void {
    const used = this.byKey.get(apiKey) ?? new Map<number, string>();
    this.byKey.set(apiKey, used);
    used.set(timestamp, signature);
    this.changed.add(apiKey);
  }

  /** Forgets the key's signatures of timestamps before `oldest`, which the auth window refuses anyway. */
  forgetBefore(apiKey: string, oldest: number): void {
    const used = this.byKey.get(apiKey);
    if (used === undefined) return;
    for (const timestamp of used.keys()) {
      if (timestamp >= oldest) continue;
      used.delete(timestamp);
      this.changed.add(apiKey);
    }
    if (used.size === 0) this.byKey.delete(apiKey);
  }

  /** The meta values to commit: those of the keys whose signatures changed since the last call. */
  takeChanges(): Record<string, string> | undefined {
    if (this.changed.size === 0) return undefined;
    const meta: Record<string, string> = {};
    for (const apiKey of this.changed) {
      meta[USED_SIGNATURES_META_PREFIX + apiKey] = JSON.stringify(Object.fromEntries(this.byKey.get(apiKey) ?? []));
    }
    this.changed.clear();
    return meta;
  }
}

function entriesOf(text: string): [number, string][] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const entries: [number, string][] = [];
  for (const [second, signature] of Object.entries(value)) {
    const timestamp = Number(second);
    if (/^\d+$/.test(second) && Number.isSafeInteger(timestamp) && typeof signature === 'string') entries.push([timestamp, signature]);
  }
  return entries;
}
