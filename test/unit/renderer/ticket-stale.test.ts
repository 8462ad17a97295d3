/**
 * The order ticket while the connection is down: its estimate and balance check read the book and balances last
 * heard, which it says rather than showing them as current. Drawn with react-dom/server, as trading-panels does.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../../src-shared/ipc/contract';
import { TicketPanel } from '../../../src-renderer/features/ticket/TicketPanel';
import { EMPTY_TICKET } from '../../../src-renderer/features/ticket/ticket-check';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

const connection = (state: ConnectionStatus['state']): ConnectionStatus => ({ environment: 'local', production: false, state, apiKey: 'k', userId: 'u', detail: '' });
const draw = (): string => renderToStaticMarkup(createElement(TicketPanel, { productId: 'BTC-VND' }));

beforeEach(() => {
  useDesk.setState({
    connection: connection('live'),
    ticket: { ...EMPTY_TICKET, type: 'MARKET', size: '0.001' },
    books: { 'BTC-VND': { productId: 'BTC-VND', sequence: 1, time: '1', source: 'stream', bids: [{ price: '2400000000', size: '1', order_count: 1 }], asks: [{ price: '2500000000', size: '1', order_count: 1 }] } },
  });
});

describe('the order ticket while the connection is not live', () => {
  it('says its figures come from the book and balances last heard', () => {
    expect(draw()).toContain('Notional (from book)');
    expect(draw()).not.toContain('stale');
    useDesk.setState({ connection: connection('reconnecting') });
    expect(draw()).toMatch(/aria-label="Ticket figures stale">stale: reconnecting: the book and balances/);
    useDesk.setState({ connection: connection('live') });
    expect(draw()).not.toContain('stale');
  });

  it('says nothing of an empty ticket', () => {
    useDesk.setState({ connection: connection('reconnecting'), ticket: EMPTY_TICKET });
    expect(draw()).not.toContain('Ticket figures stale');
  });

  it('says so of a book in doubt though the connection is live, when its figures come from the book', () => {
    const book = useDesk.getState().books['BTC-VND'];
    if (book === undefined) throw new Error('the test book is missing');
    useDesk.setState({ books: { 'BTC-VND': { ...book, inDoubt: true } } });
    expect(draw()).toMatch(/aria-label="Ticket figures stale">stale: not updated: the book these figures/);
    // A limit order's figures are its own price's: the book is not what they come from.
    useDesk.setState({ ticket: { ...EMPTY_TICKET, type: 'LIMIT', price: '2450000000', size: '0.001' } });
    expect(draw()).not.toContain('Ticket figures stale');
    useDesk.setState({ ticket: { ...EMPTY_TICKET, type: 'MARKET', size: '0.001' }, books: { 'BTC-VND': { ...book, inDoubt: false } } });
    expect(draw()).not.toContain('stale');
  });
});
