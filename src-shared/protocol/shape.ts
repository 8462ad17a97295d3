/**
 * Turning a failed zod shape parse into the API's E0101, naming the field the way the client spelled it.
 */

import type { z } from 'zod';
import { apiError, type ApiError } from '../errors/api-error';

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function fieldName(path: readonly PropertyKey[], root: string): string {
  if (path.length === 0) return root;
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join('');
}

/** `root` names the whole input when it is the input itself that has the wrong type. */
export function shapeError(error: z.ZodError, input: unknown, root = 'request body'): ApiError {
  const issue = error.issues[0];
  if (issue === undefined) return apiError('E0101_InvalidArgument', `${root}: invalid`);
  const field = fieldName(issue.path, root);
  if (issue.code === 'invalid_type') {
    const value = valueAt(input, issue.path);
    // JSON.parse reads a literal like 1e400 as Infinity, which is a number to JSON and not to a schema.
    if (issue.expected === 'number' && typeof value === 'number' && !Number.isFinite(value)) {
      return apiError('E0110_ValueOutOfRange', `${field}: too large to represent`);
    }
    const got = jsonTypeOf(value);
    // null counts as absent (docs/api.md, Conventions): where the shape refuses it, the field is required.
    if (got === 'undefined' || got === 'null') return apiError('E0101_InvalidArgument', `${field}: required`);
    return apiError('E0101_InvalidArgument', `${field}: expected ${issue.expected}, got ${got}`);
  }
  return apiError('E0101_InvalidArgument', `${field}: ${issue.message}`);
}
