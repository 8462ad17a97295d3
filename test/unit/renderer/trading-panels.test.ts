/**
 * The trader's panels drawn from a store (react-dom/server, so no browser): what a trader reads in them. zustand's
 * hook reads a store's initial state when drawn on a server; here it reads the current one, as a window does.
 */
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus, StoredKey } from '../../../src-shared/ipc/contract';
import type { Account, Order } from '../../../src-shared/protocol/records';
import { AccountPanel } from '../../../src-renderer/features/account/AccountPanel';
import { FillsPanel } from '../../../src-renderer/features/blotters/FillsPanel';
import { OpenOrdersPanel } from '../../../src-renderer/features/blotters/OpenOrdersPanel';
import { OrderHistoryPanel } from '../../../src-renderer/features/blotters/OrderHistoryPanel';
import { ORDER_CSV } from '../../../src-renderer/features/blotters/order-columns';
import { toCsv } from '../../../src-renderer/ui/csv';
import { KeysPanel } from '../../../src-renderer/features/keys/KeysPanel';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { restingOrder } from './fixtures';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

vi.mock('../../../src-renderer/stores/fill-alerts', () => ({ fillSoundOn: () => false, setFillSound: () => undefined }));

const order = (id: string, patch: Partial<Order> = {}): Order => restingOrder(id, patch);

const ACCOUNT: Account = {
  id: 'u', maker_fee_rate: '0.001', taker_fee_rate: '0.002',
  asset_balances: [{ asset: 'BTC', balance: '1.5', free: '1', locked: '0.5' }],
  stats: {
    order_stats: { total_orders: '3', total_done_orders: '2', total_open_orders: '1', total_pending_orders: '0', total_accepted_orders: '3' },
    trading_stats: { total_trading_volume: '5' },
  },
};

const connection = (state: ConnectionStatus['state']): ConnectionStatus => ({ environment: 'local', production: false, state, apiKey: 'k', userId: 'u', detail: '' });

const draw = <P extends object>(panel: FunctionComponent<P>, props: P): string => renderToStaticMarkup(createElement(panel, props));

beforeEach(() => {
  useDesk.setState({
    account: ACCOUNT, accountProblem: undefined, connection: connection('live'), openOrders: { a: order('a') },
    history: [order('h', { status: 'DONE', done_reason: 'FILLED' })], fills: [], notices: [],
  });
});

describe('the trader\'s panels while the connection is not live', () => {
  const panels: Array<[string, () => string]> = [
    ['Account', () => draw(AccountPanel, {})],
    ['Open orders', () => draw(OpenOrdersPanel, { productId: 'BTC-VND', height: 200 })],
    ['Order history', () => draw(OrderHistoryPanel, { panelId: 'history', height: 200 })],
    ['Fills', () => draw(FillsPanel, { height: 200 })],
  ];

  it.each(panels)('%s says the orders, fills and balances it shows are stale while the session reconnects', (_title, html) => {
    expect(html()).not.toContain('stale');
    useDesk.setState({ connection: connection('reconnecting') });
    expect(html()).toContain('stale: reconnecting');
    useDesk.setState({ connection: connection('live') });
    expect(html()).not.toContain('stale');
  });

  it('says the balances were not updated when the account read fails, rather than showing the last ones as current', () => {
    useDesk.getState().setAccountProblem('E0501_RateLimitExceeded: too many requests');
    const html = draw(AccountPanel, {});
    expect(html).toContain('1.5');
    expect(html).toContain('E0501_RateLimitExceeded: too many requests');
    useDesk.getState().setAccount(ACCOUNT);
    expect(draw(AccountPanel, {})).not.toContain('E0501');
  });

  it('says the fills were not updated when their read fails', () => {
    useDesk.getState().setFillsProblem('E0501_RateLimitExceeded: too many requests');
    expect(draw(FillsPanel, { height: 200 })).toContain('Not updated, the last read failed: E0501_RateLimitExceeded: too many requests');
    useDesk.getState().setFillsProblem(undefined);
    expect(draw(FillsPanel, { height: 200 })).not.toContain('E0501');
  });
});

describe('the open orders blotter', () => {
  it('names each Cancel by the order it cancels: side, size, product, price and client order id', () => {
    useDesk.setState({
      openOrders: {
        a: order('a'),
        b: order('b', { side: 'SELL', limit_price: '2500000000', base_size: '0.25', client_order_id: '' }),
        m: order('m', { type: 'MARKET', limit_price: '0', base_size: '0', quote_size: '1000000', client_order_id: 'spend' }),
      },
    });
    const html = draw(OpenOrdersPanel, { productId: 'BTC-VND', height: 200 });
    const names = [...html.matchAll(/<button[^>]*aria-label="(Cancel[^"]*)"/g)].map((m) => m[1]);
    expect(names).toEqual(['Cancel BUY 0.1 BTC-VND at 2400000000 (c-a)', 'Cancel SELL 0.25 BTC-VND at 2500000000 (b)', 'Cancel BUY 1000000 quote of BTC-VND at market (spend)']);
  });
});

describe('a stop order in the blotters', () => {
  const stop = order('s', { type: 'STOP', limit_price: '0', status: 'SCHEDULED', order_stop_type: 'STOP_LOSS', stop_trigger_price: '2300000000', side: 'SELL' });

  it('shows the price that triggers it, which a stop-market has instead of a limit', () => {
    useDesk.setState({ openOrders: { s: stop } });
    const html = draw(OpenOrdersPanel, { productId: 'BTC-VND', height: 200 });
    expect(html).toMatch(/<th[^>]*><button[^>]*>Stop<\/button><\/th>/);
    expect(html).toContain('>SL 2\u202f300\u202f000\u202f000</td>');
  });

  it('exports its trigger, stop type, expiry and start', () => {
    const csv = toCsv(ORDER_CSV, [stop]);
    const [header = '', row = ''] = csv.split('\r\n');
    const fields = Object.fromEntries(header.split(',').map((name, i) => [name, row.split(',')[i]]));
    expect(fields).toMatchObject({ order_stop_type: 'STOP_LOSS', stop_trigger_price: '2300000000', expired_at: '', scheduled_at: '' });
  });
});

describe('the API keys panel', () => {
  let tz: string | undefined;
  beforeAll(() => ((tz = process.env.TZ), (process.env.TZ = 'Asia/Ho_Chi_Minh')));
  afterAll(() => void (tz === undefined ? delete process.env.TZ : (process.env.TZ = tz)));

  const key = (apiKey: string, expiresLocal: string): StoredKey => ({
    environment: 'local', apiKey, name: apiKey, readOnly: false, createdAt: '1', origin: 'created', active: false, storedIn: 'keychain',
    expiredAt: (BigInt(new Date(expiresLocal).getTime()) * 1_000_000n).toString(),
  });

  it('shows when a key expires in the local time it was set in, and says which keys have expired', () => {
    // Set in the Create form as 17:00 local (UTC+7): shown as 10:00Z it read as seven hours early.
    useDesk.setState({ keys: [key('later', '2099-06-01T17:00'), key('gone', '2001-06-01T17:00')] });
    const html = draw(KeysPanel, {});
    expect(html).toContain('2099-06-01 17:00');
    expect(html).not.toContain('2099-06-01T10:00');
    expect(html).toMatch(/expired 2001-06-01 17:00/);
    expect(html).not.toMatch(/expired 2099/);
  });
});
