import { describe, expect, it } from 'vitest';
import {
  ApiError,
  apiError,
  apiErrorFromMessage,
  errorBody,
  lookupErrors,
  parseErrorMessage,
  wsCode,
} from '../../../src-shared/errors/api-error';
import { ERROR_CATALOGUE, type ErrorRef } from '../../../src-shared/errors/catalogue';
import { ErrorResponseSchema } from '../../../src-shared/protocol/records';

const refs: ErrorRef[] = ERROR_CATALOGUE.map((r) => r.ref);

describe('ApiError', () => {
  it('carries the reference, the description and the catalogue status', () => {
    const err = apiError('E0101_InvalidArgument', 'limit_price: not a multiple of 10000');
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toBeInstanceOf(Error);
    expect(err.ref).toBe('E0101_InvalidArgument');
    expect(err.description).toBe('limit_price: not a multiple of 10000');
    expect(err.httpStatus).toBe(400);
    expect(err.message).toBe('E0101_InvalidArgument: limit_price: not a multiple of 10000');
  });

  it('lets a caller override the status where the reference means "not found"', () => {
    expect(apiError('E0104_InvalidSymbol', 'unknown product', 404).httpStatus).toBe(404);
  });
});

describe('errorBody', () => {
  it('answers authentication failures with AUTH_REQUIRED, key expiry and revocation included', () => {
    for (const ref of ['E0001_AuthRequired', 'E0002_ApiKeyExpired', 'E0005_ApiKeyRevoked'] as const) {
      expect(errorBody(apiError(ref, 'x')).error.code).toBe('AUTH_REQUIRED');
    }
  });

  it('answers a missing scope with INSUFFICIENT_SCOPE', () => {
    expect(errorBody(apiError('E0004_InsufficientScope', 'read-only api key')).error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('uses the gRPC-style name otherwise, and "E<number>_<Reference>: <description>" as the message', () => {
    const body = errorBody(apiError('E0301_OrderNotFound', 'no active order 1'));
    expect(body).toEqual({ error: { code: 'NotFound', message: 'E0301_OrderNotFound: no active order 1' } });
    expect(errorBody(apiError('E0003_PermissionDenied', 'x')).error.code).toBe('PermissionDenied');
    expect(errorBody(apiError('E0101_InvalidArgument', 'x')).error.code).toBe('InvalidArgument');
  });

  it('produces a body the client schema parses, for every reference', () => {
    for (const ref of refs) expect(ErrorResponseSchema.parse(errorBody(apiError(ref, 'why')))).toBeTruthy();
  });
});

describe('wsCode', () => {
  it('maps every reference to one of the interface 7.4 codes', () => {
    for (const ref of refs) expect([400, 401, 403, 404, 409, 500]).toContain(wsCode(ref));
  });

  it('follows the 7.4 meanings', () => {
    expect(wsCode('E0101_InvalidArgument')).toBe(400);
    expect(wsCode('E0104_InvalidSymbol')).toBe(400);
    expect(wsCode('E0001_AuthRequired')).toBe(401);
    expect(wsCode('E0002_ApiKeyExpired')).toBe(401);
    expect(wsCode('E0004_InsufficientScope')).toBe(403);
    expect(wsCode('E0301_OrderNotFound')).toBe(404);
    expect(wsCode('E0302_OrderAlreadyDone')).toBe(409);
    expect(wsCode('E0201_InsufficientBalance')).toBe(409);
    expect(wsCode('E0202_PostOnlyWouldMatch')).toBe(409);
    expect(wsCode('E0210_OrderLimitExceeded')).toBe(409);
    expect(wsCode('E0901_InternalError')).toBe(500);
  });
});

describe('parseErrorMessage', () => {
  it('recovers reference, code and description from every reference the venue can send', () => {
    for (const ref of refs) {
      const err = apiError(ref, 'price: must be 0: really');
      expect(parseErrorMessage(err.message)).toEqual({ ref, code: ref.slice(0, 5), description: 'price: must be 0: really' });
    }
  });

  it('keeps a reference this build does not know (a newer venue)', () => {
    expect(parseErrorMessage('E0777_Brandnew: something')).toEqual({
      ref: 'E0777_Brandnew',
      code: 'E0777',
      description: 'something',
    });
  });

  it('answers undefined for a message without a reference', () => {
    expect(parseErrorMessage('insufficient balance')).toBeUndefined();
    expect(parseErrorMessage('E0101_InvalidArgument')).toBeUndefined();
    expect(parseErrorMessage('')).toBeUndefined();
    expect(parseErrorMessage('xE0101_InvalidArgument: x')).toBeUndefined();
  });

  it('rebuilds an ApiError for a known reference only', () => {
    const err = apiErrorFromMessage('E0201_InsufficientBalance: need 5 VND', 400);
    expect(err?.ref).toBe('E0201_InsufficientBalance');
    expect(err?.description).toBe('need 5 VND');
    expect(apiErrorFromMessage('E0777_Brandnew: x')).toBeUndefined();
  });
});

describe('lookupErrors (GET /v1/error-codes)', () => {
  it('returns the whole catalogue without filters', () => {
    expect(lookupErrors({})).toEqual(ERROR_CATALOGUE);
  });

  it('filters by category', () => {
    const records = lookupErrors({ category: 'rate_limit' });
    expect(records).not.toBeInstanceOf(ApiError);
    expect((records as readonly { ref: string }[]).map((r) => r.ref)).toEqual(['E0501_RateLimitExceeded', 'E0503_OrderRateLimitExceeded']);
  });

  it('answers an empty list for a valid category with no records', () => {
    expect(lookupErrors({ category: 'market' })).toEqual([]);
  });

  it('finds one reference, and nothing when the category disagrees', () => {
    expect(lookupErrors({ ref: 'E0101_InvalidArgument' })).toEqual([
      ERROR_CATALOGUE.find((r) => r.ref === 'E0101_InvalidArgument'),
    ]);
    expect(lookupErrors({ ref: 'E0101_InvalidArgument', category: 'auth' })).toEqual([]);
  });

  it('refuses an unknown category with E0101', () => {
    const err = lookupErrors({ category: 'orders' });
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).ref).toBe('E0101_InvalidArgument');
  });

  it('refuses a malformed ref with E0101 and a well-formed unknown ref with E0110', () => {
    expect((lookupErrors({ ref: 'InvalidArgument' }) as ApiError).ref).toBe('E0101_InvalidArgument');
    expect((lookupErrors({ ref: '__proto__' }) as ApiError).ref).toBe('E0101_InvalidArgument');
    expect((lookupErrors({ ref: 'E0999_Nope' }) as ApiError).ref).toBe('E0110_ValueOutOfRange');
  });
});
