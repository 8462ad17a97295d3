/**
 * The order history's note on a full read wrote the venue's 1000 a read in the browser's locale: in Vietnamese (or
 * German) "1.000", in a window where every price and size writes "." as the decimal point ("0.001 BTC"), so it
 * read as one order. It is written as every figure of the desk is. Drawn with react-dom/server in a vi-VN locale.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OrderHistoryPanel } from '../../../src-renderer/features/blotters/OrderHistoryPanel';
import { useDesk } from '../../../src-renderer/stores/desk-store';

vi.mock('zustand', async (importOriginal) => (await import('./fixtures')).serverDrawnZustand(await importOriginal()));

afterEach(() => vi.restoreAllMocks());

describe('the order history\'s note on a full read', () => {
  it('writes the venue\'s limit as the desk writes figures, whatever the locale', () => {
    const vietnamese = new Intl.NumberFormat('vi-VN');
    vi.spyOn(Number.prototype, 'toLocaleString').mockImplementation(function (this: number) {
      return vietnamese.format(this);
    });
    useDesk.setState({ history: [], historyCut: true });
    const html = renderToStaticMarkup(createElement(OrderHistoryPanel, { height: 400 }));
    expect(html).toContain('The venue answers 1\u202f000 orders a read');
    expect(html).not.toContain('1.000');
  });
});
