/**
 * An Order history panel popped out into its own window starts with the filters the trader had typed, and an order
 * ticket with the order being written; each goes back into the workspace with what was typed in its window. A
 * malformed address gives the default, never a bad read or order.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OrderHistoryPanel } from '../../../src-renderer/features/blotters/OrderHistoryPanel';
import { historySearchOf, rememberHistorySearch, type HistorySearch } from '../../../src-renderer/features/blotters/history-query';
import { dockMessage, keepInAddress, popOutTarget, popOutUrl } from '../../../src-renderer/features/workspace/pop-out';
import { EMPTY_TICKET, readTicketForm, type TicketForm } from '../../../src-renderer/features/ticket/ticket-check';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

beforeAll(() => vi.stubGlobal('location', { pathname: '/' }));
afterAll(() => vi.unstubAllGlobals());

const typed: HistorySearch = {
  filters: { productId: 'ETH-VND', status: 'DONE', from: '2026-11-01T09:00', to: '2026-11-02T17:30', clientOrderId: 'hedge-7', sort: 'created_at' },
  searched: true,
};

describe('an Order history popped out', () => {
  it('carries its filters, and whether a search was shown, in its window\'s address', () => {
    const url = popOutUrl({ id: 'history', kind: 'history', deskProductId: 'BTC-VND', history: typed });
    expect(popOutTarget(url.slice(url.indexOf('?')))).toEqual({ id: 'history', kind: 'history', deskProductId: 'BTC-VND', history: typed });
  });

  it('draws them in the panel that opens with them', () => {
    rememberHistorySearch('history-2', typed);
    const html = renderToStaticMarkup(createElement(OrderHistoryPanel, { panelId: 'history-2', height: 200 }));
    expect(html).toContain('value="hedge-7"');
    expect(html).toContain('value="2026-11-01T09:00"');
    expect(html).toContain('value="2026-11-02T17:30"');
    expect(html).toMatch(/<option value="DONE" selected="">DONE<\/option>/);
    expect(html).toMatch(/<option value="created_at" selected="">created_at<\/option>/);
    // Another panel's are its own.
    expect(renderToStaticMarkup(createElement(OrderHistoryPanel, { panelId: 'history-3', height: 200 }))).not.toContain('hedge-7');
  });

  it('tells the workspace its filters as it docks', () => {
    rememberHistorySearch('history-4', typed);
    expect(dockMessage('history-4')).toEqual({ type: 'dock', id: 'history-4', history: typed });
    expect(dockMessage('ladder')).toEqual({ type: 'dock', id: 'ladder' });
  });

  it('ignores filters in the address that are not well formed', () => {
    const bad = (history: string): unknown => popOutTarget(`?panel=h&kind=history&history=${encodeURIComponent(history)}`);
    expect(bad('{not json')).toEqual({ id: 'h', kind: 'history' });
    expect(bad(JSON.stringify({ ...typed, filters: { ...typed.filters, status: 'SOMETIMES' } }))).toEqual({ id: 'h', kind: 'history' });
    expect(bad(JSON.stringify({ ...typed, filters: { ...typed.filters, sort: 'price' } }))).toEqual({ id: 'h', kind: 'history' });
    expect(bad(JSON.stringify({ filters: typed.filters }))).toEqual({ id: 'h', kind: 'history' });
    expect(historySearchOf('h')).toBeUndefined();
  });
});

describe('an order ticket popped out', () => {
  const writing: TicketForm = { ...EMPTY_TICKET, side: 'SELL', type: 'STOP', size: '0.25', price: '2400000000', pricedFor: 'BTC-VND', priceTyped: true, stopTrigger: '2300000000', clientOrderId: 'exit-1' };

  it('carries the order the trader was writing in its window\'s address, and back in its dock message', () => {
    const url = popOutUrl({ id: 'ticket', kind: 'ticket', ticket: writing });
    expect(popOutTarget(url.slice(url.indexOf('?')))).toEqual({ id: 'ticket', kind: 'ticket', ticket: writing });
    expect(dockMessage('ticket', writing)).toEqual({ type: 'dock', id: 'ticket', ticket: writing });
  });

  it('takes from a malformed form only the fields of the right kind', () => {
    expect(readTicketForm({ ...writing, side: 'SHORT', type: 'ICEBERG', size: 25, postOnly: 'yes', stp: 'CANCEL_TAKER' })).toEqual({
      ...writing, side: EMPTY_TICKET.side, type: EMPTY_TICKET.type, size: EMPTY_TICKET.size, postOnly: false, stp: 'CANCEL_TAKER',
    });
    expect(readTicketForm('nonsense')).toBeUndefined();
    expect(popOutTarget('?panel=t&kind=ticket&ticket=%7Bnot')).toEqual({ id: 't', kind: 'ticket' });
  });
});

describe('a popped-out window\'s address kept up to date', () => {
  it('is read back by a reload as the form and link the trader left, written as the pop-out wrote them', () => {
    const writing: TicketForm = { ...EMPTY_TICKET, side: 'SELL', size: '0.5', price: '2450000000', pricedFor: 'BTC-VND', priceTyped: true };
    const address = { href: `http://desk${popOutUrl({ id: 'ticket', kind: 'ticket', productId: 'BTC-VND', ticket: EMPTY_TICKET })}` };
    vi.stubGlobal('location', { pathname: '/', get href() { return address.href; } });
    vi.stubGlobal('history', { state: null, replaceState: (_state: unknown, _title: string, url: URL) => (address.href = url.href) });
    try {
      keepInAddress('ticket', writing);
      keepInAddress('productId', 'ETH-VND');
      expect(popOutTarget(new URL(address.href).search)).toEqual({ id: 'ticket', kind: 'ticket', productId: 'ETH-VND', ticket: writing });
      keepInAddress('productId', undefined);
      expect(popOutTarget(new URL(address.href).search)).toEqual({ id: 'ticket', kind: 'ticket', ticket: writing });
    } finally {
      vi.stubGlobal('location', { pathname: '/' });
    }
  });

  it('lets go of the desk product it opened with, keeping the rest, so a reload takes the one saved since', () => {
    const address = { href: `http://desk${popOutUrl({ id: 'ladder', kind: 'ladder', productId: 'ETH-VND', deskProductId: 'BTC-VND' })}` };
    vi.stubGlobal('location', { pathname: '/', get href() { return address.href; } });
    vi.stubGlobal('history', { state: null, replaceState: (_state: unknown, _title: string, url: URL) => (address.href = url.href) });
    try {
      keepInAddress('deskProductId', undefined);
      expect(popOutTarget(new URL(address.href).search)).toEqual({ id: 'ladder', kind: 'ladder', productId: 'ETH-VND' });
    } finally {
      vi.stubGlobal('location', { pathname: '/' });
    }
  });
});
