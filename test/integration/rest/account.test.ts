// GET /accounts/{user_id} (interface 4.9, 2.3), the simulation endpoints (contract), and conservation of every
// asset across a session of mixed trading.
import { describe, expect, it } from 'vitest';
import {
  BTC,
  DECIMALS,
  archivedOrders,
  atoms,
  balanceOf,
  expectAccountRecord,
  expectApiKeyRecord,
  expectError,
  expectOk,
  getAccount,
  limit,
  nanosFromNow,
  notional,
  placeOrder,
  px,
  useVenue,
  type TestVenue,
  type Trader,
} from '../harness';

const venue = useVenue({ cleanBooks: true });

const ASSETS = ['BTC', 'ETH', 'SOL', 'VND'];

describe('GET /accounts/{user_id}', () => {
  it('shows fee rates and a balance for every asset, free + locked = balance', async () => {
    const v = venue();
    const t = await v.newTrader({ BTC: '1.5', VND: '1000000' });
    const account = await getAccount(v, t);
    expect(account).toMatchObject({ id: t.userId, maker_fee_rate: '0.001', taker_fee_rate: '0.002' });
    expect(account.asset_balances.map((b) => b.asset).sort()).toEqual(ASSETS);
    expect(account.asset_balances.find((b) => b.asset === 'BTC')).toEqual({ asset: 'BTC', balance: '1.5', free: '1.5', locked: '0' });
    expect(account.asset_balances.find((b) => b.asset === 'VND')).toEqual({ asset: 'VND', balance: '1000000', free: '1000000', locked: '0' });
    expect(account.asset_balances.find((b) => b.asset === 'ETH')).toEqual({ asset: 'ETH', balance: '0', free: '0', locked: '0' });
    expect(account.stats).toEqual({
      order_stats: { total_orders: '0', total_done_orders: '0', total_open_orders: '0', total_pending_orders: '0', total_accepted_orders: '0' },
      trading_stats: { total_trading_volume: '0' },
    });
  });

  it("the bootstrap local user is funded with at least the contract's balances", async () => {
    const v = venue();
    const account = await getAccount(v, v.admin);
    const minimum: Record<string, string> = { BTC: '10', ETH: '100', SOL: '1000', VND: '10000000000' };
    for (const [asset, amount] of Object.entries(minimum)) {
      expect(balanceOf(account, asset).balance).toBeGreaterThanOrEqual(atoms(amount, DECIMALS[asset] ?? 0));
    }
  });

  it('locks what resting orders hold, and releases it on fills and cancels', async () => {
    const v = venue();
    const t = await v.newTrader({ BTC: '1', VND: '100000000' });
    const counterpart = await v.newTrader({ BTC: '1', VND: '100000000' });

    await placeOrder(v, t, limit('BUY', px(0), '0.01'));
    await placeOrder(v, t, limit('SELL', px(10), '0.02'));
    let account = await getAccount(v, t);
    let vnd = balanceOf(account, 'VND');
    let btc = balanceOf(account, 'BTC');
    // A resting buy holds its notional plus a fee (at least the maker's, at most the taker's rate).
    expect(vnd.locked).toBeGreaterThanOrEqual(25_000_000n + 25_000n);
    expect(vnd.locked).toBeLessThanOrEqual(25_000_000n + 50_000n);
    expect([vnd.balance, vnd.free + vnd.locked]).toEqual([100_000_000n, 100_000_000n]);
    expect([btc.locked, btc.free, btc.balance]).toEqual([2_000_000n, 98_000_000n, 100_000_000n]);

    // 0.004 of the buy fills as maker: 10,000,000 plus a 10,000 maker fee leave the account.
    await placeOrder(v, counterpart, limit('SELL', px(0), '0.004'));
    account = await getAccount(v, t);
    vnd = balanceOf(account, 'VND');
    btc = balanceOf(account, 'BTC');
    expect(vnd.balance).toBe(100_000_000n - 10_010_000n);
    expect(vnd.free + vnd.locked).toBe(vnd.balance);
    expect(vnd.locked).toBeGreaterThanOrEqual(15_000_000n + 15_000n);
    expect(vnd.locked).toBeLessThanOrEqual(15_000_000n + 30_000n);
    expect(btc.balance).toBe(100_400_000n);

    await v.cancelEverything();
    account = await getAccount(v, t);
    expect(balanceOf(account, 'VND')).toEqual({ balance: 89_990_000n, free: 89_990_000n, locked: 0n });
    expect(balanceOf(account, 'BTC')).toEqual({ balance: 100_400_000n, free: 100_400_000n, locked: 0n });
  });

  it('counts orders by state and the traded volume', async () => {
    const v = venue();
    const t = await v.newTrader({ BTC: '1', VND: '100000000' });
    const counterpart = await v.newTrader({ BTC: '1' });
    await placeOrder(v, counterpart, limit('SELL', px(0), '0.01'));

    await placeOrder(v, t, limit('BUY', px(-100), '0.001')); // open
    const canceled = await placeOrder(v, t, limit('BUY', px(-101), '0.001'));
    expectOk(await v.call('DELETE', '/api/v1/order/active', { key: t.creds, query: { order_id: canceled.order_id } })); // done
    await placeOrder(v, t, limit('SELL', px(0), '5')); // rejected: done, never accepted
    await placeOrder(v, t, limit('BUY', px(-102), '0.001', { scheduled_at: nanosFromNow(600_000) })); // pending
    await placeOrder(v, t, limit('BUY', px(0), '0.01')); // filled: done, 25,000,000 traded

    const stats = (await getAccount(v, t)).stats;
    expect(stats).toEqual({
      order_stats: {
        total_orders: '5',
        total_done_orders: '3',
        total_open_orders: '1',
        total_pending_orders: '1',
        total_accepted_orders: '4',
      },
      trading_stats: { total_trading_volume: '25000000' },
    });
  });

  it('a path naming any other user id is 403, even one that does not exist', async () => {
    const v = venue();
    const t = await v.newTrader({});
    expectError(await v.call('GET', '/accounts/someone-else', { key: t.creds }), 403, 'E0003_PermissionDenied');
  });
});

