import { describe, expect, it } from 'vitest';
import { DESK_ERROR_CATALOGUE, ERROR_CATALOGUE } from '../../../src-shared/errors/catalogue';
import { errorNotice } from '../../../src-renderer/stores/notices-slice';
import { catalogueRows } from '../../../src-renderer/features/errors/catalogue-rows';

describe('error catalogue panel', () => {
  it("lists the desk's own references beside the venue's, so a reference a notice shows can be looked up", () => {
    // A locked keychain is told as E0801 with the catalogue's title (notices-slice reads findErrorRecord).
    const notice = errorNotice('E0801_KeychainUnavailable', 'E0801_KeychainUnavailable: the keychain is locked');
    expect(notice.title).toBe('Keychain locked or unavailable');
    const found = catalogueRows('E0801');
    expect(found.map((r) => r.ref)).toEqual(['E0801_KeychainUnavailable']);
    expect(found[0]).toMatchObject({ from: 'desk', title: notice.title });
    expect(catalogueRows('keychain').map((r) => r.ref)).toContain('E0801_KeychainUnavailable');
  });

  it("shows every venue reference as the venue's and every desk reference as the desk's", () => {
    const all = catalogueRows('');
    expect(all).toHaveLength(ERROR_CATALOGUE.length + DESK_ERROR_CATALOGUE.length);
    expect(all.filter((r) => r.from === 'desk').map((r) => r.ref)).toEqual(DESK_ERROR_CATALOGUE.map((r) => r.ref));
    expect(catalogueRows('  e0201 ').map((r) => [r.ref, r.from])).toEqual([['E0201_InsufficientBalance', 'venue']]);
  });
});
