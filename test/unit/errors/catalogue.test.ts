import { describe, expect, it } from 'vitest';
import { lookupErrors } from '../../../src-shared/errors/api-error';
import { DESK_ERROR_CATALOGUE, ERROR_CATALOGUE, ERROR_CATEGORIES, errorRecord, findErrorRecord, findVenueErrorRecord } from '../../../src-shared/errors/catalogue';
import { ErrorCodeSchema } from '../../../src-shared/protocol/records';

describe('error catalogue', () => {
  it('holds every reference of the interface 7.3 with its code', () => {
    const interfaceRefs = [
      'E0001_AuthRequired',
      'E0003_PermissionDenied',
      'E0004_InsufficientScope',
      'E0101_InvalidArgument',
      'E0104_InvalidSymbol',
      'E0110_ValueOutOfRange',
      'E0201_InsufficientBalance',
      'E0210_OrderLimitExceeded',
      'E0213_InvalidStopPrice',
      'E0501_RateLimitExceeded',
      'E0503_OrderRateLimitExceeded',
      'E0601_WithdrawalSuspended',
      'E0603_MinWithdrawalAmount',
      'E0605_DailyWithdrawalLimitExceeded',
    ];
    for (const ref of interfaceRefs) {
      const record = findErrorRecord(ref);
      expect(record, ref).toBeDefined();
      expect(record?.code).toBe(ref.slice(0, 5));
    }
  });

  it('gives E0101 the fields the interface fixes: 400, warning, retry allowed, no action', () => {
    expect(errorRecord('E0101_InvalidArgument')).toMatchObject({
      http_status: 400,
      severity: 'warning',
      retry_allowed: true,
      action: 'none',
      grpc_code: 'InvalidArgument',
      category: 'validation',
    });
  });

  it('gives the interface HTTP statuses to auth and rate-limit references', () => {
    expect(errorRecord('E0001_AuthRequired').http_status).toBe(401);
    expect(errorRecord('E0003_PermissionDenied').http_status).toBe(403);
    expect(errorRecord('E0004_InsufficientScope').http_status).toBe(403);
    expect(errorRecord('E0501_RateLimitExceeded').http_status).toBe(429);
    expect(errorRecord('E0503_OrderRateLimitExceeded').http_status).toBe(429);
  });

  it('holds the references the venue needs beyond the interface, with their statuses', () => {
    const expected: Record<string, number> = {
      E0301_OrderNotFound: 404,
      E0302_OrderAlreadyDone: 409,
      E0303_DuplicateClientOrderId: 409,
      E0202_PostOnlyWouldMatch: 400,
      E0203_FillOrKillNotFilled: 400,
      E0204_SelfTradePrevented: 400,
      E0002_ApiKeyExpired: 401,
      E0005_ApiKeyRevoked: 401,
      E0103_BodyTooLarge: 413,
      E0105_RouteNotFound: 404,
      E0102_MalformedJson: 400,
      E0901_InternalError: 500,
    };
    for (const [ref, status] of Object.entries(expected)) expect(findErrorRecord(ref)?.http_status, ref).toBe(status);
  });

  it('gives every record every field of 2.5, parseable by the client schema', () => {
    for (const record of ERROR_CATALOGUE) {
      expect(Object.keys(record).sort()).toEqual(
        ['action', 'category', 'code', 'grpc_code', 'http_status', 'message', 'ref', 'retry_allowed', 'severity', 'title'],
      );
      expect(ErrorCodeSchema.parse(record)).toEqual(record);
      expect(ERROR_CATEGORIES).toContain(record.category);
      expect(record.title.length).toBeGreaterThan(0);
      expect(record.message.length).toBeGreaterThan(0);
    }
  });

  it('spells every ref as its code, an underscore and a name', () => {
    for (const record of ERROR_CATALOGUE) {
      expect(record.ref).toMatch(/^E\d{4}_[A-Z][A-Za-z0-9]+$/);
      expect(record.ref.startsWith(`${record.code}_`)).toBe(true);
    }
  });

  it('uses each code once', () => {
    const codes = ERROR_CATALOGUE.map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('numbers each reference in its family: E00 auth, E01 validation, E02-E03 trading and account, E05 rate limit, E06 funding, E09 system', () => {
    const families: Record<string, readonly string[]> = {
      E00: ['auth'],
      E01: ['validation'],
      E02: ['trading'],
      E03: ['trading', 'account'],
      E05: ['rate_limit'],
      E06: ['funding'],
      E09: ['system'],
    };
    for (const record of ERROR_CATALOGUE) {
      expect(families[record.code.slice(0, 3)], record.ref).toContain(record.category);
    }
  });

  it('allows a retry exactly when the action is not a dead end', () => {
    for (const record of ERROR_CATALOGUE) {
      if (record.action === 'retry') expect(record.retry_allowed, record.ref).toBe(true);
      if (record.action === 'redirect_login') expect(record.retry_allowed, record.ref).toBe(false);
    }
  });

  it('finds nothing for a reference it does not hold', () => {
    expect(findErrorRecord('E9999_Nope')).toBeUndefined();
    expect(findErrorRecord('__proto__')).toBeUndefined();
  });

  it("keeps the desk's own references apart from the venue's: a window finds them, the venue never serves them", () => {
    const venueCodes = new Set<string>(ERROR_CATALOGUE.map((r) => r.code));
    for (const record of DESK_ERROR_CATALOGUE) {
      expect(ErrorCodeSchema.parse(record)).toEqual(record);
      expect(record.ref).toMatch(/^E08\d{2}_[A-Z][A-Za-z0-9]+$/);
      expect(record.category).toBe('system');
      expect(venueCodes.has(record.code), record.ref).toBe(false);
      expect(findErrorRecord(record.ref)).toEqual(record);
      expect(findVenueErrorRecord(record.ref)).toBeUndefined();
      expect(lookupErrors({ ref: record.ref })).toMatchObject({ ref: 'E0110_ValueOutOfRange' });
      expect(lookupErrors({ category: 'system' })).not.toContainEqual(record);
    }
  });

  it('tells the trader to unlock the keychain, not to contact support, when local secret storage is unavailable', () => {
    const record = errorRecord('E0801_KeychainUnavailable');
    expect(record).toMatchObject({ action: 'retry', retry_allowed: true });
    expect(record.title).toMatch(/keychain/i);
    expect(record.message).toMatch(/unlock the keychain/i);
    expect(record.message).not.toMatch(/support/i);
  });
});
