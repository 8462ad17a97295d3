import { beforeEach, describe, expect, it } from 'vitest';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { DEFAULT_LAYOUT, movePanel, readLayout } from '../../../src-renderer/stores/layout-slice';
import { errorNotice } from '../../../src-renderer/stores/notices-slice';
import { TAPE_LENGTH } from '../../../src-renderer/stores/market-slice';
import type { Order } from '../../../src-shared/protocol/records';
import { restingOrder } from './fixtures';

const order = (id: string, patch: Partial<Order> = {}): Order => restingOrder(id, { client_order_id: '', ...patch });

const fill = (tradeId: string, time: string) => ({
  tradeId, orderId: 'o1', clientOrderId: '', productId: 'BTC-VND', side: 'BUY', price: '1', size: '1', liquidity: 'TAKER', feeAsset: 'VND', feeAmount: '0', time,
});

beforeEach(() => {
  useDesk.setState({ openOrders: {}, history: [], historyLoaded: true, fills: [], trades: {}, notices: [], layout: DEFAULT_LAYOUT });
});

describe('desk store', () => {
  it('keeps open orders by id and moves a done order to the top of the history', () => {
    const s = useDesk.getState();
    s.applyOrders([order('a'), order('b')]);
    s.applyOrders([order('a', { status: 'DONE', done_reason: 'CANCELED' })]);
    expect(Object.keys(useDesk.getState().openOrders)).toEqual(['b']);
    expect(useDesk.getState().history.map((o) => [o.order_id, o.done_reason])).toEqual([['a', 'CANCELED']]);
    s.applyOrders([order('a', { status: 'DONE', done_reason: 'CANCELED', updated_at: '2' })]);
    expect(useDesk.getState().history).toHaveLength(1);
  });

  it('ignores an older record of an order and never reopens a done one', () => {
    const s = useDesk.getState();
    s.applyOrders([order('m', { status: 'DONE', done_reason: 'FILLED', updated_at: '5' })]);
    s.applyOrders([order('m', { status: 'SUBMITTED', updated_at: '4' })]);
    expect(useDesk.getState().openOrders).toEqual({});
    s.applyOrders([order('n', { filled_base_size: '0.05', updated_at: '7' })]);
    s.applyOrders([order('n', { updated_at: '6' })]);
    expect(useDesk.getState().openOrders.n?.filled_base_size).toBe('0.05');
  });

  it('reports only fills it has not seen, newest first', () => {
    const s = useDesk.getState();
    expect(s.addFills([fill('t1', '10'), fill('t2', '20')])).toHaveLength(2);
    expect(useDesk.getState().addFills([fill('t2', '20'), fill('t3', '30')]).map((f) => f.tradeId)).toEqual(['t3']);
    expect(useDesk.getState().fills.map((f) => f.tradeId)).toEqual(['t3', 't2', 't1']);
  });

  it('keeps the tape newest first, without repeats, to its length', () => {
    const trade = (i: number) => ({ id: `t${i}`, product_id: 'BTC-VND', price: '1', size: '1', side: 'BUY', time: String(1000 + i) });
    const s = useDesk.getState();
    s.addTrades('BTC-VND', [trade(1), trade(2)]);
    s.addTrades('BTC-VND', [trade(2), trade(3)]);
    expect(useDesk.getState().trades['BTC-VND']?.map((t) => t.id)).toEqual(['t3', 't2', 't1']);
    // A read over REST that arrives after the stream brings an older trade: it goes below the newer ones.
    s.addTrades('BTC-VND', [trade(4)]);
    s.addTrades('BTC-VND', [trade(0), trade(3)]);
    expect(useDesk.getState().trades['BTC-VND']?.map((t) => t.id)).toEqual(['t4', 't3', 't2', 't1', 't0']);
    s.addTrades('BTC-VND', Array.from({ length: TAPE_LENGTH + 10 }, (_, i) => trade(i + 10)));
    expect(useDesk.getState().trades['BTC-VND']).toHaveLength(TAPE_LENGTH);
  });

  it('keeps a trade once when one batch brings it twice', () => {
    // The stream's copy and a read of the recent trades that brings it again, coalesced into one frame.
    const trade = (i: number) => ({ id: `t${i}`, product_id: 'BTC-VND', price: '1', size: '1', side: 'BUY', time: String(1000 + i) });
    const s = useDesk.getState();
    s.addTrades('BTC-VND', [trade(100), trade(99), trade(100)]);
    expect(useDesk.getState().trades['BTC-VND']?.map((t) => t.id)).toEqual(['t100', 't99']);
    s.addTrades('BTC-VND', [trade(101), trade(98), trade(101), trade(99)]);
    expect(useDesk.getState().trades['BTC-VND']?.map((t) => t.id)).toEqual(['t101', 't100', 't99', 't98']);
  });

  it('does not notify subscribers of the market when an order changes', () => {
    let bookChanges = 0;
    const stop = useDesk.subscribe((state, prev) => void (state.books !== prev.books && bookChanges++));
    useDesk.getState().applyOrders([order('x')]);
    stop();
    expect(bookChanges).toBe(0);
  });
});

