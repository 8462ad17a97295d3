// What counts as a large trade on the tape, per product, until the trader sets their own threshold.
import { compareDecimal } from '../../ui/decimal-text';

const DEFAULT_LARGE: Readonly<Record<string, string>> = { 'BTC-VND': '1', 'ETH-VND': '10', 'SOL-VND': '100' };

export function defaultLargeSize(productId: string): string {
  return DEFAULT_LARGE[productId] ?? '1';
}

export function isLargeTrade(size: string, threshold: string): boolean {
  return threshold !== '' && compareDecimal(size, threshold) >= 0;
}
