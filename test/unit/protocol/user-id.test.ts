// A user id is read where the request's other parameters are: the parsers give it in the venue's spelling (a UUID
// in lowercase, RFC 9562 4), so no route has to remember to lowercase it after them.
import { describe, expect, it } from 'vitest';
import { parseAccountPath, parseSimDepositBody } from '../../../src-shared/protocol/queries';
import { accepted } from './order-helpers';

const UPPER = '0B6F7C1E-3F0A-4C1B-9D2E-5A6B7C8D9E0F';

describe('user ids as the parsers give them', () => {
  it('GET /accounts/{user_id}: a UUID in lowercase, anything else as sent (the route then refuses it as another account)', () => {
    expect(parseAccountPath(UPPER)).toBe(UPPER.toLowerCase());
    expect(parseAccountPath('u-1')).toBe('u-1');
    expect(parseAccountPath('Not-A-UUID')).toBe('Not-A-UUID');
  });

  it('POST /sim/deposit: user_id a UUID in lowercase, another id as sent', () => {
    expect(accepted(parseSimDepositBody({ user_id: UPPER, asset: 'ETH', amount: '1' })).userId).toBe(UPPER.toLowerCase());
    expect(accepted(parseSimDepositBody({ user_id: 'U-1', asset: 'ETH', amount: '1' })).userId).toBe('U-1');
  });
});
