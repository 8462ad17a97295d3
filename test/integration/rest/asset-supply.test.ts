/**
 * Value the tables cannot hold never gets in: every balance is a 64-bit integer of atoms, so the faucet refuses a
 * deposit that would take an asset's total across all accounts past that, before anything changes. And if a
 * commit fails all the same, the venue halts instead of trading on changes the disk does not have.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  balanceOf,
  expectError,
  expectOk,
  expectOrderRecord,
  getAccount,
  limit,
  px,
  startTestVenue,
  type TestVenue,
} from '../harness';

const opened: TestVenue[] = [];
afterEach(async () => {
  for (const v of opened.splice(0)) await v.close();
});

async function fresh(): Promise<TestVenue> {
  const v = await startTestVenue();
  opened.push(v);
  return v;
}

// 2^63 - 1 atoms of an 8-decimal asset.
const MOST_BTC = '92233720368.54775807';

describe('the most of an asset all accounts may hold', () => {
  it('refuses with 400 E0110 a deposit past it, changes nothing, and other traders keep trading', async () => {
    const v = await fresh();
    const alice = await v.newTrader({ BTC: '1', VND: '100000000' });
    const bob = await v.newTrader({ BTC: '1' });
    expectOk(await v.call('POST', '/sim/deposit', { key: v.admin.creds, body: { user_id: bob.userId, asset: 'BTC', amount: '50000000000' } }));

    const refused = await v.call('POST', '/sim/deposit', { key: v.admin.creds, body: { user_id: bob.userId, asset: 'BTC', amount: '50000000000' } });
    expectError(refused, 400, 'E0110_ValueOutOfRange');
    expect(JSON.stringify(refused.body)).toContain(`${MOST_BTC} BTC`);
    expectError(await v.call('POST', '/sim/deposit', { key: v.admin.creds, body: { user_id: alice.userId, asset: 'BTC', amount: '999999999999999999999999999999' } }), 400, 'E0110_ValueOutOfRange');
    expect(balanceOf(await getAccount(v, bob), 'BTC').balance).toBe(50_000_000_001n * 10n ** 8n);

    // Both sides of a trade still commit: before the cap, a refused deposit failed its whole turn's commit.
    const sell = expectOrderRecord(expectOk(await v.call<{ order: unknown }>('POST', '/api/v1/orders', { key: bob.creds, body: limit('SELL', px(), '0.01', { wait: true }) })).order);
    const buy = expectOrderRecord(expectOk(await v.call<{ order: unknown }>('POST', '/api/v1/orders', { key: alice.creds, body: limit('BUY', px(), '0.01', { wait: true }) })).order);
    expect([sell.status, buy.status, buy.done_reason]).toEqual(['ACTIVE', 'DONE', 'FILLED']);

    await v.restart();
    expect(balanceOf(await getAccount(v, alice), 'BTC').balance).toBe(101_000_000n);
    expect(balanceOf(await getAccount(v, bob), 'BTC').balance).toBe(50_000_000_001n * 10n ** 8n - 1_000_000n);
  });

  it('refuses a new simulated user whose funds would pass it, leaving no half-funded account', async () => {
    const v = await fresh();
    const { ledger } = v.running.venue.exchange;
    const before = { vnd: ledger.total('VND'), accounts: [...ledger.accountIds()] };
    const reply = await v.call<{ error: { message: string } }>('POST', '/sim/users', { key: v.admin.creds, body: { balances: { VND: '1000', BTC: '92233720369' } } });
    expectError(reply, 400, 'E0110_ValueOutOfRange');
    expect(reply.body.error.message, 'names the field as the request spelled it').toMatch(/^E0110_ValueOutOfRange: balances\.BTC: /);
    expect({ vnd: ledger.total('VND'), accounts: [...ledger.accountIds()] }).toEqual(before);
  });
});

describe('a commit that fails', () => {
  it('halts the venue: later commands are refused with E0901, the server closes, and a restart has only what was committed', async () => {
    const v = await fresh();
    const bob = await v.newTrader({ BTC: '1' });
    const { venue } = v.running;
    const halted = new Promise<Error>((resolve) => venue.onHalt(resolve));

    // Past the cap by going around the exchange's check: the store refuses the balance, as it would any value a
    // bug let through.
    const failed = venue.run(() => venue.exchange.ledger.deposit(bob.userId, 'BTC', 2n ** 63n));
    await expect(failed).rejects.toThrow(/balances/);
    expect((await halted).message).toMatch(/balances/);
    await expect(venue.run(() => undefined)).rejects.toThrow(/E0901_InternalError: the venue stopped taking commands after a write failed/);
    await expect(fetch(`${v.baseUrl}/products`)).rejects.toThrow();

    await v.restart();
    expect(balanceOf(await getAccount(v, bob), 'BTC').balance).toBe(100_000_000n);
    expectOk(await v.call('POST', '/api/v1/orders', { key: bob.creds, body: limit('SELL', px(), '0.01', { wait: true }) }));
  });
});
