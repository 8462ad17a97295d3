// A user id is a UUID, and a UUID is the same whatever the case of its hex digits (RFC 9562 4: case-insensitive on
// input), as order ids already are everywhere (DELETE /api/v1/order/active, GET /api/v1/order/archived, bulk
// cancel). A user id written in capitals named another account (403) or no user (404).
import { describe, expect, it } from 'vitest';
import { expectOk, useVenue } from '../harness';

const venue = useVenue();

describe('a user id written in capitals', () => {
  it('reads the caller’s own account', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '5' });
    const reply = expectOk(await v.call<{ account: { id: string } }>('GET', `/accounts/${t.userId.toUpperCase()}`, { key: t.creds }));
    expect(reply.account.id).toBe(t.userId);
  });

  it('is funded by /sim/deposit', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '5' });
    const reply = expectOk(
      await v.call<{ account: { id: string; asset_balances: { asset: string; balance: string }[] } }>('POST', '/sim/deposit', {
        key: v.admin.creds,
        body: { user_id: t.userId.toUpperCase(), asset: 'VND', amount: '7' },
      }),
    );
    expect(reply.account.id).toBe(t.userId);
    expect(reply.account.asset_balances.find((b) => b.asset === 'VND')?.balance).toBe('12');
  });
});
