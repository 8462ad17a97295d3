/**
 * ApiError is how every layer says "this request fails with reference X": validators return it, the venue's
 * routes turn it into the interface's error object (REST) or an error event with an integer code (WebSocket),
 * and the desk's client rebuilds it from a message to decide what to show or retry.
 */

import {
  ERROR_CATALOGUE,
  ERROR_CATEGORIES,
  errorRecord,
  findVenueErrorRecord,
  type ErrorCategory,
  type ErrorCodeRecord,
  type ErrorRef,
} from './catalogue';

export class ApiError extends Error {
  readonly ref: ErrorRef;
  /** What went wrong in this request, without the reference: "limit_price: not a multiple of 10000". */
  readonly description: string;
  readonly httpStatus: number;

  constructor(ref: ErrorRef, description: string, httpStatus?: number) {
    super(`${ref}: ${description}`);
    this.name = 'ApiError';
    this.ref = ref;
    this.description = description;
    this.httpStatus = httpStatus ?? errorRecord(ref).http_status;
  }
}

/**
 * `httpStatus` overrides the catalogue's status for the rare reference whose status depends on where it
 * occurs (E0104 on a product path is 404).
 */
export function apiError(ref: ErrorRef, description: string, httpStatus?: number): ApiError {
  return new ApiError(ref, description, httpStatus);
}

/** The interface's error object (7.1, first shape). */
export interface ErrorBody {
  readonly error: { readonly code: string; readonly message: string };
}

/**
 * Authentication failures keep the two codes the interface fixes (7.2) whatever their reference, so a client
 * that only knows AUTH_REQUIRED still logs the user in again when a key expires.
 */
export function wireCode(ref: ErrorRef): string {
  const record = errorRecord(ref);
  if (record.grpc_code === 'Unauthenticated') return 'AUTH_REQUIRED';
  if (ref === 'E0004_InsufficientScope') return 'INSUFFICIENT_SCOPE';
  return record.grpc_code;
}

export function errorBody(err: ApiError): ErrorBody {
  return { error: { code: wireCode(err.ref), message: err.message } };
}

/** The integer codes of the interface's 7.4 and nothing else, so a WebSocket client can switch on them. */
export type WsErrorCode = 400 | 401 | 403 | 404 | 409 | 500;

/**
 * 409 ("conflict") covers every refusal caused by the state of the venue rather than by the request's text:
 * balances, the book, the open-order cap, and the rate budget (7.4 has no 429).
 */
const WS_CODES: Readonly<Record<ErrorRef, WsErrorCode>> = {
  E0001_AuthRequired: 401,
  E0002_ApiKeyExpired: 401,
  E0003_PermissionDenied: 403,
  E0004_InsufficientScope: 403,
  E0005_ApiKeyRevoked: 401,
  E0101_InvalidArgument: 400,
  E0102_MalformedJson: 400,
  E0103_BodyTooLarge: 400,
  E0104_InvalidSymbol: 400,
  E0105_RouteNotFound: 404,
  E0106_UnsupportedMediaType: 400,
  E0110_ValueOutOfRange: 400,
  E0201_InsufficientBalance: 409,
  E0202_PostOnlyWouldMatch: 409,
  E0203_FillOrKillNotFilled: 409,
  E0204_SelfTradePrevented: 409,
  E0210_OrderLimitExceeded: 409,
  E0213_InvalidStopPrice: 400,
  E0301_OrderNotFound: 404,
  E0302_OrderAlreadyDone: 409,
  E0303_DuplicateClientOrderId: 409,
  E0304_UserNotFound: 404,
  E0305_ApiKeyNotFound: 404,
  E0501_RateLimitExceeded: 409,
  E0503_OrderRateLimitExceeded: 409,
  E0601_WithdrawalSuspended: 409,
  E0603_MinWithdrawalAmount: 400,
  E0605_DailyWithdrawalLimitExceeded: 409,
  E0901_InternalError: 500,
  E0902_ServiceUnavailable: 500,
};

export function wsCode(ref: ErrorRef): WsErrorCode {
  return WS_CODES[ref];
}

export interface ParsedErrorMessage {
  /** As the venue sent it; it may be a reference this build's catalogue does not know (a newer venue). */
  readonly ref: string;
  readonly code: string;
  readonly description: string;
}

const ERROR_MESSAGE = /^(E\d{4})_[A-Za-z][A-Za-z0-9]*(?=:)/;

/** Splits "E0101_InvalidArgument: limit_price: ..." into its parts; undefined when it has no reference. */
export function parseErrorMessage(message: string): ParsedErrorMessage | undefined {
  const match = ERROR_MESSAGE.exec(message);
  if (match === null) return undefined;
  const ref = match[0];
  return {
    ref,
    code: match[1] as string,
    description: message.slice(ref.length + 1).trimStart(),
  };
}

/** A client's view of a failure it received: the ApiError when the reference is one this build knows. */
export function apiErrorFromMessage(message: string, httpStatus?: number): ApiError | undefined {
  const parsed = parseErrorMessage(message);
  if (parsed === undefined || findVenueErrorRecord(parsed.ref) === undefined) return undefined;
  return new ApiError(parsed.ref as ErrorRef, parsed.description, httpStatus);
}

export interface ErrorLookup {
  readonly category?: string | undefined;
  readonly ref?: string | undefined;
}

const REF_SHAPE = /^E\d{4}_[A-Za-z][A-Za-z0-9]*$/;

/**
 * GET /v1/error-codes. Both filters apply together. A category outside 2.5's list or a malformed ref is
 * E0101; a well-formed ref the catalogue does not hold is E0110 (a value outside the catalogue), so a client
 * can tell "you typed it wrong" from "this venue does not have it".
 */
export function lookupErrors(filter: ErrorLookup): readonly ErrorCodeRecord[] | ApiError {
  const { category, ref } = filter;
  if (category !== undefined && !(ERROR_CATEGORIES as readonly string[]).includes(category)) {
    return apiError('E0101_InvalidArgument', `category: must be one of ${ERROR_CATEGORIES.join(', ')}`);
  }
  if (ref !== undefined) {
    if (!REF_SHAPE.test(ref)) {
      return apiError('E0101_InvalidArgument', 'ref: must be a full reference like E0101_InvalidArgument');
    }
    const record = findVenueErrorRecord(ref);
    if (record === undefined) return apiError('E0110_ValueOutOfRange', `ref: ${ref} is not in the catalogue`);
    return category === undefined || record.category === category ? [record] : [];
  }
  if (category === undefined) return ERROR_CATALOGUE;
  return ERROR_CATALOGUE.filter((r) => r.category === (category as ErrorCategory));
}
