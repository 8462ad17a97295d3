/**
 * The venue's error catalogue: every reference the venue can answer with, served whole by GET /v1/error-codes.
 *
 * Numbering (interface 7.3 fixes the references it names; the rest follow its scheme):
 *   E00xx authentication and permission   E01xx request validation   E02xx trading (the engine said no)
 *   E03xx orders and accounts             E05xx rate limits          E06xx funding   E09xx the venue itself
 * and, outside the venue's catalogue, E08xx: the desk itself, about the trader's machine (DESK_ERROR_CATALOGUE).
 *
 * Each record carries exactly the fields of the interface's 2.5. `http_status` is the status a REST answer
 * carrying the reference uses, with documented exceptions where HTTP has a more exact status: E0104 on a
 * product path (GET /products/{id}/...) answers 404, since there the product is the resource that was not
 * found; and requests Node or the router refuse before any endpoint runs answer 431 (E0103, headers too large),
 * 414 (E0110, a path component too long) or 408 (E0101, headers not received in time).
 */

export const ERROR_CATEGORIES = [
  'auth',
  'validation',
  'trading',
  'account',
  'market',
  'rate_limit',
  'funding',
  'system',
] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

export type ErrorAction = 'retry' | 'redirect_login' | 'contact_support' | 'none';
export type ErrorSeverity = 'error' | 'warning' | 'info';

/** The error-code record of the interface's 2.5, as GET /v1/error-codes answers it. */
export interface ErrorCodeRecord {
  readonly ref: string;
  readonly code: string;
  readonly category: ErrorCategory;
  readonly grpc_code: string;
  readonly title: string;
  readonly message: string;
  readonly action: ErrorAction;
  readonly severity: ErrorSeverity;
  readonly retry_allowed: boolean;
  readonly http_status: number;
}

