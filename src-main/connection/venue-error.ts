/**
 * How a venue call fails, as the desk needs to tell it apart:
 * - VenueError: the venue answered and refused. It carries the reference (E0101_InvalidArgument) and the
 *   catalogue's title, explanation and action, so a window can explain it and a caller can decide to retry.
 * - OutcomeUnknownError: the request may or may not have reached the venue (timeout, connection dropped after
 *   sending). An order in that state must be looked up before anything is sent again.
 * - VenueUnreachableError: nothing reached the venue (no connection), so nothing changed there.
 * - VenueProtocolError: the venue answered with something that is not the API's format.
 *
 * None of them ever holds a credential: messages are built from the venue's answer and the path only.
 */
import { parseErrorMessage } from '../../src-shared/errors/api-error';
import { refOfWsMessage } from '../../src-shared/errors/ws-messages';
import { errorRecord, findVenueErrorRecord, type ErrorAction, type ErrorCodeRecord, type ErrorRef } from '../../src-shared/errors/catalogue';
import { ErrorResponseSchema, GenericErrorResponseSchema } from '../../src-shared/protocol/records';
import type { OrderSide } from '../../src-shared/protocol/vocabulary';

export class VenueError extends Error {
  readonly kind = 'venue' as const;
  /** As the venue sent it; may be a reference this build's catalogue does not know (a newer venue). */
  readonly ref: string;
  /** E0101. */
  readonly code: string;
  /** What went wrong in this request: "limit_price: not a multiple of 10000". */
  readonly description: string;
  /** The catalogue's title and message for the reference (or for the HTTP status, when it is unknown). */
  readonly title: string;
  readonly explanation: string;
  readonly action: ErrorAction;
  readonly retryAllowed: boolean;
  readonly category: string;
  /** The REST status, or the catalogue's status for a WebSocket error. */
  readonly httpStatus: number;
  /** The WebSocket's integer code (interface 7.4), for errors that came over the socket. */
  readonly wsCode: number | undefined;
  /** From the Retry-After header of a rate-limit answer. */
  readonly retryAfterMs: number | undefined;

  constructor(init: {
    ref: string;
    description: string;
    record: ErrorCodeRecord;
    httpStatus: number;
    wsCode?: number;
    retryAfterMs?: number;
  }) {
    super(`${init.ref}: ${init.description}`);
    this.name = 'VenueError';
    this.ref = init.ref;
    this.code = init.ref.split('_')[0] ?? init.record.code;
    this.description = init.description;
    this.title = init.record.title;
    this.explanation = init.record.message;
    this.action = init.record.action;
    this.retryAllowed = init.record.retry_allowed;
    this.category = init.record.category;
    this.httpStatus = init.httpStatus;
    this.wsCode = init.wsCode;
    this.retryAfterMs = init.retryAfterMs;
  }

  /** A rate-limit refusal (E0501 requests, E0503 orders): nothing was done, retry after retryAfterMs. */
  get isRateLimit(): boolean {
    return this.code === 'E0501' || this.code === 'E0503';
  }
}

/**
 * gateway: a proxy in front of the venue (502, 503, 504) answered in its place, after passing the request on or not.
 * unreadable: a success answered with a body that is not the API's record (a proxy's page, a newer venue).
 * venue_fault: the venue answered E0901, a fault inside the command, which keeps what the command did before it.
 */
export type UnknownOutcomeReason = 'timeout' | 'connection_lost' | 'gateway' | 'unreadable' | 'venue_fault';

const UNKNOWN_OUTCOME_TEXT: Readonly<Record<UnknownOutcomeReason, string>> = {
  timeout: 'no answer in time',
  connection_lost: 'the connection was lost',
  gateway: "a gateway answered in the venue's place",
  unreadable: "its success answer is not in the API's format",
  venue_fault: 'the venue failed while handling it (E0901_InternalError), keeping what it did before the fault',
};

/** For an order placement: what looking it up by its client_order_id found: no order yet, or no answer. */
export type PlacementLookup = 'not_found' | 'failed';