describe('workspace layout', () => {
  it('moves panels within bounds', () => {
    const ids = movePanel(DEFAULT_LAYOUT.panels, 'ticket', 1).map((p) => p.id);
    expect(ids.slice(0, 2)).toEqual(['ladder', 'ticket']);
    expect(movePanel(DEFAULT_LAYOUT.panels, 'ticket', -5)[0]?.id).toBe('ticket');
  });

  it('restores a saved layout, docking popped-out panels and dropping what it does not know', () => {
    const saved = {
      version: 1,
      productId: 'ETH-VND',
      panels: [
        { id: 'l', kind: 'ladder', width: 1, height: 3, productId: 'SOL-VND', poppedOut: true },
        { id: 'x', kind: 'mystery', width: 1, height: 1 },
      ],
    };
    expect(readLayout(JSON.parse(JSON.stringify(saved)))).toEqual({
      version: 1,
      productId: 'ETH-VND',
      panels: [{ id: 'l', kind: 'ladder', width: 1, height: 3, productId: 'SOL-VND', poppedOut: false }],
    });
    expect(readLayout(null)).toBe(DEFAULT_LAYOUT);
    expect(readLayout({ version: 2 })).toBe(DEFAULT_LAYOUT);
  });
});

describe('error notices', () => {
  it('shows the catalogue title, message and suggested action for a venue error', () => {
    const notice = errorNotice('E0201_InsufficientBalance', 'E0201_InsufficientBalance: needs 250500000 VND');
    expect(notice.title).not.toBe('E0201_InsufficientBalance');
    expect(notice.detail).toBe('needs 250500000 VND');
    expect(notice.explanation).not.toBe('');
    expect(notice.action).not.toBe('');
  });

  it('says the same failure once', () => {
    const s = useDesk.getState();
    s.notify(errorNotice('E0001_AuthRequired', 'E0001_AuthRequired: no API key'));
    s.notify(errorNotice('E0001_AuthRequired', 'E0001_AuthRequired: no API key'));
    s.notify(errorNotice('E0001_AuthRequired', 'E0001_AuthRequired: key expired'));
    expect(useDesk.getState().notices.map((n) => n.detail)).toEqual(['key expired', 'no API key']);
  });

  it('explains an order the venue ended itself, once, with the catalogue words for its reject_reason', () => {
    const s = useDesk.getState();
    const rejected = order('p', { status: 'DONE', done_reason: 'REJECTED', reject_reason: 'E0202_PostOnlyWouldMatch', updated_at: '3' });
    s.applyOrders([rejected]);
    s.applyOrders([{ ...rejected, updated_at: '4' }]);
    const notices = useDesk.getState().notices.filter((n) => n.ref === 'E0202_PostOnlyWouldMatch');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.title).not.toBe('E0202_PostOnlyWouldMatch');
    expect(notices[0]?.detail).toContain('REJECTED');
  });

  it('does not explain again, after a switch, the refusals a new session replays before the history is read', () => {
    const s = useDesk.getState();
    const refused = (id: string) => order(id, { status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0203_FillOrKillNotFilled', updated_at: '3' });
    s.clearAccountData();
    s.applyOrders([refused('old-1'), refused('old-2')]);
    expect(useDesk.getState().notices).toEqual([]);
    // The answer to an order sent from here is news even before the history is read.
    s.applyOrders([refused('sent-here')], true);
    expect(useDesk.getState().notices.map((n) => n.ref)).toEqual(['E0203_FillOrKillNotFilled']);
    s.setHistory([refused('old-1'), refused('old-2'), refused('sent-here')]);
    s.applyOrders([refused('new-1')]);
    expect(useDesk.getState().notices).toHaveLength(2);
  });

  it('does not explain an order that simply filled or was cancelled', () => {
    const s = useDesk.getState();
    s.applyOrders([order('f', { status: 'DONE', done_reason: 'FILLED', updated_at: '3' }), order('c', { status: 'DONE', done_reason: 'CANCELED', updated_at: '3' })]);
    expect(useDesk.getState().notices).toEqual([]);
  });

  it('falls back to the reference for one the catalogue does not know', () => {
    expect(errorNotice('E0999_Newer', 'E0999_Newer: something')).toMatchObject({ title: 'E0999_Newer', detail: 'something' });
  });
});
