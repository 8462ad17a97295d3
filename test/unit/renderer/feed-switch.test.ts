// The window's store after an environment switch shows only the new venue's data, even when answers asked of the
// old one arrive later. The bridge here is scripted (a main process whose Development answers in 300 ms and whose
// Local answers in 5 ms): the race is in the renderer, and this is how to make it happen every time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';

type Env = 'development' | 'local';
let env: Env = 'development';

const order = (id: string, e: Env, withTrade = false) => ({
  order_id: id, client_order_id: `${e}-${id}`, user_id: 'u', status: 'ACTIVE', done_reason: '', reject_reason: '', product_id: 'BTC-VND', side: 'BUY', type: 'LIMIT',
  time_in_force: 'GTC', post_only: 'false', stp: 'CANCEL_TAKER', order_stop_type: 'STOP_NONE', stop_trigger_price: '0', limit_price: '2400000000', base_size: '0.01', quote_size: '0', exact_quote_size: '0',
  average_fill_price: '0', filled_base_size: '0', filled_quote_size: '0', fee_total: '0', maker_fee_rate: '0.001', taker_fee_rate: '0.002', fee_asset_id: 'VND',
  created_at: '1800000000000000000', updated_at: '1800000000000000000', cancel_requested_at: '0', expired_at: '0', scheduled_at: '0',
  trades: withTrade ? [{ id: `t-${id}`, price: '2400000000', size: '0.001', liquidity_indicator: 'MAKER', time: '1800000000000000000', fee_asset: 'VND', fee_amount: '2400' }] : [],
});
const fill = (id: string, e: Env) => ({ tradeId: `t-${id}`, orderId: id, clientOrderId: `${e}-${id}`, productId: 'BTC-VND', side: 'BUY', price: '2400000000', size: '0.001', liquidity: 'MAKER', feeAsset: 'VND', feeAmount: '2400', time: '1800000000000000000' });
const connection = (e: Env): ConnectionStatus => ({ environment: e, production: false, state: 'live', apiKey: e === 'development' ? 'k-dev' : 'k-local', readOnly: false, detail: '' });
const answers: Record<string, (e: Env) => unknown> = {
  'orders.active': (e) => [order(e === 'development' ? 'D1' : 'L1', e)],
  'orders.history': () => [],
  'orders.fills': (e) => (e === 'development' ? [fill('D1', e)] : [fill('L7', e), fill('L8', e)]),
  'connection.status': (e) => connection(e),
  'keys.list': () => [],
  'market.products': () => [],
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(() => {
  const nova = new Proxy({}, {
    get: (_target, method: string) => () => {
      const e = env;
      const answer = answers[method];
      return sleep(e === 'development' ? 300 : 5).then(() => (answer === undefined ? { ok: false, error: { ref: 'E0902_ServiceUnavailable', message: 'E0902_ServiceUnavailable: not scripted' } } : { ok: true, value: answer(e), session: { environment: e, apiKey: connection(e).apiKey } }));
    },
  });
  (globalThis as Record<string, unknown>).window = { nova, location: { protocol: 'http:', host: 'test' } };
});

afterAll(() => {
  delete (globalThis as Record<string, unknown>).window;
});

describe('the store after an environment switch', () => {
  it('drops answers the previous venue gives late, and tells of no fill that is not new', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { startFeed } = await import('../../../src-renderer/stores/feed');
    const { refreshOrders } = await import('../../../src-renderer/stores/desk-actions');
    const handlers: Record<string, (payload: unknown) => void> = {};
    useDesk.getState().setConnection(connection('development'));
    const stop = startFeed(((name: string, handler: (payload: unknown) => void) => {
      handlers[name] = handler;
      return () => undefined;
    }) as never);
    try {
      await sleep(400);
      const noticesBefore = useDesk.getState().notices.length;
      // On Development the trader bulk-cancels (the blotter is read again) and a fill arrives...
      void refreshOrders();
      handlers['orders.changed']?.([order('D1', 'development', true)]);
      await sleep(50);
      // ...and 50 ms later the desk is on Local.
      env = 'local';
      handlers['connection.changed']?.(connection('local'));
      await sleep(800);

      const s = useDesk.getState();
      expect(Object.values(s.openOrders).map((o) => o.client_order_id)).toEqual(['local-L1']);
      expect(s.fills.map((f) => f.clientOrderId).sort()).toEqual(['local-L7', 'local-L8']);
      expect(s.notices.slice(noticesBefore).filter((n) => n.title === 'Filled')).toEqual([]);
    } finally {
      stop();
    }
  });

  it('knows a history read was cut by its length, though the resting orders in it are not kept', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { refreshOrders } = await import('../../../src-renderer/stores/desk-actions');
    const read = (n: number) => () => Array.from({ length: n }, (_, i) => ({ ...order(`H${i}`, 'local'), status: i % 10 === 0 ? 'ACTIVE' : 'DONE', done_reason: i % 10 === 0 ? '' : 'CANCELED' }));
    answers['orders.history'] = read(1000);
    await refreshOrders();
    expect(useDesk.getState().history).toHaveLength(900);
    expect(useDesk.getState().historyCut).toBe(true);
    answers['orders.history'] = read(999);
    await refreshOrders();
    expect(useDesk.getState().historyCut).toBe(false);
  });

  it('keeps a desk product the window opened on, or was told of while its saved layout was read, over the saved one', async () => {
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { followDeskProduct, loadSavedLayout } = await import('../../../src-renderer/stores/feed');
    const saved = { version: 1, productId: 'BTC-VND', panels: [{ id: 'ladder', kind: 'ladder', width: 1, height: 2 }] };
    answers['layouts.load'] = () => saved;
    env = 'development'; // answers in 300 ms

    await loadSavedLayout('workspace');
    expect(useDesk.getState().layout.productId).toBe('BTC-VND');

    await loadSavedLayout('workspace', 'ETH-VND');
    expect(useDesk.getState().layout).toMatchObject({ productId: 'ETH-VND', panels: [{ id: 'ladder' }] });

    const reading = loadSavedLayout('workspace', 'ETH-VND');
    await sleep(100);
    followDeskProduct('SOL-VND');
    await reading;
    expect(useDesk.getState().layout.productId).toBe('SOL-VND');

    // A reloaded pop-out (no product in its address) told, during the read, the product its store already shows:
    // the saved layout, older (its save was still pending), does not win.
    answers['layouts.load'] = () => ({ ...saved, productId: 'ETH-VND' });
    const s = useDesk.getState();
    s.setLayout({ ...s.layout, productId: 'BTC-VND' });
    const reloading = loadSavedLayout('workspace');
    await sleep(100);
    followDeskProduct('BTC-VND');
    await reloading;
    expect(useDesk.getState().layout.productId).toBe('BTC-VND');
    env = 'local';
  });
});

