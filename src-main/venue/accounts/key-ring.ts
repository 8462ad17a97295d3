/**
 * API keys and their secrets. The venue never stores a secret: it stores SHA-256 of it and compares hashes in
 * constant time. WebSocket authentication is an HMAC keyed with the secret, which a hash cannot check, so a
 * secret is derived rather than random: HMAC-SHA256(master key, api key ‖ nonce). The master key lives in the
 * data folder (mode 0600) and lets the venue re-derive a key's secret to check a signature; the database alone
 * reveals no secret.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { apiError, type ApiError } from '../../../src-shared/errors/api-error';
import type { ApiKeyRow } from '../store';

/** What a request needs of its key: reading, or trading (which a read-only key cannot). */
export type Scope = 'read' | 'trade';

export interface Caller {
  userId: string;
  apiKey: string;
  readOnly: boolean;
  /** When the calling key stops working (UNIX ns), null for never: no key it creates may outlive it. */
  expiredAt: bigint | null;
}

export interface NewKey {
  name: string;
  readOnly: boolean;
  expiredAt: bigint | null;
}

const NONCE_BYTES = 16;

/**
 * The most keys one user may hold that still work (neither revoked nor expired). The interface names no cap, and
 * the rate limit alone let a script create keys without end, each kept (and loaded at every start) for good. A
 * trader uses a handful; revoking one, or its expiry, makes room again.
 */
export const MAX_ACTIVE_KEYS_PER_USER = 100;

/**
 * The most keys one user may create in any 24 hours, the revoked and expired ones among them counted. The cap on
 * active keys alone let a loop that revokes each key it creates (or creates keys that expire a second later) store
 * rows without end, each loaded at every start. Above the active cap, so a user may still fill it and replace one
 * on the same day; a trader rotating a key every ten minutes creates 144. A rolling window, so it slows a script
 * and never locks a trader out for longer than a day.
 */
export const MAX_KEYS_CREATED_PER_DAY = 200;

export const DAY_NS = 86_400_000_000_000n;