/** What tells the order a placement made from an older one that used the same client_order_id. */
export interface PlacementIdentity {
  readonly clientOrderId: string;
  readonly productId: string;
  readonly side: OrderSide;
  /** UNIX nanoseconds on this machine's clock, taken before the placement was sent. */
  readonly sentAfterNs: bigint;
  /**
   * Orders already known under the client_order_id when the placement was sent: never its order, however close
   * in time (the skew allowed takes in an order the trader made under the same id seconds before).
   */
  readonly earlierOrderIds: ReadonlySet<string>;
}

/**
 * An order placement whose answer was lost, as it was sent: what the caller looks it up by later
 * (VenueRestClient.lookUpPlacement), on the one clock the placement itself was timed by.
 */
export interface LostPlacement extends PlacementIdentity {
  /**
   * The time (epoch ms) past which the request can no longer reach the venue and be acted on (the client's own
   * timeout for it, and the time let for the venue to act). A lookup made before it that finds no order says
   * nothing yet: the request may still be on its way.
   */
  readonly settlesBy: number;
  /** What the lookup made at once, before the placement was reported unknown, found. */
  readonly lookup: PlacementLookup;
}

export class OutcomeUnknownError extends Error {
  readonly kind = 'outcome_unknown' as const;
  /** Set for an order placement, so the caller can find the order later. */
  readonly clientOrderId: string | undefined;
  /** Set for an order placement over REST: what was sent and when, for looking it up again. */
  readonly placement: LostPlacement | undefined;

  constructor(
    /** "POST /api/v1/orders", "create_order". */
    readonly operation: string,
    readonly reason: UnknownOutcomeReason,
    /** The order's client_order_id, or the whole placement where it is known. */
    sent?: string | LostPlacement,
  ) {
    super(`${operation}: ${UNKNOWN_OUTCOME_TEXT[reason]}; the venue may or may not have acted on it`);
    this.name = 'OutcomeUnknownError';
    this.placement = typeof sent === 'object' ? sent : undefined;
    this.clientOrderId = typeof sent === 'object' ? sent.clientOrderId : sent;
  }

  /** What went wrong, without what it may have done: for a read, whose loss changed nothing at the venue. */
  get lostAnswer(): string {
    return `${this.operation}: ${UNKNOWN_OUTCOME_TEXT[this.reason]}`;
  }
}

export class VenueUnreachableError extends Error {
  readonly kind = 'unreachable' as const;
  constructor(
    readonly operation: string,
    /** The system's error code, e.g. ECONNREFUSED (ETIMEDOUT, ECONNRESET for an order given up on). */
    readonly systemCode: string,
  ) {
    super(`${operation}: the venue cannot be reached (${systemCode}); nothing reached it`);
    this.name = 'VenueUnreachableError';
  }
}

export class VenueProtocolError extends Error {
  readonly kind = 'protocol' as const;
  constructor(
    readonly operation: string,
    detail: string,
  ) {
    super(`${operation}: the venue's answer is not in the API's format (${detail})`);
    this.name = 'VenueProtocolError';
  }
}

/** The reference a status stands for when the answer names none (or one this build does not know). */
function refForStatus(status: number, wireCode: string | undefined): ErrorRef {
  if (wireCode === 'AUTH_REQUIRED') return 'E0001_AuthRequired';
  if (wireCode === 'INSUFFICIENT_SCOPE') return 'E0004_InsufficientScope';
  switch (status) {
    case 400:
      return 'E0101_InvalidArgument';
    case 401:
      return 'E0001_AuthRequired';
    case 403:
      return 'E0003_PermissionDenied';
    case 404:
      return 'E0105_RouteNotFound';
    case 409:
      // The interface names 409 only as its conflict (7.4: insufficient balance, position limit), never a failure;
      // a gRPC-style AlreadyExists is the one conflict of another kind a venue can name without a reference.
      return wireCode === 'AlreadyExists' ? 'E0303_DuplicateClientOrderId' : 'E0201_InsufficientBalance';
    case 413:
      return 'E0103_BodyTooLarge';
    case 415:
      return 'E0106_UnsupportedMediaType';
    case 429:
      return 'E0501_RateLimitExceeded';
    case 503:
      return 'E0902_ServiceUnavailable';
    default:
      return 'E0901_InternalError';
  }
}

