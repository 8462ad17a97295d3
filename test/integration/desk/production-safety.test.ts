// What keeps Production apart from the other environments, against the real embedded venue (standing in for
// Production: same API, nothing real traded) and the real keychain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDesk, type TestDesk } from './open-desk';

let t: TestDesk;

beforeAll(async () => {
  t = await openTestDesk();
  await t.desk.whenLive();
});

afterAll(async () => {
  await t.close();
});

async function localAddresses(): Promise<{ baseUrl: string; wsUrl: string }> {
  const local = (await t.call('environments.list', {})).environments.find((e) => e.id === 'local');
  return { baseUrl: local?.baseUrl ?? '', wsUrl: local?.wsUrl ?? '' };
}

async function onProduction(): Promise<void> {
  // localhost, not 127.0.0.1: the same venue, at an address of its own.
  const { baseUrl, wsUrl } = await localAddresses();
  await t.call('environments.configure', { id: 'production', baseUrl: baseUrl.replace('127.0.0.1', 'localhost'), wsUrl: wsUrl.replace('127.0.0.1', 'localhost') });
  await t.call('environments.switch', { id: 'production' });
  if ((await t.call('keys.list', { environment: 'production' })).length === 0) {
    const boot = await t.bootstrap();
    await t.call('keys.import', { environment: 'production', api_key: boot.api_key, api_secret: boot.api_secret, user_id: boot.user_id });
  }
  await t.desk.whenLive();
}

async function backToLocal(): Promise<void> {
  await t.call('environments.switch', { id: 'local' });
  await t.desk.whenLive();
}

describe('an order confirmed for one environment', () => {
  const order = { product_id: 'BTC-VND', side: 'BUY' as const, limit_price: '2400000000', base_size: '0.001', override_checks: true };

  it('is not sent to Production when the desk switched there after the trader confirmed it on Local', async () => {
    await t.call('settings.update', { confirmOrders: { local: true } });
    try {
      const held = await t.call('orders.place', { ...order, environment: 'local' });
      expect(held.status).toBe('held');
      // The dialog is still open on Local's order when the desk goes to Production (another window, a menu).
      await onProduction();
      const before = await t.call('orders.active', {});
      expect(await t.refusal('orders.place', { ...order, environment: 'local', confirmed: 'local' })).toMatch(/^E0101_InvalidArgument: .*sent this order on Local.*on Production: it was not sent/);
      // A confirmation for Local on an order named for Production is no confirmation for Production either.
      expect(await t.refusal('orders.place', { ...order, environment: 'production', confirmed: 'local' })).toMatch(/^E0101_InvalidArgument: .*confirmed this order for Local.*on Production: it was not sent/);
      expect((await t.call('orders.active', {})).length).toBe(before.length);
      // Confirmed for Production, it goes.
      const placed = await t.call('orders.place', { ...order, environment: 'production', confirmed: 'production' });
      expect(placed.status).toBe('placed');
      if (placed.status === 'placed') await t.call('orders.cancel', { environment: 'production', order_id: placed.order.order_id });
    } finally {
      await t.call('settings.update', { confirmOrders: { local: false } });
      await backToLocal();
    }
  });

  it('asks Production for its own confirmation, naming it', async () => {
    await onProduction();
    try {
      const held = await t.call('orders.place', { ...order, environment: 'production' });
      expect(held).toEqual({ status: 'held', issues: [{ check: 'confirmation', message: 'Production: confirm this order before it is sent' }] });
    } finally {
      await backToLocal();
    }
  });
});

