/**
 * What the ticket takes as typed: figures grouped as the desk writes them ("2 400 000 000", with the narrow spaces
 * of the ladder and blotters) were refused as whitespace; and the ways of sizing an order are offered only for the
 * types the venue takes them with (an exact-quote FOK size was offered on a market ticket, then refused).
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseCreateOrder } from '../../../src-shared/protocol/orders';
import { ApiError } from '../../../src-shared/errors/api-error';
import { TicketPanel } from '../../../src-renderer/features/ticket/TicketPanel';
import { EMPTY_TICKET, checkTicket, submitText, type TicketContext, type TicketForm } from '../../../src-renderer/features/ticket/ticket-check';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

const ctx: TicketContext = {
  now: 1_800_000_000_000_000_000n,
  balances: [{ asset: 'VND', balance: '10000000000', free: '10000000000', locked: '0' }, { asset: 'BTC', balance: '10', free: '10', locked: '0' }],
  makerFeeRate: '0.001',
  takerFeeRate: '0.002',
  bids: [{ price: '2499990000', size: '0.3', order_count: 1 }],
  asks: [{ price: '2500000000', size: '1', order_count: 1 }],
};
const limit = (patch: Partial<TicketForm>): TicketForm => ({ ...EMPTY_TICKET, price: '2500000000', size: '0.1', ...patch });

describe('figures typed with the desk\'s grouping', () => {
  it.each([
    ['spaces', '2 400 000 000'],
    ['narrow no-break spaces, as the desk writes them', '2\u202f400\u202f000\u202f000'],
    ['thin spaces', '2\u2009400\u2009000\u2009000'],
    ['no-break spaces', '2\u00a0400\u00a0000\u00a0000'],
  ])('takes a price grouped with %s, and sends it without them', (_what, price) => {
    const check = checkTicket(limit({ price }), ctx);
    expect(check.errors).toEqual({});
    expect(check.request?.limit_price).toBe('2400000000');
  });

  it('takes grouped sizes and stop triggers too', () => {
    expect(checkTicket(limit({ type: 'MARKET', sizeMode: 'quote', size: '1 000 000', price: '' }), ctx).request?.quote_size).toBe('1000000');
    const stop = checkTicket(limit({ type: 'STOP', stopType: 'STOP_LOSS', side: 'SELL', stopTrigger: '2\u202f300\u202f000\u202f000' }), ctx);
    expect(stop.request?.stop_trigger_price).toBe('2300000000');
    expect(submitText({ side: 'BUY', size: '1 000 000', sizeMode: 'quote', productId: 'BTC-VND' }, 'VND')).toBe('Buy BTC-VND for 1\u202f000\u202f000 VND');
  });

  it('still refuses spaces that are not thousands grouping', () => {
    expect(checkTicket(limit({ price: '24 00000000' }), ctx).errors.price).toMatch(/whitespace/);
    expect(checkTicket(limit({ size: '0. 1' }), ctx).errors.size).toMatch(/whitespace/);
  });

  it.each(['0 001', '0 100', '000 100', '0\u202f500'])('refuses %s as whitespace: a first group led by 0 is not thousands grouping', (size) => {
    // Taken as 0001 the check said "must not have leading zeros" of a figure the trader typed with a space.
    const check = checkTicket(limit({ size }), ctx);
    expect(check.request).toBeUndefined();
    expect(check.errors.size).toMatch(/whitespace/);
  });

  it('leaves the venue refusing whitespace on the wire', () => {
    expect(parseCreateOrder({ product_id: 'BTC-VND', side: 'BUY', type: 'LIMIT', limit_price: '2 400 000 000', base_size: '0.1' }, { now: ctx.now })).toBeInstanceOf(ApiError);
  });
});

describe('the ticket\'s "Size in" box', () => {
  const options = (type: TicketForm['type']): string[] => {
    useDesk.setState({ ticket: { ...EMPTY_TICKET, type } });
    const html = renderToStaticMarkup(createElement(TicketPanel, { productId: 'BTC-VND' }));
    const box = /<select aria-label="Size in"[^>]*>(.*?)<\/select>/.exec(html)?.[1] ?? '';
    return [...box.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1] ?? '');
  };

  beforeEach(() => useDesk.setState({ connection: { environment: 'local', production: false, state: 'live', apiKey: 'k', detail: '' } }));

  it('offers an exact quote amount (FOK) only on a limit ticket, and a quote amount only on a market one', () => {
    expect(options('MARKET')).toEqual(['base', 'quote']);
    expect(options('LIMIT')).toEqual(['base', 'exact_quote']);
    expect(options('STOP')).toEqual(['base']);
    expect(options('TWAP')).toEqual(['base']);
  });
});
