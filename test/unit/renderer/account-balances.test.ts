/**
 * The Account panel writes each asset's free, locked and total at one precision, the asset's (the size increment it
 * trades in, as the ladder writes it), so the digits line up: stripped of trailing zeros, BTC read 9.9, 0.1 and 10.
 * Drawn with react-dom/server.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { Account, Product } from '../../../src-shared/protocol/records';
import { AccountPanel } from '../../../src-renderer/features/account/AccountPanel';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

const account = (balances: Account['asset_balances']): Account => ({
  id: 'u', maker_fee_rate: '0.001', taker_fee_rate: '0.002', asset_balances: balances,
  stats: {
    order_stats: { total_orders: '0', total_open_orders: '0', total_pending_orders: '0', total_accepted_orders: '0', total_done_orders: '0' },
    trading_stats: { total_trading_volume: '0' },
  },
});
const product = (id: string, sizeIncrement: string): Product => {
  const [base = '', quote = ''] = id.split('-');
  return { id, base_asset_id: base, quote_asset_id: quote, price_increment: '1000', size_increment: sizeIncrement, min_size: sizeIncrement, max_size: '1000', min_notional: '1', status: 'online' };
};

function balances(): Record<string, string[]> {
  const html = renderToStaticMarkup(createElement(AccountPanel));
  const rows = [...html.matchAll(/<tr><th scope="row">(\w+)<\/th>((?:<td class="num">[^<]*<\/td>)+)<\/tr>/g)];
  return Object.fromEntries(rows.map((r) => [r[1] ?? '', [...(r[2] ?? '').matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => (m[1] ?? '').replaceAll('\u202f', ''))]));
}

describe('the Account panel\'s balances', () => {
  it('writes one asset\'s free, locked and total at its size increment, so they line up', () => {
    useDesk.setState({
      products: [product('BTC-VND', '0.0001'), product('SOL-VND', '0.01')],
      account: account([
        { asset: 'BTC', free: '9.9', locked: '0.1', balance: '10' },
        { asset: 'SOL', free: '999.5', locked: '0', balance: '999.5' },
        { asset: 'VND', free: '9600000000', locked: '400000000', balance: '10000000000' },
      ]),
    });
    expect(balances()).toEqual({
      BTC: ['9.9000', '0.1000', '10.0000'],
      SOL: ['999.50', '0.00', '999.50'],
      VND: ['9600000000', '400000000', '10000000000'],
    });
  });

  it('takes the increment of the venue the desk is on, finer than the built-in one', () => {
    useDesk.setState({ products: [product('BTC-VND', '0.00001')], account: account([{ asset: 'BTC', free: '1.5', locked: '0', balance: '1.5' }]) });
    expect(balances().BTC).toEqual(['1.50000', '0.00000', '1.50000']);
  });

  it('never rounds: a figure finer than the increment shows whole, and the asset\'s others pad to it', () => {
    useDesk.setState({ products: [product('BTC-VND', '0.0001')], account: account([{ asset: 'BTC', free: '0.000015', locked: '1', balance: '1.000015' }]) });
    expect(balances().BTC).toEqual(['0.000015', '1.000000', '1.000015']);
  });

  it('goes by the built-in products before the venue\'s listing is read, and leaves an asset it knows nothing of as written', () => {
    useDesk.setState({ products: [], account: account([{ asset: 'ETH', free: '2', locked: '0.5', balance: '2.5' }, { asset: 'XYZ', free: '1.25', locked: '0', balance: '1.25' }]) });
    expect(balances()).toEqual({ ETH: ['2.000', '0.500', '2.500'], XYZ: ['1.25', '0.00', '1.25'] });
  });

  it('goes by the increment the ladder and tape write the asset in when the venue lists one they cannot count in', () => {
    // A size increment of 0 is no step: the ladder and tape fall back to the built-in product's 0.0001.
    useDesk.setState({ products: [product('BTC-VND', '0')], account: account([{ asset: 'BTC', free: '1.5', locked: '0', balance: '1.5' }]) });
    expect(balances().BTC).toEqual(['1.5000', '0.0000', '1.5000']);
  });
});