describe('the addresses of Development and Production', () => {
  it('refuses Development at Production\'s venue, and Production at Development\'s: keys and orders would go to the wrong one', async () => {
    await t.call('environments.configure', { id: 'production', baseUrl: 'https://api.nova.example/', wsUrl: 'wss://api.nova.example/ws' });
    // The same venue however it is written: a path, a default port, the case of the host.
    expect(await t.refusal('environments.configure', { id: 'development', baseUrl: 'https://API.nova.example:443/v1', wsUrl: 'wss://dev.nova.example/ws' })).toMatch(/^E0101_InvalidArgument: baseUrl: .*Production/);
    expect(await t.refusal('environments.configure', { id: 'development', baseUrl: 'https://dev.nova.example', wsUrl: 'wss://api.nova.example/stream' })).toMatch(/^E0101_InvalidArgument: wsUrl: .*Production/);
    expect((await t.call('environments.list', {})).environments.find((e) => e.id === 'development')?.baseUrl).toBe('');
    await t.call('environments.configure', { id: 'development', baseUrl: 'https://dev.nova.example', wsUrl: 'wss://dev.nova.example/ws' });
    expect(await t.refusal('environments.configure', { id: 'production', baseUrl: 'https://dev.nova.example', wsUrl: 'wss://api.nova.example/ws' })).toMatch(/^E0101_InvalidArgument: baseUrl: .*Development/);
  });
});

describe('a key created on Production', () => {
  it('is created only once the trader confirmed it for Production', async () => {
    await onProduction();
    try {
      const before = (await t.call('keys.list', {})).length;
      expect(await t.refusal('keys.create', { environment: 'production', name: 'unasked', use: false })).toMatch(/^E0101_InvalidArgument: .*Production.*confirm/);
      expect(await t.refusal('keys.create', { environment: 'local', name: 'asked on Local', use: false, confirmed: 'local' })).toMatch(/^E0101_InvalidArgument: environment: the trader made this key on Local, but the desk is on Production/);
      expect((await t.call('keys.list', {})).length).toBe(before);
      const created = await t.call('keys.create', { environment: 'production', name: 'asked', use: false, confirmed: 'production' });
      expect(created.key).toMatchObject({ environment: 'production', name: 'asked' });
    } finally {
      await backToLocal();
    }
  });
});

describe('cancel all asked on one environment', () => {
  it('cancels nothing once the desk is on another, and cancels on the one it names', async () => {
    await onProduction();
    try {
      const placed = await t.call('orders.place', { environment: 'production', product_id: 'BTC-VND', side: 'BUY', limit_price: '2400000000', base_size: '0.001', override_checks: true, confirmed: 'production' });
      expect(placed.status).toBe('placed');
      // A Cancel all clicked on Local (a window, the menu's question) arriving after the switch to Production.
      expect(await t.refusal('orders.cancelAll', { environment: 'local' })).toMatch(/^E0101_InvalidArgument: environment: .*cancel all on Local, but the desk is on Production: nothing was cancelled/);
      expect((await t.call('orders.active', {})).length).toBeGreaterThan(0);
      expect((await t.call('orders.cancelAll', { environment: 'production' })).cancelRequested).toBeGreaterThan(0);
      expect(await t.call('orders.active', {})).toEqual([]);
    } finally {
      await backToLocal();
    }
  });
});

describe('a bulk cancel asked on one environment', () => {
  it('cancels nothing once the desk is on another, by product or by client order id, and cancels on the one it names', async () => {
    await onProduction();
    try {
      const placed = await t.call('orders.place', { environment: 'production', product_id: 'BTC-VND', side: 'BUY', limit_price: '2400000000', base_size: '0.001', override_checks: true, confirmed: 'production', client_order_id: 'bulk-asked-on-local' });
      expect(placed.status).toBe('placed');
      const open = (await t.call('orders.active', {})).length;
      // Asked on Local (a window, a script through the bridge), arriving after the switch to Production.
      for (const selection of [{ product_ids: ['BTC-VND'] }, { client_order_ids: ['bulk-asked-on-local'] }]) {
        expect(await t.refusal('orders.cancelBulk', { ...selection, environment: 'local' })).toMatch(/^E0101_InvalidArgument: environment: the trader asked to cancel these orders on Local, but the desk is on Production: nothing was cancelled/);
      }
      // One order by its client order id, which Local may hold too.
      expect(await t.refusal('orders.cancel', { client_order_id: 'bulk-asked-on-local', environment: 'local' })).toMatch(/^E0101_InvalidArgument: environment: the trader asked to cancel this order on Local, but the desk is on Production: it was not cancelled/);
      expect((await t.call('orders.active', {})).length).toBe(open);
      const cancelled = await t.call('orders.cancelBulk', { product_ids: ['BTC-VND'], environment: 'production' });
      expect(cancelled.cancelRequested.length).toBeGreaterThan(0);
      expect(await t.call('orders.active', {})).toEqual([]);
    } finally {
      await backToLocal();
    }
  });
});

