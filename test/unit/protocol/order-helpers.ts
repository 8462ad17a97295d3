import { expect } from 'vitest';
import { ApiError } from '../../../src-shared/errors/api-error';
import type { ErrorRef } from '../../../src-shared/errors/catalogue';

export const NOW = 1_763_800_000_000_000_000n;
export const HOUR = 3_600_000_000_000n;

/** The value, after checking it is not an ApiError. */
export function accepted<T>(result: T | ApiError): T {
  if (result instanceof ApiError) throw new Error(`expected acceptance, got ${result.message}`);
  return result;
}

/** The ApiError, after checking its reference and that its description mentions `fragment`. */
export function refused(result: unknown, ref: ErrorRef, fragment?: string): ApiError {
  expect(result, `expected ${ref}, got ${JSON.stringify(result, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`).toBeInstanceOf(ApiError);
  const err = result as ApiError;
  expect(err.message).toMatch(new RegExp(`^${ref}: `));
  if (fragment !== undefined) expect(err.description).toContain(fragment);
  return err;
}