function fromMessage(message: string, status: number, wireCode: string | undefined, extra: { wsCode?: number; retryAfterMs?: number }): VenueError {
  const parsed = parseErrorMessage(message);
  const known = parsed === undefined ? undefined : findVenueErrorRecord(parsed.ref);
  // A 409 without a reference may carry 7.4's text (several conflicts share the status): the text names the
  // reference. Any other status, and its wire code, already says more than a text shared by several references.
  const byText = status === 409 ? refOfWsMessage(message) : undefined;
  const record = known ?? errorRecord(byText ?? refForStatus(status, wireCode));
  return new VenueError({
    ref: parsed?.ref ?? record.ref,
    description: parsed?.description ?? message,
    record,
    httpStatus: status,
    ...extra,
  });
}

/**
 * A Retry-After longer than this is taken as this: one of years (a gateway that mangles the header, a venue counting
 * in milliseconds) would close a budget for years, and is more than any timer holds.
 */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/** Retry-After is whole seconds or an HTTP date (RFC 9110 10.2.3), at most MAX_RETRY_AFTER_MS. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, at - nowMs), MAX_RETRY_AFTER_MS);
}

/**
 * A failed REST answer, whichever of the interface's two error shapes it has (7.1), or none. A 502, 503 or 504 in
 * neither shape comes from a gateway in front of the venue (the venue answers 503 only with its E0902 body, and
 * never the others): it gave up waiting on the venue, or lost its connection to it, possibly after the request was
 * passed on (Envoy's 503 "disconnect/reset before headers"). Read as a refusal it would tell the trader an order
 * that may be live was not placed, and read as E0902 ("did nothing") it had the order sent again, so it is an
 * unknown outcome of `operation`.
 */
export function failureFromResponse(operation: string, status: number, body: unknown, retryAfter: string | null): VenueError | OutcomeUnknownError {
  const retryAfterMs = parseRetryAfter(retryAfter, Date.now());
  const extra = retryAfterMs === undefined ? {} : { retryAfterMs };
  const object = ErrorResponseSchema.safeParse(body);
  if (object.success) return fromMessage(object.data.error.message, status, object.data.error.code, extra);
  const generic = GenericErrorResponseSchema.safeParse(body);
  if (generic.success) return fromMessage(generic.data.message, status, undefined, extra);
  if (status === 502 || status === 503 || status === 504) return new OutcomeUnknownError(operation, 'gateway');
  const record = errorRecord(refForStatus(status, undefined));
  return new VenueError({ ref: record.ref, description: `HTTP ${status}`, record, httpStatus: status, ...extra });
}

/** A WebSocket error event: its message names the reference, its integer code is one of 7.4's. */
export function venueErrorFromWsEvent(event: { readonly message: string; readonly code: number }): VenueError {
  const parsed = parseErrorMessage(event.message);
  // A venue may send 7.4's text alone ("insufficient balance"): the text names the reference, else the code.
  const record = (parsed === undefined ? undefined : findVenueErrorRecord(parsed.ref)) ?? errorRecord(refOfWsMessage(event.message) ?? refForWsCode(event.code));
  return new VenueError({
    ref: parsed?.ref ?? record.ref,
    description: parsed?.description ?? event.message,
    record,
    httpStatus: record.http_status,
    wsCode: event.code,
  });
}

function refForWsCode(code: number): ErrorRef {
  switch (code) {
    case 400:
      return 'E0101_InvalidArgument';
    case 401:
      return 'E0001_AuthRequired';
    case 403:
      return 'E0004_InsufficientScope';
    case 404:
      return 'E0301_OrderNotFound';
    case 409:
      // 7.4: "conflict (insufficient balance, position limit)"; the venue's own text stays the description.
      return 'E0201_InsufficientBalance';
    default:
      return 'E0901_InternalError';
  }
}