describe('POST /sim/users', () => {
  it('creates a funded user with one trading key (admin only)', async () => {
    const v = venue();
    const reply = await v.call<{ user_id: string; api_key: unknown }>('POST', '/sim/users', {
      key: v.admin.creds,
      body: { balances: { BTC: '1.5', VND: '1000000' } },
    });
    const body = expectOk(reply);
    expect(Object.keys(body).sort()).toEqual(['api_key', 'user_id']);
    const key = expectApiKeyRecord(body.api_key, true);
    expect(key.is_read_only).toBe(false);
    const trader: Trader = { userId: body.user_id, creds: { key: key.api_key, secret: key.api_secret ?? '' } };
    const account = await getAccount(v, trader);
    expect(balanceOf(account, 'BTC').balance).toBe(150_000_000n);
    expect(balanceOf(account, 'VND').balance).toBe(1_000_000n);
    expect(balanceOf(account, 'SOL').balance).toBe(0n);
    expect((await placeOrder(v, trader, limit('SELL', px(100), '0.5'))).status).toBe('ACTIVE');
  });

  it('accepts no balances at all', async () => {
    const v = venue();
    for (const body of [{}, { balances: {} }]) {
      const reply = await v.call<{ user_id: string }>('POST', '/sim/users', { key: v.admin.creds, body });
      expect(typeof expectOk(reply).user_id).toBe('string');
    }
  });

  it('is 403 for a non-admin key and 401 without one', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '1' });
    expectError(await v.call('POST', '/sim/users', { key: t.creds, body: { balances: { VND: '1' } } }), 403, 'E0003_PermissionDenied');
    expectError(await v.call('POST', '/sim/users', { body: { balances: { VND: '1' } } }), 401, 'E0001_AuthRequired', 'AUTH_REQUIRED');
  });

  it.each([
    ['balances is an array', { balances: [['BTC', '1']] }],
    ['balances is a string', { balances: 'BTC=1' }],
    ['an unknown asset', { balances: { DOGE: '1' } }],
    ['an amount that is a number', { balances: { BTC: 1 } }],
    ['a malformed amount', { balances: { BTC: '1.5.5' } }],
    ['a negative amount', { balances: { BTC: '-1' } }],
    ['more decimals than the asset has', { balances: { VND: '1.5' } }],
  ])('refuses a body with %s: 400', async (_what, body) => {
    const v = venue();
    const reply = await v.call('POST', '/sim/users', { key: v.admin.creds, body });
    expectError(reply, 400, 'E0101_InvalidArgument');
  });
});

