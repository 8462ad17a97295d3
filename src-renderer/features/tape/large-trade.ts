// What counts as a large trade on the tape, per product, until the trader sets their own threshold.
import { compareDecimal, isDecimal } from '../../ui/decimal-text';
import { ungrouped } from '../ticket/ticket-check';

const DEFAULT_LARGE: Readonly<Record<string, string>> = { 'BTC-VND': '1', 'ETH-VND': '10', 'SOL-VND': '100' };

export function defaultLargeSize(productId: string): string {
  return DEFAULT_LARGE[productId] ?? '1';
}

export function isLargeTrade(size: string, threshold: string): boolean {
  return threshold !== '' && compareDecimal(size, threshold) >= 0;
}

/**
 * The threshold a trader typed in "Large at", or why it is none: 0 or a negative size marked every trade large with
 * nothing said. Empty marks none, and says nothing.
 */
export function largeThreshold(typed: string): { threshold: string; problem?: string } {
  // Grouped as the desk writes sizes ("1 000" SOL), as the ticket takes them.
  const text = ungrouped(typed);
  if (text === '') return { threshold: '' };
  if (!isDecimal(text)) return { threshold: '', problem: 'a size, such as 0.5' };
  if (compareDecimal(text, '0') <= 0) return { threshold: '', problem: 'above 0: at 0 or less every trade is large' };
  return { threshold: text };
}