export const ERROR_CATALOGUE = [
  // ---- E00xx authentication and permission
  {
    ref: 'E0001_AuthRequired',
    code: 'E0001',
    category: 'auth',
    grpc_code: 'Unauthenticated',
    title: 'Authentication required',
    message: 'The NOVA-KEY and NOVA-SECRET headers are missing or do not match a key (WebSocket: auth failed or not sent).',
    action: 'redirect_login',
    severity: 'error',
    retry_allowed: false,
    http_status: 401,
  },
  {
    ref: 'E0002_ApiKeyExpired',
    code: 'E0002',
    category: 'auth',
    grpc_code: 'Unauthenticated',
    title: 'API key expired',
    message: 'The API key is past its expiration time. Create a new key.',
    action: 'redirect_login',
    severity: 'error',
    retry_allowed: false,
    http_status: 401,
  },
  {
    ref: 'E0003_PermissionDenied',
    code: 'E0003',
    category: 'auth',
    grpc_code: 'PermissionDenied',
    title: 'Permission denied',
    message: "The key is valid but may not act on this resource (another user's account, or an admin-only endpoint).",
    action: 'none',
    severity: 'error',
    retry_allowed: false,
    http_status: 403,
  },
  {
    ref: 'E0004_InsufficientScope',
    code: 'E0004',
    category: 'auth',
    grpc_code: 'PermissionDenied',
    title: 'Missing scope',
    message: 'The key lacks the scope this operation needs; a read-only key cannot trade.',
    action: 'none',
    severity: 'error',
    retry_allowed: false,
    http_status: 403,
  },
  {
    ref: 'E0005_ApiKeyRevoked',
    code: 'E0005',
    category: 'auth',
    grpc_code: 'Unauthenticated',
    title: 'API key revoked',
    message: 'The API key has been revoked. Create a new key.',
    action: 'redirect_login',
    severity: 'error',
    retry_allowed: false,
    http_status: 401,
  },

  // ---- E01xx request validation
  {
    ref: 'E0101_InvalidArgument',
    code: 'E0101',
    category: 'validation',
    grpc_code: 'InvalidArgument',
    title: 'Invalid argument',
    message: 'A request field is missing, of the wrong type, malformed, or not allowed with the other fields.',
    action: 'none',
    severity: 'warning',
    retry_allowed: true,
    http_status: 400,
  },
  {
    ref: 'E0102_MalformedJson',
    code: 'E0102',
    category: 'validation',
    grpc_code: 'InvalidArgument',
    title: 'Malformed JSON',
    message: 'The request body (or WebSocket frame) is not valid JSON.',
    action: 'none',
    severity: 'warning',
    retry_allowed: true,
    http_status: 400,
  },
  {
    ref: 'E0103_BodyTooLarge',
    code: 'E0103',
    category: 'validation',
    grpc_code: 'InvalidArgument',
    title: 'Body too large',
    message: 'The request body (or WebSocket frame) exceeds the size the venue accepts.',
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 413,
  },
  {
    ref: 'E0104_InvalidSymbol',
    code: 'E0104',
    category: 'validation',
    grpc_code: 'InvalidArgument',
    title: 'Invalid trading symbol',
    message: 'The product id is not one the venue lists (GET /products). On a product path the answer is 404.',
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 400,
  },
  {
    ref: 'E0105_RouteNotFound',
    code: 'E0105',
    category: 'validation',
    grpc_code: 'NotFound',
    title: 'Unknown route',
    message: 'No endpoint answers this method and path.',
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 404,
  },
  {
    ref: 'E0106_UnsupportedMediaType',
    code: 'E0106',
    category: 'validation',
    grpc_code: 'InvalidArgument',
    title: 'Unsupported media type',
    message: 'Request bodies must be sent as application/json.',
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 415,
  },
  {
    ref: 'E0110_ValueOutOfRange',
    code: 'E0110',
    category: 'validation',
    grpc_code: 'OutOfRange',
    title: 'Value out of range',
    message: "A value is well formed but outside what is allowed: below a product's minimum, above its maximum, a time in the past, a list or limit too long.",
    action: 'none',
    severity: 'warning',
    retry_allowed: true,
    http_status: 400,
  },

  // ---- E02xx trading
  {
    ref: 'E0201_InsufficientBalance',
    code: 'E0201',
    category: 'trading',
    grpc_code: 'FailedPrecondition',
    title: 'Insufficient balance',
    message: 'The free balance does not cover what the order must hold (size or notional plus fees).',
    action: 'none',
    severity: 'error',
    retry_allowed: false,
    http_status: 400,
  },
  {
    ref: 'E0202_PostOnlyWouldMatch',
    code: 'E0202',
    category: 'trading',
    grpc_code: 'FailedPrecondition',
    title: 'Post-only order would match',
    message: 'A post-only order would have taken liquidity, so it was rejected without trading.',
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 400,
  },
  {
    ref: 'E0203_FillOrKillNotFilled',
    code: 'E0203',
    category: 'trading',
    grpc_code: 'FailedPrecondition',
    title: 'Fill-or-kill not filled',
    message: 'The book could not fill the whole FOK order (or the exact-quote order within its quote amount), so nothing traded.',
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 400,
  },
  {
    ref: 'E0204_SelfTradePrevented',
    code: 'E0204',
    category: 'trading',
    grpc_code: 'FailedPrecondition',
    title: 'Self-trade prevented',
    message: "The order would have traded with the same user's resting order; the stp setting canceled it.",
    action: 'none',
    severity: 'info',
    retry_allowed: false,
    http_status: 400,
  },
  {
    ref: 'E0210_OrderLimitExceeded',
    code: 'E0210',
    category: 'trading',
    grpc_code: 'FailedPrecondition',
    title: 'Open order limit reached',
    message: 'The user already has the maximum number of open orders. Cancel some first.',
    action: 'none',
    severity: 'error',
    retry_allowed: false,
    http_status: 400,
  },
  {
    ref: 'E0213_InvalidStopPrice',
    code: 'E0213',
    category: 'trading',
    grpc_code: 'InvalidArgument',
    title: 'Invalid stop price',
    message: 'A STOP order needs a positive stop_trigger_price not already met by the last trade; other orders take none.',
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 400,
  },

  // ---- E03xx orders and accounts
  {
    ref: 'E0301_OrderNotFound',
    code: 'E0301',
    category: 'trading',
    grpc_code: 'NotFound',
    title: 'Order not found',
    message: 'No order of this user has that order id or client order id (for a cancel: no active one).',
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 404,
  },
  {
    ref: 'E0302_OrderAlreadyDone',
    code: 'E0302',
    category: 'trading',
    grpc_code: 'FailedPrecondition',
    title: 'Order already done',
    message: 'The order is already filled, canceled, expired or rejected and cannot be canceled.',
    action: 'none',
    severity: 'info',
    retry_allowed: false,
    http_status: 409,
  },
  {
    ref: 'E0303_DuplicateClientOrderId',
    code: 'E0303',
    category: 'trading',
    grpc_code: 'AlreadyExists',
    title: 'Duplicate client order id',
    message: 'An open order of this user already has that client_order_id (compared case-insensitively).',
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 409,
  },
  {
    ref: 'E0304_UserNotFound',
    code: 'E0304',
    category: 'account',
    grpc_code: 'NotFound',
    title: 'User not found',
    message: 'No user has that user id.',
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 404,
  },
  {
    ref: 'E0305_ApiKeyNotFound',
    code: 'E0305',
    category: 'account',
    grpc_code: 'NotFound',
    title: 'API key not found',
    message: 'The caller has no API key with that identifier (revoking another user’s key answers the same).',
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 404,
  },

  // ---- E05xx rate limits
  {
    ref: 'E0501_RateLimitExceeded',
    code: 'E0501',
    category: 'rate_limit',
    grpc_code: 'ResourceExhausted',
    title: 'Too many requests',
    message: 'The key sent more requests per second than allowed. Retry after the Retry-After header.',
    action: 'retry',
    severity: 'warning',
    retry_allowed: true,
    http_status: 429,
  },
  {
    ref: 'E0503_OrderRateLimitExceeded',
    code: 'E0503',
    category: 'rate_limit',
    grpc_code: 'ResourceExhausted',
    title: 'Order rate limit exceeded',
    message: 'The key placed more orders per second than allowed. Retry after the Retry-After header.',
    action: 'retry',
    severity: 'warning',
    retry_allowed: true,
    http_status: 429,
  },

  // ---- E06xx funding (the interface names them; the local venue has no withdrawals and never emits them)
  {
    ref: 'E0601_WithdrawalSuspended',
    code: 'E0601',
    category: 'funding',
    grpc_code: 'Unavailable',
    title: 'Withdrawals suspended',
    message: 'Withdrawals of this asset are suspended for now.',
    action: 'retry',
    severity: 'error',
    retry_allowed: true,
    http_status: 503,
  },
  {
    ref: 'E0603_MinWithdrawalAmount',
    code: 'E0603',
    category: 'funding',
    grpc_code: 'OutOfRange',
    title: 'Below minimum withdrawal',
    message: 'The withdrawal amount is below the minimum for this asset.',
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 400,
  },
  {
    ref: 'E0605_DailyWithdrawalLimitExceeded',
    code: 'E0605',
    category: 'funding',
    grpc_code: 'FailedPrecondition',
    title: 'Daily withdrawal limit exceeded',
    message: "The withdrawal would exceed the day's withdrawal limit.",
    action: 'none',
    severity: 'error',
    retry_allowed: false,
    http_status: 400,
  },

  // ---- E09xx the venue itself
  {
    ref: 'E0901_InternalError',
    code: 'E0901',
    category: 'system',
    grpc_code: 'Internal',
    title: 'Internal error',
    message: 'The venue failed to handle the request. Its state is unchanged unless the order shows otherwise.',
    action: 'contact_support',
    severity: 'error',
    retry_allowed: true,
    http_status: 500,
  },
  {
    ref: 'E0902_ServiceUnavailable',
    code: 'E0902',
    category: 'system',
    grpc_code: 'Unavailable',
    title: 'Service unavailable',
    message: 'The venue is starting or shutting down, or holds its most WebSocket connections, and does not accept this request now.',
    action: 'retry',
    severity: 'error',
    retry_allowed: true,
    http_status: 503,
  },
] as const satisfies readonly ErrorCodeRecord[];