describe('POST /sim/deposit', () => {
  it('adds to a user’s balance and answers with their account (admin only)', async () => {
    const v = venue();
    const t = await v.newTrader({ VND: '100' });
    const reply = await v.call<{ account: unknown }>('POST', '/sim/deposit', { key: v.admin.creds, body: { user_id: t.userId, asset: 'VND', amount: '900' } });
    const account = expectAccountRecord(expectOk(reply).account);
    expect(account.id).toBe(t.userId);
    expect(balanceOf(account, 'VND').balance).toBe(1000n);
    expect(balanceOf(await getAccount(v, t), 'VND').free).toBe(1000n);

    expectError(await v.call('POST', '/sim/deposit', { key: t.creds, body: { user_id: t.userId, asset: 'VND', amount: '900' } }), 403, 'E0003_PermissionDenied');
    expect(balanceOf(await getAccount(v, t), 'VND').balance).toBe(1000n);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no user_id', { asset: 'VND', amount: '1' }, 'E0101_InvalidArgument'],
    ['a user_id that is a number', { user_id: 7, asset: 'VND', amount: '1' }, 'E0101_InvalidArgument'],
    ['no asset', { user_id: '', amount: '1' }, 'E0101_InvalidArgument'],
    ['an unknown asset', { user_id: '', asset: 'DOGE', amount: '1' }, 'E0101_InvalidArgument'],
    ['amount 0', { user_id: '', asset: 'VND', amount: '0' }, 'E0110_ValueOutOfRange'],
    ['a negative amount', { user_id: '', asset: 'VND', amount: '-5' }, 'E0101_InvalidArgument'],
    ['an amount that is a number', { user_id: '', asset: 'VND', amount: 5 }, 'E0101_InvalidArgument'],
  ])('refuses a body with %s: 400', async (_what, body, ref) => {
    const v = venue();
    const t = await v.newTrader({});
    // An empty user_id in the table stands for the new trader's id.
    const sent = body.user_id === '' ? { ...body, user_id: t.userId } : body;
    expectError(await v.call('POST', '/sim/deposit', { key: v.admin.creds, body: sent }), 400, ref);
    expect(balanceOf(await getAccount(v, t), 'VND').balance).toBe(0n);
  });

  it('is 404 E0304 for an unknown user', async () => {
    const v = venue();
    const reply = await v.call('POST', '/sim/deposit', { key: v.admin.creds, body: { user_id: 'f0f0f0f0-0000-4000-8000-000000000000', asset: 'VND', amount: '1' } });
    expectError(reply, 404, 'E0304_UserNotFound');
  });

  it('is 400 E0101 for the fee account: its balance is the fees charged, which /sim/reset empties', async () => {
    const v = venue();
    const reply = await v.call('POST', '/sim/deposit', { key: v.admin.creds, body: { user_id: '00000000-0000-0000-0000-000000000000', asset: 'BTC', amount: '1' } });
    expectError(reply, 400, 'E0101_InvalidArgument');
  });
});

