/**
 * The ladder writes a row's cells only when their figures changed, and formats each figure once per increment: a
 * busy book redraws every frame, and formatting every cell of the 40 rows each frame was most of the draw's work.
 * The rows are plain objects with the few DOM properties the ladder writes.
 */
import { describe, expect, it } from 'vitest';
import { formatToIncrement } from '../../../src-renderer/features/ladder/increments';
import { ladderFormats, paint, rememberingFormat, type LadderFormats, type RowNodes } from '../../../src-renderer/features/ladder/ladder-paint';
import type { LadderRow } from '../../../src-renderer/features/ladder/ladder-levels';

function node(): HTMLElement {
  const attributes = new Map<string, string>();
  return {
    textContent: '', hidden: false, style: {},
    getAttribute: (name: string) => attributes.get(name) ?? null,
    setAttribute: (name: string, value: string) => void attributes.set(name, value),
  } as unknown as HTMLElement;
}
const rowNodes = (): RowNodes => ({ row: node(), bar: node(), price: node(), size: node(), total: node(), mine: node() }) as RowNodes;
const texts = (n: RowNodes): string[] => [n.price.textContent ?? '', n.size.textContent ?? '', n.total.textContent ?? '', n.mine.hidden ? '' : n.mine.textContent ?? ''];

function counting(): { formats: LadderFormats; formatted: string[] } {
  const formatted: string[] = [];
  const real = ladderFormats({ price: '10000', size: '0.0001' });
  return { formatted, formats: { price: (v) => (formatted.push(v), real.price(v)), size: (v) => (formatted.push(v), real.size(v)) } };
}

const row = (patch: Partial<LadderRow> = {}): LadderRow => ({ side: 'bid', price: '2499990000', size: '0.5', total: '0.75', orderCount: 1, barRatio: 0.5, mine: [], ...patch });

describe('painting a ladder row', () => {
  it('writes every cell the first time, at the product\'s increments', () => {
    const nodes = rowNodes();
    const { formats } = counting();
    paint(nodes, row({ mine: [{ orderId: 'o1', size: '0.1' }] }), formats);
    expect(texts(nodes).map((t) => t.replaceAll('\u202f', ''))).toEqual(['2499990000', '0.5000', '0.7500', '✕ mine 0.1000']);
    expect(nodes.price.getAttribute('aria-label')).toBe('Bid 2499990000');
    expect(nodes.bar.style.width).toBe('50.0%');
  });

  it('formats nothing again for a frame whose figures did not change, and only the figure that did', () => {
    const nodes = rowNodes();
    const { formats, formatted } = counting();
    paint(nodes, row(), formats);
    formatted.length = 0;
    paint(nodes, row(), formats);
    expect(formatted).toEqual([]);
    paint(nodes, row({ total: '0.8' }), formats);
    expect(formatted).toEqual(['0.8']);
    expect(nodes.total.textContent).toBe('0.8000');
  });

  it('writes everything again once the increments (and so the formats) change', () => {
    const nodes = rowNodes();
    paint(nodes, row(), ladderFormats({ price: '10000', size: '0.0001' }));
    paint(nodes, row(), ladderFormats({ price: '1000', size: '0.00001' }));
    expect(texts(nodes).slice(1, 3)).toEqual(['0.50000', '0.75000']);
  });

  it('hides the mark of the trader\'s orders once none rest there', () => {
    const nodes = rowNodes();
    const { formats } = counting();
    paint(nodes, row({ mine: [{ orderId: 'o1', size: '0.1' }] }), formats);
    expect(nodes.mine.hidden).toBe(false);
    paint(nodes, row(), formats);
    expect(nodes.mine.hidden).toBe(true);
  });
});

describe('a remembering format', () => {
  it('writes what formatToIncrement writes, also after it has forgotten what it remembered', () => {
    const format = rememberingFormat('0.0001', 3);
    const values = ['0.1', '12.5', '0.00015', '1000000', '0.1', '-2', '12.5'];
    expect(values.map(format)).toEqual(values.map((v) => formatToIncrement(v, '0.0001')));
  });
});
