// How the desk reads a WebSocket error from a venue that follows the interface's 7.4 to the letter: an integer
// code and a listed text, with no error reference in the message (the local venue always sends one).
import { describe, expect, it } from 'vitest';
import { failureFromResponse, OutcomeUnknownError, VenueError, venueErrorFromWsEvent } from '../../../src-main/connection/venue-error';

const OP = 'POST /api/v1/orders';

describe('a WebSocket error without a reference', () => {
  it('takes the reference from 7.4’s text, so a refusal is not reported as the venue failing', () => {
    expect(venueErrorFromWsEvent({ code: 409, message: 'insufficient balance' })).toMatchObject({ ref: 'E0201_InsufficientBalance', category: 'trading', description: 'insufficient balance', wsCode: 409 });
    expect(venueErrorFromWsEvent({ code: 409, message: 'order already done' })).toMatchObject({ ref: 'E0302_OrderAlreadyDone', wsCode: 409 });
    expect(venueErrorFromWsEvent({ code: 409, message: 'Post only would match' })).toMatchObject({ ref: 'E0202_PostOnlyWouldMatch' });
    expect(venueErrorFromWsEvent({ code: 400, message: 'invalid price' })).toMatchObject({ ref: 'E0101_InvalidArgument' });
    expect(venueErrorFromWsEvent({ code: 404, message: 'order not found' })).toMatchObject({ ref: 'E0301_OrderNotFound' });
    expect(venueErrorFromWsEvent({ code: 409, message: 'position limit reached' })).toMatchObject({ ref: 'E0210_OrderLimitExceeded' });
  });

  it('falls back on the code: 409 is the interface’s conflict, not an internal error; the text stays the description', () => {
    const conflict = venueErrorFromWsEvent({ code: 409, message: 'something the venue could not do' });
    expect(conflict).toMatchObject({ ref: 'E0201_InsufficientBalance', description: 'something the venue could not do' });
    expect(conflict.ref).not.toBe('E0901_InternalError');
    expect(venueErrorFromWsEvent({ code: 500, message: 'internal error' })).toMatchObject({ ref: 'E0901_InternalError' });
  });

  it('keeps a reference the message names over its text', () => {
    expect(venueErrorFromWsEvent({ code: 409, message: 'E0302_OrderAlreadyDone: order already done (it was filled)' })).toMatchObject({ ref: 'E0302_OrderAlreadyDone', description: 'order already done (it was filled)' });
  });
});

describe('a REST error without a reference', () => {
  it('takes the reference from the text, then the status: a 409 is a conflict, not the venue failing', () => {
    expect(failureFromResponse(OP, 409, { error: { code: 'FailedPrecondition', message: 'order already done' } }, null)).toMatchObject({ ref: 'E0302_OrderAlreadyDone', httpStatus: 409 });
    expect(failureFromResponse(OP, 409, { code: 9, message: 'insufficient balance', details: [] }, null)).toMatchObject({ ref: 'E0201_InsufficientBalance' });
    const conflict = failureFromResponse(OP, 409, { error: { code: 'Aborted', message: 'something the venue could not do' } }, null);
    expect(conflict).toMatchObject({ ref: 'E0201_InsufficientBalance', description: 'something the venue could not do', httpStatus: 409 });
    expect(failureFromResponse(OP, 409, { error: { code: 'AlreadyExists', message: 'that client id is taken' } }, null)).toMatchObject({ ref: 'E0303_DuplicateClientOrderId' });
    expect(failureFromResponse(OP, 409, 'not json', null)).toMatchObject({ ref: 'E0201_InsufficientBalance', description: 'HTTP 409' });
  });

  it('reads other statuses by their wire code and status, not by a text several references share', () => {
    expect(failureFromResponse(OP, 401, { error: { code: 'AUTH_REQUIRED', message: 'authentication failed' } }, null)).toMatchObject({ ref: 'E0001_AuthRequired' });
    expect(failureFromResponse(OP, 400, { error: { code: 'InvalidArgument', message: 'invalid product_id' } }, null)).toMatchObject({ ref: 'E0101_InvalidArgument' });
    expect(failureFromResponse(OP, 404, { error: { code: 'NotFound', message: 'order not found' } }, null)).toMatchObject({ ref: 'E0105_RouteNotFound' });
    expect(failureFromResponse(OP, 500, { error: { code: 'Internal', message: 'boom' } }, null)).toMatchObject({ ref: 'E0901_InternalError' });
  });
});

describe('a 502, 503 or 504', () => {
  it('is a gateway\'s unknown outcome when it is not in the API\'s format, and the venue\'s answer when it is', () => {
    const gateway = failureFromResponse(OP, 504, undefined, null);
    expect(gateway).toBeInstanceOf(OutcomeUnknownError);
    expect(gateway).toMatchObject({ operation: OP, reason: 'gateway' });
    expect(failureFromResponse(OP, 502, { html: true }, null)).toBeInstanceOf(OutcomeUnknownError);
    const venue = failureFromResponse(OP, 502, { error: { code: 'Internal', message: 'E0901_InternalError: boom' } }, null);
    expect(venue).toBeInstanceOf(VenueError);
    expect(venue).toMatchObject({ ref: 'E0901_InternalError', httpStatus: 502 });
    // The venue's own 503 carries its E0902 body (and Retry-After); one in neither shape is a gateway's, which
    // may have passed the request on (Envoy's "reset before headers"): E0902's "did nothing" would resend an order.
    expect(failureFromResponse(OP, 503, { error: { code: 'Unavailable', message: 'E0902_ServiceUnavailable: the venue is starting' } }, '2')).toMatchObject({ ref: 'E0902_ServiceUnavailable', retryAfterMs: 2000 });
    expect(failureFromResponse(OP, 503, undefined, '2')).toMatchObject({ operation: OP, reason: 'gateway' });
    expect(failureFromResponse(OP, 503, undefined, '2')).toBeInstanceOf(OutcomeUnknownError);
  });
});
