// Issue 2's ledger: maker and taker fee rates per account. POST /sim/users gives a user its own tier; every
// fill charges each side its own rate, and the fee account takes exactly the fees, so totals are conserved.
import { describe, expect, it } from 'vitest';
import { FEE_ACCOUNT_ID } from '../../../src-main/venue/exchange/exchange';
import { balanceOf, expectError, expectOk, getAccount, getOrder, limit, placeOrder, px, useVenue, type TestVenue, type Trader } from '../harness';

const venue = useVenue();

async function traderWithRates(v: TestVenue, balances: Record<string, string>, rates: Record<string, unknown>): Promise<Trader> {
  const reply = expectOk(
    await v.call<{ user_id: string; api_key: { api_key: string; api_secret: string } }>('POST', '/sim/users', { key: v.admin.creds, body: { balances, ...rates } }),
  );
  return { userId: reply.user_id, creds: { key: reply.api_key.api_key, secret: reply.api_key.api_secret } };
}

describe('per-account fee rates', () => {
  it('charge each side of a trade its own maker or taker rate, shown on its account and its fills', async () => {
    const v = venue();
    const maker = await traderWithRates(v, { BTC: '1' }, { maker_fee_rate: '0.0004', taker_fee_rate: '0.0025' });
    const taker = await traderWithRates(v, { VND: '1000000000' }, { maker_fee_rate: '0', taker_fee_rate: '0.0007' });
    const makerAccount = await getAccount(v, maker);
    expect({ maker: makerAccount.maker_fee_rate, taker: makerAccount.taker_fee_rate }).toEqual({ maker: '0.0004', taker: '0.0025' });

    const { ledger } = v.running.venue.exchange;
    const feesBefore = ledger.balance(FEE_ACCOUNT_ID, 'VND');
    const ask = await placeOrder(v, maker, limit('SELL', px(0), '0.01'));
    const bid = await placeOrder(v, taker, limit('BUY', px(0), '0.01'));
    expect(bid.status).toBe('DONE');
    // 0.01 BTC at 2,500,000,000 VND is a notional of 25,000,000 VND.
    const notional = 25_000_000n;
    const makerFee = (notional * 400n) / 1_000_000n;
    const takerFee = (notional * 700n) / 1_000_000n;
    const [makerFill] = (await getOrder(v, maker, ask.order_id)).trades;
    const [takerFill] = (await getOrder(v, taker, bid.order_id)).trades;
    expect(makerFill?.fee_amount).toBe(String(makerFee));
    expect(takerFill?.fee_amount).toBe(String(takerFee));
    expect(balanceOf(await getAccount(v, maker), 'VND').balance).toBe(notional - makerFee);
    expect(balanceOf(await getAccount(v, taker), 'VND').balance).toBe(1_000_000_000n - notional - takerFee);

    const feesAfter = ledger.balance(FEE_ACCOUNT_ID, 'VND');
    expect(feesAfter.free + feesAfter.locked - feesBefore.free - feesBefore.locked, 'the fee account took exactly both fees').toBe(makerFee + takerFee);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a rate above 10 %', { taker_fee_rate: '0.11' }, 'E0110_ValueOutOfRange'],
    ['a negative rate', { maker_fee_rate: '-0.001' }, 'E0101_InvalidArgument'],
    ['more than 6 decimals', { maker_fee_rate: '0.0000001' }, 'E0101_InvalidArgument'],
    ['a number, not a string', { taker_fee_rate: 0.001 }, 'E0101_InvalidArgument'],
  ])('refuses %s and creates no user', async (_label, rates, ref) => {
    const v = venue();
    const before = [...v.running.venue.exchange.ledger.accountIds()].length;
    expectError(await v.call('POST', '/sim/users', { key: v.admin.creds, body: { balances: { VND: '1000' }, ...rates } }), 400, ref);
    expect([...v.running.venue.exchange.ledger.accountIds()].length).toBe(before);
  });
});