export type ErrorRef = (typeof ERROR_CATALOGUE)[number]['ref'];

/**
 * References the desk itself answers its windows with, about the trader's own machine rather than a venue
 * (E08xx, family 'system'). No venue sends them: GET /v1/error-codes serves ERROR_CATALOGUE alone, and a venue's
 * answer is read against the venue's references only (findVenueErrorRecord). The record has 2.5's fields so a
 * window explains it exactly as it explains a venue's; `http_status` is the status it would carry over HTTP.
 */
export const DESK_ERROR_CATALOGUE = [
  {
    ref: 'E0801_KeychainUnavailable',
    code: 'E0801',
    category: 'system',
    grpc_code: 'Unavailable',
    title: 'Keychain locked or unavailable',
    message:
      "The desk could not read or store an API secret in this computer's keychain: it is locked, or its service is not running. The venue is not at fault. Unlock the keychain (or start it), then try again.",
    action: 'retry',
    severity: 'error',
    retry_allowed: true,
    http_status: 503,
  },
  {
    // Not E0902: its "try again" is the one wrong thing to do with an order that may be live.
    ref: 'E0802_OrderOutcomeUnknown',
    code: 'E0802',
    category: 'system',
    grpc_code: 'Unknown',
    title: 'Order may have been placed',
    message:
      "The order was sent but its answer was lost on the way back (the connection dropped, or a gateway answered in the venue's place), so the desk cannot tell whether the venue placed it. The desk looks it up by its client order id. Do not send it again until it shows among the orders or the desk says it was not placed.",
    action: 'none',
    severity: 'warning',
    retry_allowed: false,
    http_status: 504,
  },
] as const satisfies readonly ErrorCodeRecord[];

export type DeskErrorRef = (typeof DESK_ERROR_CATALOGUE)[number]['ref'];
/** A reference a window can be answered with: the venue's, or the desk's own. */
export type AnyErrorRef = ErrorRef | DeskErrorRef;

const venueByRef = new Map<string, ErrorCodeRecord>(ERROR_CATALOGUE.map((r) => [r.ref, r]));
const byRef = new Map<string, ErrorCodeRecord>([...ERROR_CATALOGUE, ...DESK_ERROR_CATALOGUE].map((r) => [r.ref, r]));

/** The record of any reference a window may be told, the venue's or the desk's own. */
export function findErrorRecord(ref: string): ErrorCodeRecord | undefined {
  return byRef.get(ref);
}

/** The record of a reference a venue may answer with; undefined for the desk's own (a venue never sends one). */
export function findVenueErrorRecord(ref: string): ErrorCodeRecord | undefined {
  return venueByRef.get(ref);
}

/** The record of a reference the type system already knows exists. */
export function errorRecord(ref: AnyErrorRef): ErrorCodeRecord {
  return byRef.get(ref) as ErrorCodeRecord;
}
