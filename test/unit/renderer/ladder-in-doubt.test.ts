/**
 * A book whose stream had a gap (while the desk reads it again) or whose polls fail: the ladder says its levels are
 * stale (the last known, not the venue's), though the connection is live, and says why.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BookSnapshot } from '../../../src-shared/ipc/contract';
import { LadderPanel } from '../../../src-renderer/features/ladder/LadderPanel';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

const book = (inDoubt: boolean): BookSnapshot => ({
  productId: 'BTC-VND', sequence: 7, time: '1', source: 'stream', ...(inDoubt && { inDoubt }),
  bids: [{ price: '2400000000', size: '0.1', order_count: 1 }], asks: [{ price: '2500000000', size: '0.1', order_count: 1 }],
});
const draw = (): string => renderToStaticMarkup(createElement(LadderPanel, { productId: 'BTC-VND', height: 300 }));

beforeEach(() => {
  useDesk.setState({ connection: { environment: 'local', production: false, state: 'live', apiKey: 'k', detail: '' }, books: {} });
});

describe('the depth ladder of a book in doubt', () => {
  it('is marked stale, saying why, until the book is read again', () => {
    useDesk.getState().setBook(book(false));
    expect(draw()).not.toContain('stale');
    useDesk.getState().setBook(book(true));
    expect(draw()).toMatch(/class="stale-mark" role="status" title="The book is not being updated \(a gap in its stream, or its polls fail\)[^"]*">stale: not updated</);
    useDesk.getState().setBook(book(false));
    expect(draw()).not.toContain('stale');
  });
});
