import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDesk } from '../../../src-renderer/stores/desk-store';
import { errorNotice } from '../../../src-renderer/stores/notices-slice';

const filled = (detail: string) => ({ kind: 'info' as const, ref: '', title: 'Filled', detail, explanation: '', action: '' });
const refused = (detail: string) => errorNotice('E0201_InsufficientBalance', `E0201_InsufficientBalance: ${detail}`);
const details = (): string[] => useDesk.getState().notices.map((n) => n.detail);

beforeEach(() => {
  vi.useFakeTimers();
  useDesk.setState({ notices: [] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('notices', () => {
  it('closes a Filled notice by itself after a few seconds', () => {
    useDesk.getState().notify(filled('BUY 0.001 BTC-VND'));
    expect(details()).toEqual(['BUY 0.001 BTC-VND']);
    vi.advanceTimersByTime(10_000);
    expect(details()).toEqual([]);
  });

  it('keeps an error until the trader dismisses it', () => {
    useDesk.getState().notify(refused('needs 1 VND'));
    vi.advanceTimersByTime(10 * 60_000);
    expect(details()).toEqual(['needs 1 VND']);
    const [notice] = useDesk.getState().notices;
    if (notice !== undefined) useDesk.getState().dismiss(notice.id);
    expect(details()).toEqual([]);
  });

  it('keeps only a handful at once, dropping the oldest, fills before errors', () => {
    const s = useDesk.getState();
    for (let i = 1; i <= 3; i++) s.notify(refused(`error ${i}`));
    for (let i = 1; i <= 10; i++) s.notify(filled(`fill ${i}`));
    const shown = details();
    expect(shown.length).toBeLessThanOrEqual(5);
    expect(shown[0]).toBe('fill 10');
    expect(shown).toEqual(expect.arrayContaining(['error 1', 'error 2', 'error 3']));
    for (let i = 4; i <= 30; i++) s.notify(refused(`error ${i}`));
    expect(details().length).toBeLessThanOrEqual(5);
    expect(details()[0]).toBe('error 30');
    expect(details()).not.toContain('error 1');
  });
});

describe('a call cut off by a lost link to the desk (browser mode)', () => {
  const lost = 'E0902_ServiceUnavailable: the connection to the desk was lost; the outcome is unknown';
  it('says not to send an order again before looking', () => {
    expect(errorNotice('E0902_ServiceUnavailable', lost, 'orders.place')).toMatchObject({ title: 'Outcome unknown: the link to the desk was lost', action: expect.stringMatching(/^Do not send it again/) as unknown });
  });
  it.each(['market.products', 'orders.cancelAll', 'orders.cancel', 'orders.active'] as const)('says to ask again of %s, which places no order', (method) => {
    const notice = errorNotice('E0902_ServiceUnavailable', lost, method);
    expect(notice.title).toBe('The link to the desk was lost');
    expect(notice.action).toBe('Once the desk answers again, ask again if it is still needed: this request places no order.');
  });
});