describe('conservation', () => {
  /** Every asset each trader received from outside: their starting balances and deposits. */
  type Ledger = Map<Trader, Map<string, bigint>>;

  async function fund(v: TestVenue, ledger: Ledger, balances: Record<string, string>): Promise<Trader> {
    const t = await v.newTrader(balances);
    ledger.set(t, new Map(Object.entries(balances).map(([asset, amount]) => [asset, atoms(amount, DECIMALS[asset] ?? 0)])));
    return t;
  }

  async function deposit(v: TestVenue, ledger: Ledger, t: Trader, asset: string, amount: string): Promise<void> {
    expectOk(await v.call('POST', '/sim/deposit', { key: v.admin.creds, body: { user_id: t.userId, asset, amount } }));
    const own = ledger.get(t);
    own?.set(asset, (own.get(asset) ?? 0n) + atoms(amount, DECIMALS[asset] ?? 0));
  }

  it('after mixed trading, each balance is deposits plus fills minus fees, and every asset sums to its deposits plus fees', async () => {
    const v = venue();
    const ledger: Ledger = new Map();
    const alice = await fund(v, ledger, { BTC: '2', VND: '500000000' });
    const bob = await fund(v, ledger, { BTC: '1', ETH: '3', VND: '300000000' });
    const carol = await fund(v, ledger, { ETH: '2', VND: '900000000' });
    const ETH = 'ETH-VND';

    await placeOrder(v, alice, limit('SELL', px(0), '0.05'));
    await placeOrder(v, alice, limit('SELL', px(3), '0.03'));
    await placeOrder(v, bob, limit('BUY', px(-2), '0.04'));
    await placeOrder(v, carol, limit('BUY', px(1), '0.0123')); // takes part of alice's best ask
    await placeOrder(v, carol, { product_id: BTC, side: 'BUY', type: 'MARKET', quote_size: '33333333' });
    await placeOrder(v, bob, { product_id: BTC, side: 'SELL', type: 'MARKET', base_size: '0.0177' });
    await placeOrder(v, alice, limit('BUY', px(-2), '0.01', { time_in_force: 'IOC' }));
    await deposit(v, ledger, bob, 'VND', '12345');
    await placeOrder(v, bob, { product_id: ETH, side: 'SELL', limit_price: '90001000', base_size: '1.234' });
    await placeOrder(v, carol, { product_id: ETH, side: 'SELL', limit_price: '90000000', base_size: '0.5' });
    await placeOrder(v, alice, { product_id: ETH, side: 'BUY', limit_price: '90001000', base_size: '1.111' });
    await placeOrder(v, alice, { product_id: ETH, side: 'BUY', type: 'MARKET', quote_size: '7777777' });
    await placeOrder(v, carol, limit('SELL', px(-3), '0.001', { time_in_force: 'FOK' })); // nothing to sell: rejected
    await placeOrder(v, bob, limit('BUY', px(3), '0.02', { time_in_force: 'FOK' }));
    await placeOrder(v, carol, limit('BUY', px(0), '0.01', { post_only: true }));
    // Some orders stay resting: their holds are part of the balances.

    const totals = new Map<string, bigint>(ASSETS.map((a) => [a, 0n]));
    let fees = 0n;
    let trades = 0;
    for (const [trader, deposits] of ledger) {
      const expected = new Map<string, bigint>(ASSETS.map((a) => [a, deposits.get(a) ?? 0n]));
      for (const order of await archivedOrders(v, trader, { limit: '1000' })) {
        const base = order.product_id.split('-')[0] ?? '';
        const sign = order.side === 'BUY' ? 1n : -1n;
        for (const trade of order.trades) {
          trades += 1;
          const quote = notional(trade.price, trade.size);
          const fee = atoms(trade.fee_amount, DECIMALS.VND ?? 0);
          expect(trade.fee_asset).toBe('VND');
          expected.set(base, (expected.get(base) ?? 0n) + sign * atoms(trade.size, DECIMALS[base] ?? 8));
          expected.set('VND', (expected.get('VND') ?? 0n) - sign * quote - fee);
          fees += fee;
        }
      }
      const account = await getAccount(v, trader);
      for (const asset of ASSETS) {
        const b = balanceOf(account, asset);
        expect(b.free + b.locked, `${asset} of ${trader.userId}`).toBe(b.balance);
        expect(b.balance, `${asset} of ${trader.userId}`).toBe(expected.get(asset));
        totals.set(asset, (totals.get(asset) ?? 0n) + b.balance);
      }
    }
    expect(trades).toBeGreaterThan(8);
    expect(fees).toBeGreaterThan(0n);

    for (const asset of ASSETS) {
      let deposited = 0n;
      for (const d of ledger.values()) deposited += d.get(asset) ?? 0n;
      expect((totals.get(asset) ?? 0n) + (asset === 'VND' ? fees : 0n), asset).toBe(deposited);
    }
  });
});
