/**
 * The ticket's fee comes from the account's fee rates. Until the account is read (a key imported without its user
 * id, whose account the desk cannot read until an order is placed; the moment after a start or a switch) there are
 * none, and the estimate said 'Fee 0 VND' and a cost of the notional alone: an order's cost understated as a fact.
 * Drawn with react-dom/server, as ticket-stale does.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '../../../src-shared/protocol/records';
import { TicketPanel } from '../../../src-renderer/features/ticket/TicketPanel';
import { EMPTY_TICKET } from '../../../src-renderer/features/ticket/ticket-check';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

const draw = (): string => renderToStaticMarkup(createElement(TicketPanel, { productId: 'BTC-VND' }));
/** The estimate's terms and figures, in order, with the grouping spaces taken out. */
const estimate = (): string[] =>
  [...(/<dl class="estimate"[^>]*>(.*?)<\/dl>/.exec(draw())?.[1] ?? '').matchAll(/<d[td][^>]*>(.*?)<\/d[td]>/g)].map((m) => (m[1] ?? '').replace(/<!-- -->/g, '').replaceAll('\u202f', ''));

const account: Account = {
  id: 'u', maker_fee_rate: '0.001', taker_fee_rate: '0.002',
  asset_balances: [{ asset: 'VND', balance: '10000000000', free: '10000000000', locked: '0' }, { asset: 'BTC', balance: '1', free: '1', locked: '0' }],
  stats: { order_stats: { total_orders: '0', total_done_orders: '0', total_open_orders: '0', total_pending_orders: '0', total_accepted_orders: '0' }, trading_stats: { total_trading_volume: '0' } },
};

beforeEach(() => {
  useDesk.setState({
    connection: { environment: 'local', production: false, state: 'live', apiKey: 'k', detail: '' },
    ticket: { ...EMPTY_TICKET, type: 'LIMIT', price: '2500000000', size: '0.001' },
    account: undefined,
  });
});

describe('the ticket\'s fee', () => {
  it('is not known, nor the cost, until the account\'s fee rates are read: never shown as zero', () => {
    const shown = estimate();
    expect(shown.slice(0, 2)).toEqual(['Notional', '2500000 VND']);
    expect(shown[3]).toMatch(/^not known/);
    expect(shown[5]).toMatch(/^2500000 VND plus the fee/);
  });

  it('is the account\'s taker rate once it is read', () => {
    useDesk.setState({ account });
    expect(estimate()).toEqual(['Notional', '2500000 VND', 'Fee', '5000 VND', 'Cost', '2505000 VND']);
  });
});