export class KeyRing {
  private readonly keys = new Map<string, ApiKeyRow>();
  /** Keys created or revoked since the venue last took them: it commits them with the turn that changed them. */
  private readonly changed = new Map<string, ApiKeyRow>();

  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length < 32) throw new Error('the venue master key must be at least 32 bytes');
  }

  /**
   * Takes the stored keys, refusing them if this master key did not derive their secrets: with another key every
   * WebSocket signature would fail while REST hashes still matched, and the local secret handed to the desk
   * would be wrong. One key tells: a master key derives all of a folder's secrets or none of them.
   */
  load(rows: readonly ApiKeyRow[]): void {
    const sample = rows[0];
    if (sample !== undefined && !timingSafeEqual(hashSecret(this.derive(sample.apiKey, sample.secretNonce)), sample.secretHash)) {
      throw new Error(`it did not derive the secret of API key ${sample.apiKey}`);
    }
    for (const row of rows) this.keys.set(row.apiKey, row);
  }

  create(userId: string, spec: NewKey, now: bigint): { row: ApiKeyRow; secret: string } {
    const apiKey = `nk_${randomBytes(12).toString('hex')}`;
    const secretNonce = randomBytes(NONCE_BYTES);
    const secret = this.derive(apiKey, secretNonce);
    const row: ApiKeyRow = {
      apiKey,
      userId,
      secretHash: hashSecret(secret),
      secretNonce,
      name: spec.name,
      createdAt: now,
      expiredAt: spec.expiredAt,
      isReadOnly: spec.readOnly,
      revoked: false,
    };
    this.keys.set(apiKey, row);
    this.changed.set(apiKey, row);
    return { row, secret };
  }

  /** The rows to persist for every key created or revoked since the last call. */
  takeChanges(): ApiKeyRow[] {
    const rows = [...this.changed.values()];
    this.changed.clear();
    return rows;
  }

  /** REST: the key and its secret, as sent in NOVA-KEY and NOVA-SECRET. */
  authenticate(apiKey: string | undefined, secret: string | undefined, now: bigint): Caller | ApiError {
    if (apiKey === undefined || secret === undefined || apiKey === '' || secret === '') {
      return apiError('E0001_AuthRequired', 'NOVA-KEY and NOVA-SECRET headers are required');
    }
    const row = this.keys.get(apiKey);
    // Hash even when the key is unknown, so the answer takes the same time either way.
    const presented = hashSecret(secret);
    const matches = row !== undefined && timingSafeEqual(presented, row.secretHash);
    if (row === undefined || !matches) return apiError('E0001_AuthRequired', 'invalid API key or secret');
    return this.usable(row, now);
  }

  /** WebSocket: a signature of `<key>,<timestamp>` with the key's secret, as lowercase hex HMAC-SHA256. */
  verifySignature(apiKey: string, timestamp: number, signature: string, now: bigint): Caller | ApiError {
    const row = this.keys.get(apiKey);
    if (row === undefined) return apiError('E0001_AuthRequired', 'invalid API key or signature');
    const secret = this.derive(apiKey, row.secretNonce);
    const expected = createHmac('sha256', secret).update(`${apiKey},${timestamp}`).digest();
    // A malformed signature is still compared (against zeros), so the answer takes the same time either way.
    const wellFormed = /^[0-9a-f]{64}$/.test(signature);
    const given = wellFormed ? Buffer.from(signature, 'hex') : Buffer.alloc(expected.length);
    if (!timingSafeEqual(expected, given) || !wellFormed) {
      return apiError('E0001_AuthRequired', 'invalid API key or signature');
    }
    return this.usable(row, now);
  }

  /**
   * A key's secret, derived again from the master key. Only the venue's own host (the desk that embeds it)
   * asks, in memory, so that the local user's secret never has to be written to a file.
   */
  secretOf(apiKey: string): string | undefined {
    const row = this.keys.get(apiKey);
    return row === undefined ? undefined : this.derive(apiKey, row.secretNonce);
  }

  /**
   * The owner's key, revoked from now on (the row to persist); undefined when the owner has no such key. A
   * revoked key stays listed, so a client using it is told E0005 rather than that it never existed.
   */
  revoke(apiKey: string, ownerId: string): ApiKeyRow | undefined {
    const row = this.keys.get(apiKey);
    if (row === undefined || row.userId !== ownerId) return undefined;
    const revoked = { ...row, revoked: true };
    this.keys.set(apiKey, revoked);
    this.changed.set(apiKey, revoked);
    return revoked;
  }

  /** The oldest key with this name whose owner passes `owns`. */
  oldestNamed(name: string, owns: (userId: string) => boolean): ApiKeyRow | undefined {
    let oldest: ApiKeyRow | undefined;
    for (const key of this.keys.values()) {
      if (key.name === name && owns(key.userId) && (oldest === undefined || key.createdAt < oldest.createdAt)) oldest = key;
    }
    return oldest;
  }

  keysOf(userId: string): ApiKeyRow[] {
    return [...this.keys.values()].filter((k) => k.userId === userId);
  }

  /** The user's keys that still work at `now`, oldest first: what MAX_ACTIVE_KEYS_PER_USER bounds. */
  activeKeysOf(userId: string, now: bigint): ApiKeyRow[] {
    return this.keysOf(userId)
      .filter((key) => refusalOf(key, now) === undefined)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  /** The user's keys created after `since` (UNIX ns), whatever became of them, oldest first: what MAX_KEYS_CREATED_PER_DAY bounds. */
  createdSince(userId: string, since: bigint): ApiKeyRow[] {
    return this.keysOf(userId)
      .filter((key) => key.createdAt > since)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  /**
   * Why a key that authenticated earlier cannot be used now (revoked, expired), or undefined: a WebSocket
   * session asks before each trading operation, since its key may have expired since its auth.
   */
  refusal(apiKey: string, now: bigint): ApiError | undefined {
    const row = this.keys.get(apiKey);
    return row === undefined ? apiError('E0001_AuthRequired', 'invalid API key') : refusalOf(row, now);
  }

  private usable(row: ApiKeyRow, now: bigint): Caller | ApiError {
    return refusalOf(row, now) ?? { userId: row.userId, apiKey: row.apiKey, readOnly: row.isReadOnly, expiredAt: row.expiredAt };
  }

  private derive(apiKey: string, nonce: Buffer): string {
    return createHmac('sha256', this.masterKey).update(apiKey).update(nonce).digest('base64url');
  }
}

function refusalOf(row: ApiKeyRow, now: bigint): ApiError | undefined {
  if (row.revoked) return apiError('E0005_ApiKeyRevoked', 'this API key was revoked');
  if (row.expiredAt !== null && row.expiredAt <= now) return apiError('E0002_ApiKeyExpired', 'this API key has expired');
  return undefined;
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}
