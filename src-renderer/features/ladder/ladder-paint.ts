/**
 * Writing the ladder's rows into its fixed DOM nodes, a frame at a time. A busy book redraws every frame, and most
 * of a frame's figures are the ones it already shows (the same prices, sizes and totals a row or two along), so a
 * cell is written only when its figure changed, and each figure is formatted once per increment, not every frame:
 * formatting the 40 rows' prices, sizes and totals took about 0.37 ms a frame on the bench machine.
 */
import { formatToIncrement, type Increments } from './increments';
import type { LadderRow } from './ladder-levels';

export interface RowNodes {
  row: HTMLDivElement;
  bar: HTMLDivElement;
  price: HTMLButtonElement;
  size: HTMLSpanElement;
  total: HTMLSpanElement;
  mine: HTMLButtonElement;
}

/** A figure formatted to one increment. */
export type Format = (value: string) => string;

/** The ladder's formats for a product's increments, made when the increments change. */
export interface LadderFormats {
  price: Format;
  size: Format;
}

/** How many figures a format remembers before starting afresh: a few minutes of a busy book's prices and sizes. */
const REMEMBERED = 4096;

/** formatToIncrement for one increment, remembering what it wrote. */
export function rememberingFormat(increment: string | undefined, limit = REMEMBERED): Format {
  const written = new Map<string, string>();
  return (value) => {
    let text = written.get(value);
    if (text === undefined) {
      if (written.size >= limit) written.clear();
      text = formatToIncrement(value, increment);
      written.set(value, text);
    }
    return text;
  };
}

export function ladderFormats(increments: Increments | undefined): LadderFormats {
  return { price: rememberingFormat(increments?.price), size: rememberingFormat(increments?.size) };
}

/** What a row's cells were last written from, and with which formats. */
interface Drawn {
  formats?: LadderFormats;
  price?: string;
  side?: string;
  size?: string;
  total?: string;
  width?: string;
  mine?: string;
}

const drawnOf = new WeakMap<RowNodes, Drawn>();

// Every write dirties layout even when the value is the same, so only what changed is written.
export function setText(node: HTMLElement, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

function setLabel(node: HTMLElement, label: string): void {
  if (node.getAttribute('aria-label') !== label) node.setAttribute('aria-label', label);
}

export function paint(nodes: RowNodes, row: LadderRow | undefined, formats: LadderFormats): void {
  const visibility = row === undefined ? 'hidden' : 'visible';
  if (nodes.row.style.visibility !== visibility) nodes.row.style.visibility = visibility;
  if (row === undefined) return;
  let drawn = drawnOf.get(nodes);
  if (drawn === undefined || drawn.formats !== formats) {
    drawn = { formats };
    drawnOf.set(nodes, drawn);
  }
  if (drawn.price !== row.price || drawn.side !== row.side) {
    setText(nodes.price, formats.price(row.price));
    setLabel(nodes.price, `${row.side === 'bid' ? 'Bid' : 'Ask'} ${row.price}`);
    drawn.price = row.price;
    drawn.side = row.side;
  }
  if (drawn.size !== row.size) {
    setText(nodes.size, formats.size(row.size));
    drawn.size = row.size;
  }
  if (drawn.total !== row.total) {
    setText(nodes.total, formats.size(row.total));
    drawn.total = row.total;
  }
  const width = `${(row.barRatio * 100).toFixed(1)}%`;
  if (drawn.width !== width) {
    nodes.bar.style.width = width;
    drawn.width = width;
  }
  const mine = row.mine.map((m) => m.size).join('+');
  if (drawn.mine !== mine) {
    const noneMine = row.mine.length === 0;
    if (nodes.mine.hidden !== noneMine) nodes.mine.hidden = noneMine;
    if (!noneMine) setText(nodes.mine, `✕ mine ${row.mine.map((m) => formats.size(m.size)).join('+')}`);
    drawn.mine = mine;
  }
  if (row.mine.length > 0) setLabel(nodes.mine, `Cancel my orders at ${row.price}`);
}
