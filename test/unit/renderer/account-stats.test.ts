/**
 * The Account panel's order counts are figures like every other it shows: written raw, 1234567 orders sat beside a
 * volume written 2 503 000, and a count of a million read no differently from one of a hundred thousand.
 * Drawn with react-dom/server.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { AccountPanel } from '../../../src-renderer/features/account/AccountPanel';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

describe('the Account panel\'s statistics', () => {
  it('group the order counts\' thousands as the volume\'s', () => {
    useDesk.setState({
      account: {
        id: 'u', maker_fee_rate: '0.001', taker_fee_rate: '0.002', asset_balances: [],
        stats: {
          order_stats: { total_orders: '1234567', total_open_orders: '1000', total_pending_orders: '0', total_accepted_orders: '1233567', total_done_orders: '1232567' },
          trading_stats: { total_trading_volume: '2503000' },
        },
      },
    });
    const facts = Object.fromEntries(
      [...renderToStaticMarkup(createElement(AccountPanel)).matchAll(/<dt>([^<]*)<\/dt><dd>(.*?)<\/dd>/g)].map((m) => [m[1] ?? '', (m[2] ?? '').replace(/<!-- -->/g, '')]),
    );
    expect(facts).toMatchObject({ Orders: '1\u202f234\u202f567', Open: '1\u202f000', Pending: '0', Accepted: '1\u202f233\u202f567', Done: '1\u202f232\u202f567' });
    expect(facts['Volume traded']).toMatch(/^2\u202f503\u202f000 /);
  });
});