describe('a key used, removed or revoked from a row of one environment', () => {
  const listed = async (environment: 'local' | 'production'): Promise<string[]> => (await t.call('keys.list', { environment })).map((k) => k.apiKey);

  it('does nothing once the desk is on another, though the same key is stored for both', async () => {
    const boot = await t.bootstrap();
    // The local user's key, stored for Production too (Production stands in at the same venue): one key string, two environments.
    await onProduction();
    try {
      expect(await listed('production')).toContain(boot.api_key);
      expect(await listed('local')).toContain(boot.api_key);
      const before = await t.call('connection.status', {});
      // Clicks made on Local's rows, arriving after the switch to Production.
      expect(await t.refusal('keys.forget', { environment: 'local', api_key: boot.api_key })).toMatch(/^E0101_InvalidArgument: environment: the trader asked to remove a key of Local, but the desk is on Production: nothing was removed/);
      expect(await t.refusal('keys.use', { environment: 'local', api_key: boot.api_key })).toMatch(/^E0101_InvalidArgument: environment: the trader chose a key to trade with on Local, but the desk is on Production: no key was changed/);
      expect(await t.refusal('keys.revoke', { environment: 'local', api_key: boot.api_key })).toMatch(/^E0101_InvalidArgument: environment: the trader asked to revoke a key of Local, but the desk is on Production: nothing was revoked/);
      expect(await listed('production')).toContain(boot.api_key);
      expect(await listed('local')).toContain(boot.api_key);
      expect(await t.call('connection.status', {})).toMatchObject({ environment: 'production', apiKey: before.apiKey });
    } finally {
      await backToLocal();
    }
    // And a Production row's Remove arriving once the desk is back on Local removes neither.
    expect(await t.refusal('keys.forget', { environment: 'production', api_key: boot.api_key })).toMatch(/^E0101_InvalidArgument: environment: .*remove a key of Production, but the desk is on Local: nothing was removed/);
    expect(await listed('production')).toContain(boot.api_key);
    expect(await listed('local')).toContain(boot.api_key);
  });

  it('acts on the environment it names, and on that one alone', async () => {
    const boot = await t.bootstrap();
    await onProduction();
    try {
      await t.call('keys.forget', { environment: 'production', api_key: boot.api_key });
      expect(await listed('production')).not.toContain(boot.api_key);
      expect(await listed('local')).toContain(boot.api_key);
    } finally {
      await backToLocal();
    }
  });
});

// Last: it leaves Development configured at Local's venue.
describe('an order sent on one environment', () => {
  it('is not sent once the desk is on another, though that one asks for no confirmation', async () => {
    // Development at Local's venue: an order filled in on Local, arriving after a switch that asks nothing.
    const { baseUrl, wsUrl } = await localAddresses();
    await t.call('environments.configure', { id: 'development', baseUrl, wsUrl });
    await t.call('environments.switch', { id: 'development' });
    try {
      if ((await t.call('keys.list', { environment: 'development' })).length === 0) {
        const boot = await t.bootstrap();
        await t.call('keys.import', { environment: 'development', api_key: boot.api_key, api_secret: boot.api_secret, user_id: boot.user_id });
      }
      await t.desk.whenLive();
      const before = await t.call('orders.active', {});
      const order = { product_id: 'BTC-VND', side: 'BUY' as const, limit_price: '2400000000', base_size: '0.001', override_checks: true };
      expect(await t.refusal('orders.place', { ...order, environment: 'local' })).toMatch(/^E0101_InvalidArgument: environment: the trader sent this order on Local, but the desk is on Development: it was not sent/);
      expect((await t.call('orders.active', {})).length).toBe(before.length);
      // A key made from a window still on Local is not made on Development either.
      const keys = await t.call('keys.list', { environment: 'development' });
      expect(await t.refusal('keys.create', { environment: 'local', name: 'made on Local' })).toMatch(/^E0101_InvalidArgument: environment: the trader made this key on Local, but the desk is on Development: no key was created/);
      expect(await t.call('keys.list', { environment: 'development' })).toEqual(keys);
    } finally {
      await backToLocal();
    }
  });
});
