/** Sorting the Fills blotter by its Fee column: fees are in different assets, which one scale cannot order. */
import { describe, expect, it } from 'vitest';
import type { Fill } from '../../../src-shared/ipc/contract';
import { FILL_COLUMNS } from '../../../src-renderer/features/blotters/FillsPanel';
import { sortRows } from '../../../src-renderer/ui/sort';
import { columnSort } from '../../../src-renderer/ui/VirtualTable';

const fill = (tradeId: string, feeAmount: string, feeAsset: string): Fill => ({
  tradeId, orderId: `o-${tradeId}`, clientOrderId: '', productId: 'BTC-VND', side: feeAsset === 'BTC' ? 'BUY' : 'SELL',
  price: '2400000000', size: '0.01', liquidity: 'TAKER', feeAsset, feeAmount, time: tradeId,
});

describe('the Fills blotter sorted by fee', () => {
  const fee = FILL_COLUMNS.find((c) => c.key === 'fee');
  const fills = [fill('1', '48000', 'VND'), fill('2', '0.00002', 'BTC'), fill('3', '24000', 'VND'), fill('4', '15', 'BTC'), fill('5', '7', 'VND')];

  it('sorts by asset, then by amount within it, never 7 VND between 0.00002 BTC and 15 BTC as if one scale', () => {
    if (fee === undefined) throw new Error('no Fee column');
    expect(sortRows(fills, columnSort(fee, 'asc')).map((f) => `${f.feeAmount} ${f.feeAsset}`)).toEqual(['0.00002 BTC', '15 BTC', '7 VND', '24000 VND', '48000 VND']);
    expect(sortRows(fills, columnSort(fee, 'desc')).map((f) => `${f.feeAmount} ${f.feeAsset}`)).toEqual(['48000 VND', '24000 VND', '7 VND', '15 BTC', '0.00002 BTC']);
  });
});
