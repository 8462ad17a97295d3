import { describe, expect, it } from 'vitest';
import { volumeUnit } from '../../../src-renderer/features/account/volume-unit';

describe('the unit of the volume traded', () => {
  it('names the quote asset the venue sums the volume in', () => {
    expect(volumeUnit([{ quote_asset_id: 'VND' }, { quote_asset_id: 'VND' }])).toBe('VND');
  });

  it('says it is in the quote asset when the products are quoted in several, or not known yet', () => {
    expect(volumeUnit([{ quote_asset_id: 'VND' }, { quote_asset_id: 'USDT' }])).toBe('in the quote asset');
    expect(volumeUnit([])).toBe('in the quote asset');
  });
});
